// The preview webview's page: a strict Content-Security-Policy (nothing remote, only
// the extension's own stylesheet and one nonce'd script). Free of the `vscode` module.
import { randomBytes } from 'crypto';
import { ICONS } from './icons';
import { SPEEDS } from './replay';

export interface PageResources {
  /** `webview.cspSource`: the origin the webview serves the extension's files from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
}

export function contentSecurityPolicy(r: PageResources): string {
  return [
    "default-src 'none'",
    `style-src ${r.cspSource}`,
    `script-src 'nonce-${r.nonce}'`,
    `img-src ${r.cspSource}`,
    `font-src ${r.cspSource}`,
  ].join('; ');
}

/** A fresh, unguessable nonce per page. */
export function makeNonce(): string {
  return randomBytes(18).toString('base64');
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function previewHtml(r: PageResources): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(r))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(r.styleUri)}">
<title>boxls preview</title>
</head>
<body>
<main id="app">
  <h1 id="title">boxls preview</h1>
  <p id="status" role="status" aria-live="polite">Waiting for the server…</p>
  <div id="stage" hidden>
    <div id="controls" role="toolbar" aria-label="Replay">
      <button id="back" type="button" title="Step back (Left arrow)" aria-label="Step back">${ICONS.back}</button>
      <button id="play" type="button" title="Play (Space)" aria-label="Play">${ICONS.play}</button>
      <button id="forward" type="button" title="Step forward (Right arrow)" aria-label="Step forward">${ICONS.forward}</button>
      <button id="next-push" type="button" title="Skip to after the next push (] or Page Down; [ or Page Up goes back)" aria-label="Skip to the next push">${ICONS.nextPush}</button>
      <input id="scrub" type="range" min="0" max="0" value="0" step="1" aria-label="Move">
      <span id="counter" aria-live="off"></span>
      <label id="speed-label" title="Moves per second while playing (&lt; slower, &gt; faster)">Speed
        <select id="speed" aria-label="Moves per second">${SPEEDS.map((s) => `<option value="${s}">${s}/s</option>`).join('')}</select>
      </label>
      <span class="group" role="group" aria-label="View">
        <button id="zoom-out" type="button" title="Zoom out (-)" aria-label="Zoom out">${ICONS.zoomOut}</button>
        <button id="zoom-in" type="button" title="Zoom in (+)" aria-label="Zoom in">${ICONS.zoomIn}</button>
        <button id="fit" type="button" title="Fit the board (F)" aria-label="Fit the board">${ICONS.fit}</button>
        <button id="follow" type="button" title="Follow the box (B)" aria-label="Follow the box" aria-pressed="true">${ICONS.follow}</button>
      </span>
      <button id="difficulty" type="button" title="Difficulty layer: each cell shaded by the pushes the box needs from there (D)" aria-label="Difficulty layer" aria-pressed="false">${ICONS.difficulty}</button>
    </div>
    <div id="viewport">
      <canvas id="board" role="img" aria-roledescription="maze board" tabindex="0"
        title="Wheel or pinch to zoom, drag to pan; Shift+arrows pan, + and - zoom"></canvas>
      <div id="cell-tip" role="tooltip" hidden></div>
    </div>
    <p id="position" class="visually-hidden" aria-live="polite"></p>
    <ul id="legend" aria-label="Legend">
      <li><span class="swatch rock"></span>rock</li>
      <li><span class="swatch floor"></span>floor</li>
      <li><span class="swatch floor target"></span><span id="target-name">target</span></li>
      <li><span class="swatch floor dead"></span>dead square</li>
      <li><span class="swatch floor trail"></span><span id="trail-name">box's trail</span></li>
      <li><span class="swatch floor box"></span>box</li>
      <li><span class="swatch floor player"></span>player</li>
    </ul>
    <p id="difficulty-legend" hidden>Pushes with the box starting on a cell:
      <span class="heat-bar"></span><span id="difficulty-range"></span>
      <span class="swatch unsolvable"></span>unsolvable</p>
    <p id="difficulty-none" role="status" hidden></p>
  </div>
</main>
<script nonce="${r.nonce}" src="${escapeAttr(r.scriptUri)}"></script>
</body>
</html>`;
}
