import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { StartFailure, checkVersion, commandLine, serverCwd, spawnServer } from '../../src/launch';

test('the command line is shown as a shell would take it', () => {
  assert.equal(commandLine('/usr/local/bin/boxls', ['lsp']), '/usr/local/bin/boxls lsp');
  assert.equal(commandLine('/home/me/my tools/boxls', ['lsp']), "'/home/me/my tools/boxls' lsp");
  assert.equal(commandLine("/tmp/it's/boxls", ['lsp']), "'/tmp/it'\\''s/boxls' lsp");
  assert.equal(commandLine('', ['lsp']), "'' lsp");
});

test('a missing executable is a StartFailure saying so', async () => {
  const missing = path.join(os.tmpdir(), 'boxls-no-such-dir', 'boxls');
  await assert.rejects(spawnServer(missing, ['lsp']), (err: unknown) => {
    assert.ok(err instanceof StartFailure);
    assert.equal(err.message, 'no such file (ENOENT)');
    return true;
  });
});

test('a file that is not executable is a StartFailure saying so', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxls-launch-'));
  try {
    const file = path.join(dir, 'boxls');
    fs.writeFileSync(file, 'not a program', { mode: 0o644 });
    await assert.rejects(spawnServer(file, ['lsp']), /permission denied: not an executable file \(EACCES\)/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a program that exits at once reports its exit code and last stderr line', async () => {
  const server = await spawnServer(process.execPath, ['-e', 'console.error("warming up\\nerror: no such subcommand"); process.exit(2)']);
  assert.equal(await server.failure(10_000), 'exited with code 2: error: no such subcommand');
});

test('a running server has no failure', async () => {
  const server = await spawnServer(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  try {
    assert.equal(await server.failure(50), undefined);
  } finally {
    server.child.kill();
  }
});

/** Runs `body` with an executable shell script `boxls` whose body is `script`. */
async function withScript(script: string, body: (file: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boxls-version-'));
  try {
    const file = path.join(dir, 'boxls');
    fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    await body(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('--version: a boxls answers its version, from the home folder', async () => {
  await withScript('[ "$1" = --version ] && [ "$(pwd -P)" = "$(cd "$HOME" && pwd -P)" ] && echo "boxls 1.2.3"', async (file) => {
    assert.deepEqual(await checkVersion(file), { ok: true, version: '1.2.3' });
  });
  assert.equal(serverCwd(), os.homedir());
});

test('--version: a missing file, a failing program, a stranger and a hang are not boxls', async () => {
  assert.deepEqual(await checkVersion(path.join(os.tmpdir(), 'boxls-no-such-dir', 'boxls')), { ok: false, reason: 'no such file (ENOENT)' });
  await withScript('echo "boxls: bad" >&2; exit 3', async (file) => {
    assert.deepEqual(await checkVersion(file), { ok: false, reason: '--version exited with code 3: boxls: bad' });
  });
  await withScript('echo "rust-analyzer 1.0"', async (file) => {
    assert.deepEqual(await checkVersion(file), { ok: false, reason: 'answered --version with "rust-analyzer 1.0", not "boxls <version>"' });
  });
  await withScript('exec sleep 30', async (file) => {
    assert.deepEqual(await checkVersion(file, 200), { ok: false, reason: 'no answer to --version within 0.2 s' });
  });
});
