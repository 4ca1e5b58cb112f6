// Bundles the extension (src/extension.ts with vscode-languageclient) into
// dist/extension.js, and the preview's page script into dist/preview.js.
import * as esbuild from 'esbuild';

const production = !process.argv.includes('--dev');
const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'warning' };

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    format: 'cjs',
    platform: 'node',
    target: 'node18',
  }),
  esbuild.build({
    ...common,
    entryPoints: ['src/preview/webview/main.ts'],
    outfile: 'dist/preview.js',
    format: 'iife',
    platform: 'browser',
    target: 'chrome114',
  }),
]);
