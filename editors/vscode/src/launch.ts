// Starting the server process, and saying in words why it did not start. Kept free of
// the `vscode` module so that it can be unit-tested under plain node.
import { ChildProcess, execFile, spawn } from 'child_process';
import * as os from 'os';

/** The arguments the extension passes to the server executable. */
export const SERVER_ARGS = ['lsp'];

/** The command line as a user would type it into a POSIX shell (for logs and errors). */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}

function shellQuote(word: string): string {
  if (word.length > 0 && /^[A-Za-z0-9_@%+=:,./~-]+$/.test(word)) {
    return word;
  }
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A spawned server and what it said on stderr before it exited, if it did. */
export class ServerProcess {
  private stderrTail = '';
  private exitStatus: string | undefined;
  private readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (data: Buffer | string) => {
      // Only the end matters for an error message; a chatty server must not grow this.
      this.stderrTail = (this.stderrTail + data.toString()).slice(-2000);
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitStatus = code !== null ? `exited with code ${code}` : `was killed by ${signal}`;
        resolve();
      });
    });
  }

  /**
   * Why the process is gone, or undefined while it runs. Waits up to `graceMs` for the
   * exit, which can arrive just after the client noticed its output closing.
   */
  async failure(graceMs: number): Promise<string | undefined> {
    if (this.exitStatus === undefined) {
      await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    }
    if (this.exitStatus === undefined) {
      return undefined;
    }
    const lastLine = this.stderrTail.trim().split(/\r?\n/).pop()?.trim();
    return lastLine ? `${this.exitStatus}: ${lastLine}` : this.exitStatus;
  }
}

/** Why `spawn` failed, in words (the errno name kept for searching). */
export function describeSpawnError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return 'no such file (ENOENT)';
    case 'EACCES':
      return 'permission denied: not an executable file (EACCES)';
    case 'ENOTDIR':
      return 'a part of the path is not a folder (ENOTDIR)';
    default:
      return err.code ? `${err.message} (${err.code})` : err.message;
  }
}

/** An error whose message is already fit to show a user. */
export class StartFailure extends Error {}

/**
 * The folder the server (and its `--version` check) runs in: the home folder, never a
 * workspace folder, which must not be able to supply programs or files to it.
 */
export function serverCwd(): string {
  return os.homedir();
}

/** How long `<server> --version` may take before the binary counts as not working. */
export const VERSION_TIMEOUT_MS = 10_000;

/** Runs `<command> --version` and checks that it answers `boxls <version>`. */
export function checkVersion(command: string, timeoutMs: number = VERSION_TIMEOUT_MS): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    try {
      execFile(command, ['--version'], { cwd: serverCwd(), timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
        const answer = String(stdout).trim();
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: string | number | null };
          if (typeof e.code === 'string') {
            resolve({ ok: false, reason: describeSpawnError(e) });
          } else if (e.killed || e.signal) {
            resolve({ ok: false, reason: `no answer to --version within ${timeoutMs / 1000} s` });
          } else {
            const last = String(stderr).trim().split(/\r?\n/).pop()?.trim();
            resolve({ ok: false, reason: `--version exited with code ${e.code}${last ? `: ${last}` : ''}` });
          }
          return;
        }
        const m = /^boxls (\S+)$/.exec(answer.split(/\r?\n/)[0] ?? '');
        resolve(m ? { ok: true, version: m[1] } : { ok: false, reason: `answered --version with ${JSON.stringify(answer.slice(0, 80))}, not "boxls <version>"` });
      });
    } catch (err) {
      // execFile throws synchronously for arguments it rejects outright (e.g. a NUL byte).
      resolve({ ok: false, reason: err instanceof Error ? err.message : String(err) });
    }
  });
}

/** Spawns the server; resolves once it runs, rejects with a `StartFailure` if it cannot. */
export function spawnServer(command: string, args: readonly string[], cwd?: string): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(command, args, { cwd, stdio: 'pipe', windowsHide: true });
    } catch (err) {
      // spawn throws synchronously for arguments it rejects outright (e.g. a NUL byte).
      reject(new StartFailure(err instanceof Error ? err.message : String(err)));
      return;
    }
    child.once('spawn', () => resolve(new ServerProcess(child)));
    child.once('error', (err) => reject(new StartFailure(describeSpawnError(err))));
  });
}
