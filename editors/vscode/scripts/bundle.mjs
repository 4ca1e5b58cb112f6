// Bundles src/extension.ts (and vscode-languageclient) into dist/extension.js.
import * as esbuild from 'esbuild';

const production = !process.argv.includes('--dev');

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
});
