// Which boxls executable to run: the `boxls.path` setting, else the server bundled in
// the extension, else `boxls` on PATH, each checked to answer `--version` before it is
// used. Kept free of the `vscode` module so that it can be unit-tested under plain node.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface ResolveInput {
  /** The `boxls.path` setting; empty or whitespace means "not set". */
  configured: string | undefined;
  /** The extension's install folder (`context.extensionPath`). */
  extensionPath: string;
  /** `process.env.PATH` (and `PATHEXT` on Windows). */
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** True when `file` is an existing regular file we may execute. */
  isExecutable?: (file: string) => boolean;
  /** For `~`; `os.homedir()` when absent. */
  home?: string;
}

export type Source = 'setting' | 'bundled' | 'PATH';

/** An executable worth trying, and where it came from. */
export interface Candidate {
  command: string;
  source: Source;
}

/**
 * What to try, in order, and what was passed over on the way (for the log and the
 * notification); or why nothing may be tried (a relative `boxls.path`).
 */
export type Lookup =
  | { kind: 'candidates'; candidates: Candidate[]; skipped: string[] }
  | { kind: 'invalid'; message: string };

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

/**
 * Looks `name` up in `PATH` the way a shell would; undefined when absent. Only absolute
 * folders count: a relative PATH entry would be resolved against whatever folder VS Code
 * runs in, which a workspace could supply.
 */
export function which(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const sep = platform === 'win32' ? ';' : ':';
  const dirs = (env.PATH ?? env.Path ?? '').split(sep).filter((d) => d.length > 0 && pathApi.isAbsolute(d));
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

/** Expands a leading `~`; anything else is returned as given. */
export function expandHome(p: string, platform: NodeJS.Platform, home: string = os.homedir()): string {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  if (p === '~' || p.startsWith('~/') || (platform === 'win32' && p.startsWith('~\\'))) {
    return pathApi.join(home, p.slice(1));
  }
  return p;
}

/** The bundled server's path inside the extension. */
export function bundledPath(extensionPath: string, platform: NodeJS.Platform): string {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  return pathApi.join(extensionPath, 'server', platform === 'win32' ? 'boxls.exe' : 'boxls');
}

/**
 * What to try: the setting alone when set (it must be absolute after `~` expansion; a
 * relative one is an error, never resolved against a workspace folder), else the
 * bundled server and then `boxls` on PATH, whichever exist.
 */
export function serverCandidates(input: ResolveInput): Lookup {
  const isExe = input.isExecutable ?? defaultIsExecutable;
  const pathApi = input.platform === 'win32' ? path.win32 : path.posix;
  const configured = input.configured?.trim();
  if (configured) {
    const expanded = expandHome(configured, input.platform, input.home);
    if (!pathApi.isAbsolute(expanded)) {
      return {
        kind: 'invalid',
        message: `\`boxls.path\` is \`${configured}\`, a relative path: set an absolute path (or one starting with \`~\`); it is never looked up in a workspace folder.`,
      };
    }
    return { kind: 'candidates', candidates: [{ command: expanded, source: 'setting' }], skipped: [] };
  }
  const candidates: Candidate[] = [];
  const skipped: string[] = ['boxls.path is not set'];
  const bundled = bundledPath(input.extensionPath, input.platform);
  if (isExe(bundled)) {
    candidates.push({ command: bundled, source: 'bundled' });
  } else {
    skipped.push(`no bundled server at ${bundled}`);
  }
  const onPath = which('boxls', input.env, input.platform, isExe);
  if (onPath) {
    candidates.push({ command: onPath, source: 'PATH' });
  } else {
    skipped.push('no boxls on PATH');
  }
  return { kind: 'candidates', candidates, skipped };
}

export function describeSource(source: Source): string {
  switch (source) {
    case 'setting':
      return 'from the boxls.path setting';
    case 'bundled':
      return 'bundled with the extension';
    case 'PATH':
      return 'found on PATH';
  }
}

/** What `<command> --version` said: the version, or why it is not a working boxls. */
export type VersionCheck = { ok: true; version: string } | { ok: false; reason: string };

export interface Choice {
  /** The first candidate that answered `--version`; undefined when none did. */
  chosen?: Candidate & { version: string };
  /** One line per candidate tried and per place passed over, in order. */
  tried: string[];
}

/** Tries the candidates in order and takes the first that answers `--version`. */
export async function chooseServer(
  candidates: Candidate[],
  skipped: string[],
  check: (command: string) => Promise<VersionCheck>,
): Promise<Choice> {
  const tried: string[] = [];
  for (const candidate of candidates) {
    const answer = await check(candidate.command);
    const where = `${candidate.command} (${describeSource(candidate.source)})`;
    if (answer.ok) {
      tried.push(`${where}: boxls ${answer.version}`);
      return { chosen: { ...candidate, version: answer.version }, tried: [...tried, ...skipped] };
    }
    tried.push(`${where}: ${answer.reason}`);
  }
  return { tried: [...tried, ...skipped] };
}

/** The words a user needs when no server works. */
export const INSTALL_HINT =
  'Install the boxls .vsix built for your platform (it has the server inside), or put `boxls` on PATH (the release archive, or `cargo install boxls`), or set `boxls.path` to its absolute path.';
