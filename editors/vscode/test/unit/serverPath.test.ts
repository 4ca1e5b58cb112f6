import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'path';
import { Lookup, chooseServer, expandHome, serverCandidates, which } from '../../src/serverPath';

const exists = (files: string[]) => (f: string) => files.includes(f);
const linux = { extensionPath: '/ext', env: { PATH: '/usr/bin' }, platform: 'linux' as const, home: '/home/me' };

function candidates(lookup: Lookup) {
  assert.equal(lookup.kind, 'candidates');
  return lookup.kind === 'candidates' ? lookup : { candidates: [], skipped: [] };
}

test('a configured absolute path is the only candidate, over the bundled server and PATH', () => {
  const l = candidates(
    serverCandidates({ ...linux, configured: '/opt/boxls/bin/boxls', isExecutable: exists(['/usr/bin/boxls', '/ext/server/boxls']) }),
  );
  assert.deepEqual(l.candidates, [{ command: '/opt/boxls/bin/boxls', source: 'setting' }]);
});

test('a configured `~` path is expanded against the home folder', () => {
  const l = candidates(serverCandidates({ ...linux, configured: '~/bin/boxls', isExecutable: exists([]) }));
  assert.deepEqual(l.candidates, [{ command: '/home/me/bin/boxls', source: 'setting' }]);
  assert.equal(expandHome('~', 'linux', '/home/me'), '/home/me');
  assert.equal(expandHome('C:\\x\\boxls.exe', 'win32', 'C:\\Users\\me'), 'C:\\x\\boxls.exe');
  assert.equal(expandHome('~\\bin\\boxls.exe', 'win32', 'C:\\Users\\me'), path.win32.join('C:\\Users\\me', 'bin\\boxls.exe'));
});

test('a relative setting is an error, never resolved against a folder or PATH', () => {
  for (const configured of ['target/release/boxls', './boxls', 'boxls', '~user/boxls']) {
    const l = serverCandidates({ ...linux, configured, isExecutable: () => true });
    assert.equal(l.kind, 'invalid', configured);
    assert.ok(l.kind === 'invalid' && l.message.includes(`\`${configured}\`, a relative path`), configured);
  }
});

test('with no setting: the bundled server first, then PATH, and what was passed over', () => {
  const both = candidates(serverCandidates({ ...linux, configured: '  ', isExecutable: exists(['/usr/bin/boxls', '/ext/server/boxls']) }));
  assert.deepEqual(both.candidates, [
    { command: '/ext/server/boxls', source: 'bundled' },
    { command: '/usr/bin/boxls', source: 'PATH' },
  ]);
  assert.deepEqual(both.skipped, ['boxls.path is not set']);
  const none = candidates(serverCandidates({ ...linux, configured: undefined, isExecutable: exists([]) }));
  assert.deepEqual(none.candidates, []);
  assert.deepEqual(none.skipped, ['boxls.path is not set', 'no bundled server at /ext/server/boxls', 'no boxls on PATH']);
});

test('PATH: first match wins, and relative entries are never searched', () => {
  assert.equal(which('boxls', { PATH: '/a::/b:/c' }, 'linux', exists(['/b/boxls', '/c/boxls'])), '/b/boxls');
  assert.equal(which('boxls', { PATH: '.:bin:/c' }, 'linux', exists(['boxls', 'bin/boxls', '/c/boxls'])), '/c/boxls');
  assert.equal(which('boxls', { PATH: '.:bin' }, 'linux', () => true), undefined);
});

test('Windows: PATHEXT and the bundled boxls.exe', () => {
  const env = { Path: 'C:\\tools;C:\\bin', PATHEXT: '.COM;.EXE' };
  assert.equal(which('boxls', env, 'win32', exists(['C:\\bin\\boxls.exe'])), 'C:\\bin\\boxls.exe');
  const l = candidates(
    serverCandidates({ configured: '', extensionPath: 'C:\\ext', env, platform: 'win32', isExecutable: exists(['C:\\ext\\server\\boxls.exe']) }),
  );
  assert.deepEqual(l.candidates, [{ command: 'C:\\ext\\server\\boxls.exe', source: 'bundled' }]);
});

test('the first candidate answering --version is chosen; the log says what was tried and why', async () => {
  const seen: string[] = [];
  const choice = await chooseServer(
    [
      { command: '/ext/server/boxls', source: 'bundled' },
      { command: '/usr/bin/boxls', source: 'PATH' },
    ],
    ['boxls.path is not set'],
    async (command) => {
      seen.push(command);
      return command === '/usr/bin/boxls' ? { ok: true, version: '0.1.0' } : { ok: false, reason: 'exec format error (ENOEXEC)' };
    },
  );
  assert.deepEqual(seen, ['/ext/server/boxls', '/usr/bin/boxls']);
  assert.deepEqual(choice.chosen, { command: '/usr/bin/boxls', source: 'PATH', version: '0.1.0' });
  assert.deepEqual(choice.tried, [
    '/ext/server/boxls (bundled with the extension): exec format error (ENOEXEC)',
    '/usr/bin/boxls (found on PATH): boxls 0.1.0',
    'boxls.path is not set',
  ]);
});

test('a working first candidate stops the search; none working chooses nothing', async () => {
  const seen: string[] = [];
  const ok = await chooseServer(
    [
      { command: '/a', source: 'bundled' },
      { command: '/b', source: 'PATH' },
    ],
    [],
    async (c) => (seen.push(c), { ok: true, version: '9' }),
  );
  assert.equal(ok.chosen?.command, '/a');
  assert.deepEqual(seen, ['/a']);
  const none = await chooseServer([], ['boxls.path is not set', 'no boxls on PATH'], async () => ({ ok: true, version: '9' }));
  assert.equal(none.chosen, undefined);
  assert.deepEqual(none.tried, ['boxls.path is not set', 'no boxls on PATH']);
});
