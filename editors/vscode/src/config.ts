// The server's configuration section `boxls`, as a plain JSON object (what the server
// reads from initializationOptions, workspace/configuration and didChangeConfiguration).
// Kept free of the `vscode` module so that it can be unit-tested under plain node.

export interface ServerConfig {
  solve: { maxCells: number; timeoutMs: number };
  inlayHints: { enable: boolean };
  deadSquares: { enable: boolean };
}

export const DEFAULTS: ServerConfig = {
  solve: { maxCells: 4000000, timeoutMs: 10000 },
  inlayHints: { enable: true },
  deadSquares: { enable: true },
};

/** `get(key)` reads a dotted key under `boxls` (like `WorkspaceConfiguration.get`). */
export function serverConfig(get: (key: string) => unknown): ServerConfig {
  const num = (key: string, def: number): number => {
    const v = get(key);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : def;
  };
  const bool = (key: string, def: boolean): boolean => {
    const v = get(key);
    return typeof v === 'boolean' ? v : def;
  };
  return {
    solve: {
      maxCells: num('solve.maxCells', DEFAULTS.solve.maxCells),
      timeoutMs: num('solve.timeoutMs', DEFAULTS.solve.timeoutMs),
    },
    inlayHints: { enable: bool('inlayHints.enable', DEFAULTS.inlayHints.enable) },
    deadSquares: { enable: bool('deadSquares.enable', DEFAULTS.deadSquares.enable) },
  };
}
