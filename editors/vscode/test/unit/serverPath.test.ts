import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as os from 'os';
import * as path from 'path';
import { expandPath, resolveServerPath, which } from '../../src/serverPath';

const exists = (files: string[]) => (f: string) => files.includes(f);

test('a configured path wins over PATH and the bundled server', () => {
  const r = resolveServerPath({
    configured: '/opt/boxls/bin/boxls',
    extensionPath: '/ext',
    env: { PATH: '/usr/bin' },
    platform: 'linux',
    isExecutable: exists(['/usr/bin/boxls', '/ext/server/boxls']),
  });
  assert.deepEqual(r, { command: '/opt/boxls/bin/boxls', source: 'setting' });
});

test('an empty setting falls back to PATH, first match wins', () => {
  const r = resolveServerPath({
    configured: '  ',
    extensionPath: '/ext',
    env: { PATH: '/a::/b:/c' },
    platform: 'linux',
    isExecutable: exists(['/b/boxls', '/c/boxls', '/ext/server/boxls']),
  });
  assert.deepEqual(r, { command: '/b/boxls', source: 'PATH' });
});

test('then the bundled binary, then plain `boxls`', () => {
  const base = { configured: undefined, extensionPath: '/ext', env: { PATH: '/a' }, platform: 'linux' as const };
  assert.deepEqual(resolveServerPath({ ...base, isExecutable: exists(['/ext/server/boxls']) }), {
    command: '/ext/server/boxls',
    source: 'bundled',
  });
  assert.deepEqual(resolveServerPath({ ...base, isExecutable: exists([]) }), { command: 'boxls', source: 'fallback' });
});

test('Windows: PATHEXT and the bundled boxls.exe', () => {
  const env = { Path: 'C:\\tools;C:\\bin', PATHEXT: '.COM;.EXE' };
  assert.equal(which('boxls', env, 'win32', exists(['C:\\bin\\boxls.exe'])), 'C:\\bin\\boxls.exe');
  const r = resolveServerPath({
    configured: '',
    extensionPath: 'C:\\ext',
    env,
    platform: 'win32',
    isExecutable: exists(['C:\\ext\\server\\boxls.exe']),
  });
  assert.deepEqual(r, { command: 'C:\\ext\\server\\boxls.exe', source: 'bundled' });
});

test('`~` and workspace-relative settings are expanded; bare names are kept', () => {
  assert.equal(expandPath('~/bin/boxls', undefined, 'linux'), path.posix.join(os.homedir(), 'bin/boxls'));
  assert.equal(expandPath('target/release/boxls', '/ws', 'linux'), '/ws/target/release/boxls');
  assert.equal(expandPath('boxls-dev', '/ws', 'linux'), 'boxls-dev');
  assert.equal(expandPath('/abs/boxls', '/ws', 'linux'), '/abs/boxls');
});
