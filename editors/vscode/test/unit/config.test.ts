import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DEFAULTS, serverConfig } from '../../src/config';

test('unset keys give the defaults', () => {
  assert.deepEqual(serverConfig(() => undefined), DEFAULTS);
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

test('mistyped or non-positive values keep the defaults', () => {
  const values: Record<string, unknown> = {
    'solve.maxCells': -5,
    'solve.timeoutMs': 'soon',
    'inlayHints.enable': 'yes',
  };
  assert.deepEqual(serverConfig((k) => values[k]), DEFAULTS);
});
