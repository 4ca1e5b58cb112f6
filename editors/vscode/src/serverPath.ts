// Where the boxls executable is: kept free of the `vscode` module so that it can be
// unit-tested under plain node.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface ResolveInput {
  /** The `boxls.path` setting; empty or whitespace means "not set". */
  configured: string | undefined;
  /** The extension's install folder (`context.extensionPath`). */
  extensionPath: string;
  /** First workspace folder, used to resolve a relative `boxls.path`. */
  workspaceFolder?: string;
  /** `process.env.PATH` (and `PATHEXT` on Windows). */
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** True when `file` is an existing regular file we may execute. */
  isExecutable?: (file: string) => boolean;
}

export interface Resolved {
  command: string;
  /** How it was found, for the output channel and error messages. */
  source: 'setting' | 'PATH' | 'bundled' | 'fallback';
}

export function defaultIsExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === 'win32') {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function exeNames(base: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform !== 'win32') {
    return [base];
  }
  const exts = (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e.length > 0);
  return [base, ...exts.map((e) => base + e.toLowerCase()), ...exts.map((e) => base + e.toUpperCase())];
}

/** Looks `name` up in `PATH` the way a shell would; undefined when absent. */
export function which(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const sep = platform === 'win32' ? ';' : ':';
  const dirs = (env.PATH ?? env.Path ?? '').split(sep).filter((d) => d.length > 0);
  for (const dir of dirs) {
    for (const candidate of exeNames(name, platform, env)) {
      const full = pathApi.join(dir, candidate);
      if (isExecutable(full)) {
        return full;
      }
    }
  }
  return undefined;
}

/** Expands a leading `~` and makes a relative path absolute against the workspace. */
export function expandPath(p: string, workspaceFolder: string | undefined, platform: NodeJS.Platform): string {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  let out = p;
  if (out === '~' || out.startsWith('~/') || out.startsWith('~\\')) {
    out = pathApi.join(os.homedir(), out.slice(1));
  }
  // A bare command name (no separator) is left for the OS to find on PATH.
  const hasSep = out.includes('/') || (platform === 'win32' && out.includes('\\'));
  if (hasSep && !pathApi.isAbsolute(out) && workspaceFolder) {
    out = pathApi.resolve(workspaceFolder, out);
  }
  return out;
}

/**
 * The server command: the `boxls.path` setting when set; else `boxls` on PATH; else the
 * binary bundled at `<extension>/server/boxls` when present; else plain `boxls` (which
 * then fails to start with a clear message).
 */
export function resolveServerPath(input: ResolveInput): Resolved {
  const isExe = input.isExecutable ?? defaultIsExecutable;
  const configured = input.configured?.trim();
  if (configured) {
    return { command: expandPath(configured, input.workspaceFolder, input.platform), source: 'setting' };
  }
  const onPath = which('boxls', input.env, input.platform, isExe);
  if (onPath) {
    return { command: onPath, source: 'PATH' };
  }
  const pathApi = input.platform === 'win32' ? path.win32 : path.posix;
  const bundledName = input.platform === 'win32' ? 'boxls.exe' : 'boxls';
  const bundled = pathApi.join(input.extensionPath, 'server', bundledName);
  if (isExe(bundled)) {
    return { command: bundled, source: 'bundled' };
  }
  return { command: 'boxls', source: 'fallback' };
}
