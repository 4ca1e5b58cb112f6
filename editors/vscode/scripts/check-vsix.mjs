// Checks a packaged .vsix: the manifest contributes what the extension promises, the
// files it points at are inside, and the bundle loads (against a stub `vscode`).
// Usage: node scripts/check-vsix.mjs boxls.vsix
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Unix modes of the entries, by name (from the central directory's external attributes). */
const modes = new Map();

/** Minimal zip reader: name -> Buffer, from the central directory. */
function readZip(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const files = new Map();
  for (let k = 0; k < count; k++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const csize = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const external = buf.readUInt32LE(p + 38);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const lNameLen = buf.readUInt16LE(local + 26);
    const lExtraLen = buf.readUInt16LE(local + 28);
    const data = buf.subarray(local + 30 + lNameLen + lExtraLen, local + 30 + lNameLen + lExtraLen + csize);
    modes.set(name, external >>> 16);
    files.set(name, method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : null);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

const vsixPath = process.argv[2] ?? 'boxls.vsix';
const zip = readZip(readFileSync(vsixPath));
const file = (p) => zip.get('extension/' + p.replace(/^\.\//, ''));
const pkg = JSON.parse(file('package.json').toString('utf8'));
const c = pkg.contributes ?? {};

// Engine and entry point.
check(/^\^1\.(8[2-9]|9\d)\./.test(pkg.engines?.vscode ?? ''), `engines.vscode is ^1.82 or so (got ${pkg.engines?.vscode})`);
check(pkg.main && file(pkg.main), `main ${pkg.main} is in the vsix`);
check(!zip.has('extension/node_modules/') && ![...zip.keys()].some((k) => k.includes('node_modules/')), 'no node_modules in the vsix (bundled)');
check(![...zip.keys()].some((k) => k.startsWith('extension/src/')), 'no TypeScript sources in the vsix');

// Language and language configuration.
const lang = (c.languages ?? []).find((l) => l.id === 'box');
check(lang, 'language `box` is contributed');
check(lang?.extensions?.includes('.box'), 'language `box` claims *.box');
const langConf = lang?.configuration && file(lang.configuration);
check(langConf, 'language configuration is in the vsix');
if (langConf) {
  check(JSON.parse(langConf.toString('utf8')).comments?.lineComment === ';', 'line comments are `;`');
}

// Grammar.
const grammar = (c.grammars ?? []).find((g) => g.language === 'box');
check(grammar?.scopeName === 'source.box', 'grammar source.box for language box');
const grammarFile = grammar?.path && file(grammar.path);
check(grammarFile, `grammar file ${grammar?.path} is in the vsix`);
if (grammarFile) {
  check(JSON.parse(grammarFile.toString('utf8')).scopeName === 'source.box', 'grammar file has scopeName source.box');
}

// Sokoban levels: their own language, configuration and grammar, served by the same client.
const soko = (c.languages ?? []).find((l) => l.id === 'sokoban');
check(soko, 'language `sokoban` is contributed');
check(['.xsb', '.sok'].every((e) => soko?.extensions?.includes(e)), 'language `sokoban` claims *.xsb and *.sok');
check(soko?.aliases?.includes('Sokoban level'), 'language `sokoban` is called "Sokoban level"');
const sokoConf = soko?.configuration && file(soko.configuration);
check(sokoConf && JSON.parse(sokoConf.toString('utf8')).comments?.lineComment === ';', 'Sokoban line comments are `;`');
const sokoGrammar = (c.grammars ?? []).find((g) => g.language === 'sokoban');
const sokoGrammarFile = sokoGrammar?.path && file(sokoGrammar.path);
check(sokoGrammar?.scopeName === 'source.sokoban' && sokoGrammarFile, 'grammar source.sokoban for language sokoban is in the vsix');
check((pkg.activationEvents ?? []).includes('onLanguage:sokoban'), 'the extension starts on a Sokoban level');

// Settings. The server's own (keys, types, defaults, descriptions) are checked against
// `boxls lsp --print-schema` by the Rust tests (tests/it/lsp/extensions.rs); here, the
// extension's own settings.
const props = c.configuration?.properties ?? {};
const expected = {
  'boxls.path': ['string', ''],
  'boxls.trace.server': ['string', 'off'],
};
for (const [key, [type, def]] of Object.entries(expected)) {
  check(props[key]?.type === type, `setting ${key} has type ${type}`);
  check(props[key]?.default === def, `setting ${key} defaults to ${JSON.stringify(def)}`);
}
check(JSON.stringify(props['boxls.trace.server']?.enum) === '["off","messages","verbose"]', 'boxls.trace.server enum');

// Commands; the preview's button in the editor title bar of .box and Sokoban files, and its files.
check((c.commands ?? []).some((cmd) => cmd.command === 'boxls.restartServer'), 'command boxls.restartServer');
check((c.commands ?? []).some((cmd) => cmd.command === 'boxls.showPreviewToSide' && cmd.icon), 'command boxls.showPreviewToSide with an icon');
check(
  (c.menus?.['editor/title'] ?? []).some((m) => m.command === 'boxls.showPreviewToSide' && m.group === 'navigation' && m.when === 'editorLangId == box || editorLangId == sokoban'),
  'the preview button is in the editor title bar of .box and Sokoban files',
);
for (const f of ['dist/preview.js', 'media/preview.css']) check(file(f), `${f} is in the vsix`);

// Semantic tokens: every type and modifier of the server's legend must be declared and
// styled. The legend's one source is the server (`boxls lsp --print-schema`); the Rust
// tests (tests/it/lsp/extensions.rs) check the repository's package.json against it,
// and this checks that the packaged manifest is that package.json.
const source = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
check(JSON.stringify(source.contributes) === JSON.stringify(c), 'the packaged contributes are the repository package.json\'s');
const legend = Object.keys(source.contributes.semanticTokenScopes?.[0]?.scopes ?? {}).filter((k) => !k.includes('.'));
const standard = new Set(['number', 'comment']);
const types = new Set((c.semanticTokenTypes ?? []).map((t) => t.id));
for (const t of legend.filter((t) => !standard.has(t))) check(types.has(t), `semantic token type ${t} is declared`);
const modifiers = ['dead', 'onGoal'];
for (const m of modifiers) check((c.semanticTokenModifiers ?? []).some((d) => d.id === m), `semantic token modifier ${m} is declared`);
const scopes = (c.semanticTokenScopes ?? []).find((s) => s.language === 'box')?.scopes ?? {};
for (const t of legend) check(Array.isArray(scopes[t]) && scopes[t].length > 0, `semantic token ${t} is mapped to a scope`);
// The server marks a free cell, the player's start or the box's start dead (the target
// never is); each must be styled, or a theme shows that dead square like a live one.
for (const t of ['free', 'player', 'box']) check(Array.isArray(scopes[`${t}.dead`]), `semantic token ${t}.dead is mapped to a scope`);
// A level's `*` box and `+` player are onGoal: styled as the grammar's on-goal pieces.
const sokoScopes = (c.semanticTokenScopes ?? []).find((s) => s.language === 'sokoban')?.scopes ?? {};
for (const t of ['player', 'box']) check(Array.isArray(sokoScopes[`${t}.onGoal`]), `sokoban: semantic token ${t}.onGoal is mapped to a scope`);

// Licences (no --skip-license), and in a platform package the server, executable.
for (const f of ['LICENSE-MIT', 'LICENSE-APACHE', 'LICENSE.md']) check(file(f), `${f} is in the vsix`);
const vsixManifest = zip.get('extension.vsixmanifest')?.toString('utf8') ?? '';
check(/<License>extension\/LICENSE\.md<\/License>/.test(vsixManifest), 'the manifest names the licence file');
const platform = /TargetPlatform="([^"]+)"/.exec(vsixManifest)?.[1];
if (platform) {
  const exe = `server/${platform.startsWith('win32') ? 'boxls.exe' : 'boxls'}`;
  check(file(exe)?.length > 100_000, `${platform}: the server ${exe} is in the vsix`);
  check(platform.startsWith('win32') || (modes.get(`extension/${exe}`) & 0o111) === 0o111, `${platform}: ${exe} is executable`);
} else {
  check(![...zip.keys()].some((k) => k.startsWith('extension/server/')), 'the universal vsix has no server/');
}

// Untrusted folders: their settings must never choose the executable VS Code runs.
const untrusted = pkg.capabilities?.untrustedWorkspaces;
check(untrusted?.supported === 'limited', 'capabilities.untrustedWorkspaces.supported is "limited"');
check(JSON.stringify(untrusted?.restrictedConfigurations) === '["boxls.path"]', 'untrusted workspaces restrict boxls.path');
// Grammar and semantic tokens speak one scope vocabulary, so a theme colours a cell the
// same before and after the server attaches (dead squares only the server knows).
/** Every scope name a grammar file uses. */
function grammarScopes(buf) {
  const names = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'name' || k === 'contentName') && typeof x === 'string') x.split(/\s+/).forEach((n) => names.add(n));
        else walk(x);
      }
    }
  };
  walk(JSON.parse(buf.toString('utf8')));
  return names;
}
for (const [language, buf] of [['box', grammarFile], ['sokoban', sokoGrammarFile]]) {
  if (!buf) continue;
  const names = grammarScopes(buf);
  const mapped = (c.semanticTokenScopes ?? []).find((s) => s.language === language)?.scopes ?? {};
  for (const t of legend) check(Array.isArray(mapped[t]) && mapped[t].length > 0, `${language}: semantic token ${t} is mapped to a scope`);
  for (const [sel, list] of Object.entries(mapped)) {
    if (!sel.endsWith('.dead')) check(names.has(list[0]), `${language}: semantic token ${sel} maps to ${list[0]}, a scope the grammar uses`);
  }
}

// The bundle loads with only `vscode` external and exports activate/deactivate.
const dir = mkdtempSync(join(tmpdir(), 'boxls-vsix-'));
try {
  const js = join(dir, 'extension.js');
  writeFileSync(js, file(pkg.main));
  const require = createRequire(import.meta.url);
  const Module = require('node:module');
  const orig = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? new Proxy({}, { get: () => class Stub {} }) : orig.call(this, request, ...rest);
  };
  try {
    const ext = require(js);
    check(typeof ext.activate === 'function' && typeof ext.deactivate === 'function', 'bundle exports activate/deactivate');
  } catch (e) {
    failures.push(`bundle loads: ${e.message}`);
  } finally {
    Module._load = orig;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length) {
  console.error(`vsix check: ${failures.length} failure(s) in ${vsixPath}:\n  - ${failures.join('\n  - ')}`);
  process.exit(1);
}
console.log(`vsix check: ${vsixPath} ok (${zip.size} files; ${platform ?? 'universal'}; languages box and sokoban, grammars source.box and source.sokoban, ${Object.keys(props).length} settings, ${legend.length} token types + ${modifiers.join(', ')})`);
