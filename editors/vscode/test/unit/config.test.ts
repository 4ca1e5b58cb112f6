import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { serverConfig } from '../../src/config';

test('unset keys are left out, so the server keeps its defaults', () => {
  assert.deepEqual(serverConfig(() => undefined), {});
});

test('set keys are nested as the server reads them', () => {
  const values: Record<string, unknown> = {
    'solve.maxCells': 100,
    'solve.timeoutMs': 2500.7,
    'inlayHints.enable': false,
    'deadSquares.enable': false,
  };
  assert.deepEqual(serverConfig((k) => values[k]), {
    solve: { maxCells: 100, timeoutMs: 2500 },
    inlayHints: { enable: false },
    deadSquares: { enable: false },
  });
});

test('mistyped or non-positive values are left out', () => {
  const values: Record<string, unknown> = {
    'solve.maxCells': -5,
    'solve.timeoutMs': 'soon',
    'inlayHints.enable': 'yes',
    'deadSquares.enable': true,
  };
  assert.deepEqual(serverConfig((k) => values[k]), { deadSquares: { enable: true } });
});
