// Bundles the unit tests (which avoid the `vscode` module) and runs them with node:test.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const out = mkdtempSync(join(tmpdir(), 'boxls-unit-'));
try {
  const tests = readdirSync('test/unit').filter((f) => f.endsWith('.test.ts'));
  await esbuild.build({
    entryPoints: tests.map((f) => join('test/unit', f)),
    bundle: true,
    outdir: out,
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    logLevel: 'warning',
  });
  const files = readdirSync(out).map((f) => join(out, f));
  const r = spawnSync(process.execPath, ['--test', ...files], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
