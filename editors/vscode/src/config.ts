// The server's configuration section `boxls`, as a plain JSON object (what the server
// reads from initializationOptions, workspace/configuration and didChangeConfiguration).
// Kept free of the `vscode` module so that it can be unit-tested under plain node.
//
// No defaults here: the server owns them (`boxls lsp --print-schema`), package.json's
// are checked against it, and a key left out keeps the server's default.

export interface ServerConfig {
  solve?: { maxCells?: number; timeoutMs?: number };
  inlayHints?: { enable?: boolean };
  deadSquares?: { enable?: boolean };
}

/** `get(key)` reads a dotted key under `boxls` (like `WorkspaceConfiguration.get`). */
export function serverConfig(get: (key: string) => unknown): ServerConfig {
  const out: Record<string, Record<string, unknown>> = {};
  const put = (key: string, value: unknown) => {
    const [group, name] = key.split('.');
    (out[group] ??= {})[name] = value;
  };
  for (const key of ['solve.maxCells', 'solve.timeoutMs']) {
    const v = get(key);
    if (typeof v === 'number' && Number.isFinite(v) && v >= 1) put(key, Math.floor(v));
  }
  for (const key of ['inlayHints.enable', 'deadSquares.enable']) {
    const v = get(key);
    if (typeof v === 'boolean') put(key, v);
  }
  return out as ServerConfig;
}
