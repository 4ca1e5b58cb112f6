// *Open Preview to the Side* for `.box` and Sokoban (`.xsb`, `.sok`) files: a webview
// beside the editor that shows the maze or level at the cursor and plays its solution
// (data from `boxls/replay`: the server plays it, the page only indexes its deltas).
// Like Markdown's preview it follows the active editor of either kind and its cursor,
// and redraws as the text changes; an answer for an older version is dropped.
// With the page's difficulty layer on, each board's map (`boxls/difficulty`) follows it.
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { makeNonce, previewHtml } from './html';
import { MazeState, Note, noBoard, parseMazeState } from './maze';
import { Replay, parseReplay } from './replay';
import { parseDifficulty } from './difficulty';

export const PREVIEW_COMMAND = 'boxls.showPreviewToSide';
const VIEW_TYPE = 'boxls.preview';
const MAZE_REQUEST = 'boxls/maze';
const REPLAY_REQUEST = 'boxls/replay';
const SETTLED_REQUEST = 'boxls/settled';
const DIFFICULTY_REQUEST = 'boxls/difficulty';

export function registerPreview(
  context: vscode.ExtensionContext,
  client: () => LanguageClient | undefined,
  log: vscode.LogOutputChannel,
): void {
  const preview = new Preview(context.extensionUri, client, log);
  context.subscriptions.push(
    preview,
    vscode.commands.registerCommand(PREVIEW_COMMAND, (uri?: vscode.Uri) => preview.show(uri)),
  );
}

class Preview implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The document shown and the cursor in it. */
  private source: { uri: vscode.Uri; position: vscode.Position } | undefined;
  /** Bumped by every refresh; an answer is shown only if no later refresh started. */
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The board the webview shows (document, version, maze): sent once, not per refresh. */
  private shown: { key: string; panel: vscode.WebviewPanel } | undefined;
  private readonly listeners: vscode.Disposable[] = [];
  /** The page's difficulty layer is on; the board whose map it has (the `shown` key). */
  private difficulty = false;
  /** `Date.now()` when the panel was created (the page reports its load against it). */
  private openedAt = 0;
  private mapKey: string | undefined;
  /** The Sokoban document version (`uri#version`) the server last said was settled. */
  private settled: string | undefined;
  /**
   * The page has loaded and said `ready`; until then what is sent waits in `outbox`
   * (only the latest board and what follows it), so that an open fetches and posts
   * each board once, whichever of the page and the server's answer comes first.
   */
  private pageReady = false;
  private outbox: PageMessage[] = [];
  /** Refreshes running (a page that becomes ready while one runs gets its answer). */
  private refreshing = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly client: () => LanguageClient | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.listeners.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && previewable(editor.document)) {
          this.follow(editor.document.uri, editor.selection.active, 0);
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (previewable(e.textEditor.document) && e.textEditor === vscode.window.activeTextEditor) {
          this.follow(e.textEditor.document.uri, e.selections[0].active, 30);
        }
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.isSource(e.document.uri) && e.contentChanges.length > 0) {
          this.schedule(100);
        }
      }),
    );
  }

  show(uri?: vscode.Uri): void {
    const editor = vscode.window.activeTextEditor;
    if (uri && editor?.document.uri.toString() !== uri.toString()) {
      this.source = { uri, position: new vscode.Position(0, 0) };
    } else if (editor && previewable(editor.document)) {
      this.source = { uri: editor.document.uri, position: editor.selection.active };
    }
    if (!this.source) {
      void vscode.window.showInformationMessage('boxls: open a .box or Sokoban (.xsb, .sok) file to preview its mazes or levels.');
      return;
    }
    if (this.panel) {
      this.panel.reveal(undefined, true);
    } else {
      this.panel = this.createPanel();
    }
    this.schedule(0);
  }

  dispose(): void {
    this.panel?.dispose();
    this.listeners.forEach((l) => l.dispose());
    if (this.timer) {
      clearTimeout(this.timer);
    }
  }

  private createPanel(): vscode.WebviewPanel {
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    this.openedAt = Date.now();
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      'Preview',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [media, dist], retainContextWhenHidden: false },
    );
    panel.iconPath = vscode.Uri.joinPath(media, 'preview-icon.svg');
    panel.webview.html = previewHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'preview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'preview.css')).toString(),
      nonce: makeNonce(),
    });
    this.pageLost();
    panel.webview.onDidReceiveMessage((msg: { type?: string; difficulty?: boolean }) => {
      if (msg?.type === 'ready' && panel === this.panel) {
        this.pageLoaded(panel);
      } else if (msg?.type === 'layer') {
        // Switched on: the next refresh sends the map of the board shown.
        this.difficulty = msg.difficulty === true;
        this.mapKey = undefined;
        this.schedule(0);
      }
    });
    panel.onDidChangeViewState(() => {
      // Hidden, the page is dropped (no retained context); shown again, it loads anew.
      if (!panel.visible && panel === this.panel) {
        this.pageLost();
      }
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) {
        this.panel = undefined;
        this.outbox = [];
      }
    });
    return panel;
  }

  /** The page is gone or not loaded yet: it shows nothing, its layer is off. */
  private pageLost(): void {
    this.pageReady = false;
    this.outbox = [];
    this.shown = undefined;
    this.difficulty = false;
    this.mapKey = undefined;
  }

  /**
   * The page (re)loaded: it gets what was sent meanwhile; with nothing sent and no
   * refresh under way, the state at the cursor is fetched now.
   */
  private pageLoaded(panel: vscode.WebviewPanel): void {
    const waiting = this.outbox;
    this.pageReady = true;
    this.outbox = [];
    waiting.forEach((msg) => void panel.webview.postMessage(msg));
    if (waiting.length === 0 && this.refreshing === 0 && !this.timer) {
      this.schedule(0);
    }
  }

  /** Posts to the page once it is ready; a new board or note replaces what waits. */
  private send(panel: vscode.WebviewPanel, msg: PageMessage): void {
    if (panel !== this.panel) {
      return;
    }
    if (this.pageReady) {
      void panel.webview.postMessage(msg);
    } else if (msg.type === 'replay' || msg.type === 'message') {
      this.outbox = [msg];
    } else {
      this.outbox.push(msg);
    }
  }

  private isSource(uri: vscode.Uri): boolean {
    return this.source?.uri.toString() === uri.toString();
  }

  private follow(uri: vscode.Uri, position: vscode.Position, delay: number): void {
    this.source = { uri, position };
    if (this.panel) {
      this.schedule(delay);
    }
  }

  private schedule(delay: number): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refreshing += 1;
      void this.refresh()
        .catch((err) => this.log.error(`Preview: ${String(err)}`))
        .finally(() => {
          this.refreshing -= 1;
        });
    }, delay);
  }

  /**
   * Asks the server for the state of the maze at the cursor (`boxls/maze`) and shows
   * it: the board when solved (one `boxls/replay` per version), else why not — from
   * the answer's status and reason, never from the server's wording.
   */
  private async refresh(): Promise<void> {
    const panel = this.panel;
    const source = this.source;
    if (!panel || !source) {
      return;
    }
    const seq = ++this.seq;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === source.uri.toString());
    const file = path.basename(source.uri.path);
    panel.title = `Preview ${file}`;
    if (!document) {
      this.post(panel, seq, file, { text: `${file} is not open.`, kind: 'info' });
      return;
    }
    const client = this.client();
    if (!client) {
      this.post(panel, seq, file, { text: 'The boxls server is not running (see the boxls output).', kind: 'error' });
      return;
    }
    const version = document.version;
    const where = {
      textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
      position: client.code2ProtocolConverter.asPosition(source.position),
    };
    if (document.languageId === 'sokoban') {
      await this.refreshLevel(client, panel, seq, file, document, version, where);
      return;
    }
    let state: MazeState | null | string;
    try {
      state = parseMazeState(await client.sendRequest(MAZE_REQUEST, where));
    } catch (err) {
      if (this.current(seq, document, version)) {
        this.post(panel, seq, file, { text: `The server could not say what is at the cursor: ${errorText(err)}`, kind: 'error' });
      }
      return;
    }
    if (!this.current(seq, document, version)) {
      return; // the text or the cursor moved on; a newer refresh is scheduled or running
    }
    if (typeof state === 'string') {
      this.log.error(`Preview: the server's ${MAZE_REQUEST} answer is malformed: ${state}`);
      this.post(panel, seq, file, { text: `The server's answer is malformed: ${state}.`, kind: 'error' });
      return;
    }
    if (!state || state.version !== version) {
      // No maze here (or an answer for another version: a newer refresh follows the edit).
      if (!state) {
        this.post(panel, seq, file, { text: 'Put the cursor in a maze to see its solution played.', kind: 'info' });
      }
      return;
    }
    const title = `${file} — Maze #${state.maze} (${state.rows}×${state.cols})`;
    if (state.status !== 'solved') {
      this.post(panel, seq, title, noBoard(state));
      if (state.status === 'solving') {
        void this.whenSettled(client, where.textDocument, seq);
      }
      return;
    }
    const board = { document, version, key: `${document.uri.toString()}#${version}#${state.maze}`, where };
    if (this.keepShown(client, panel, seq, title, board)) {
      return;
    }
    const fetched = await this.fetchReplay(client, panel, seq, document, version, where, title, 'maze');
    if (!fetched) {
      return;
    }
    const { replay, answeredAt } = fetched;
    if (!replay || (replay.version !== undefined && replay.version !== version)) {
      // Solved a moment ago, not now: the edit that changed it schedules a refresh.
      return;
    }
    this.showReplay(client, panel, seq, title, board, replay, answeredAt);
  }

  /**
   * `boxls/replay` for the board at `where`, with no frames and the board as runs (the
   * server's per-move steps and pushes instead of frames, runs instead of rows: big
   * answers stay small; the webview only indexes them). `undefined` when there is
   * nothing more to do: the request failed or its answer is malformed (both said in
   * the panel under `title`), or the document moved on meanwhile.
   */
  private async fetchReplay(
    client: LanguageClient,
    panel: vscode.WebviewPanel,
    seq: number,
    document: vscode.TextDocument,
    version: number,
    where: { textDocument: { uri: string }; position: unknown },
    title: string,
    what: 'maze' | 'level',
  ): Promise<{ replay: Replay | null; answeredAt: number } | undefined> {
    let answer: unknown;
    try {
      answer = await client.sendRequest(REPLAY_REQUEST, { ...where, frames: false, compact: true });
    } catch (err) {
      if (this.current(seq, document, version)) {
        this.post(panel, seq, title, { text: `The server could not replay this ${what}: ${errorText(err)}`, kind: 'error' });
      }
      return undefined;
    }
    const answeredAt = Date.now();
    if (!this.current(seq, document, version)) {
      return undefined;
    }
    const replay = parseReplay(answer);
    if (typeof replay === 'string') {
      this.log.error(`Preview: the server's ${REPLAY_REQUEST} answer is malformed: ${replay}`);
      this.post(panel, seq, title, { text: `The server's answer is malformed: ${replay}.`, kind: 'error' });
      return undefined;
    }
    return { replay, answeredAt };
  }

  /**
   * A Sokoban document: the level at the cursor, straight from `boxls/replay` (null
   * until it is solved — then once the server has settled this version, ask again —
   * or when there is no solved level there). A level with one box and one goal has the
   * difficulty map of its maze; the server answers null for the others.
   */
  private async refreshLevel(
    client: LanguageClient,
    panel: vscode.WebviewPanel,
    seq: number,
    file: string,
    document: vscode.TextDocument,
    version: number,
    where: { textDocument: { uri: string }; position: unknown },
  ): Promise<void> {
    const fetched = await this.fetchReplay(client, panel, seq, document, version, where, file, 'level');
    if (!fetched) {
      return;
    }
    const { replay, answeredAt } = fetched;
    const settledKey = `${document.uri.toString()}#${version}`;
    if (!replay || (replay.version !== undefined && replay.version !== version)) {
      if (this.settled !== settledKey) {
        // Perhaps still solving: look again once this version is settled.
        this.post(panel, seq, file, { text: 'Solving the levels…', kind: 'info', status: 'solving' });
        void this.whenSettled(client, where.textDocument, seq, settledKey);
      } else {
        this.post(panel, seq, file, {
          text: 'Put the cursor in a solved level to see its solution played (the hint on its first row says what the solver found).',
          kind: 'info',
        });
      }
      return;
    }
    const name = replay.title ? `Level ${replay.maze} “${replay.title}”` : `Level ${replay.maze}`;
    const title = `${file} — ${name} (${replay.rows}×${replay.cols})`;
    const board = { document, version, key: `${document.uri.toString()}#${version}#level${replay.maze}`, where };
    if (!this.keepShown(client, panel, seq, title, board)) {
      this.showReplay(client, panel, seq, title, board, replay, answeredAt);
    }
  }

  /**
   * When the page shows `board` already (this version's), it keeps it and keeps
   * playing; only the title (and, with the layer on, the map) follow. False otherwise.
   */
  private keepShown(client: LanguageClient, panel: vscode.WebviewPanel, seq: number, title: string, board: Board): boolean {
    if (this.shown?.key !== board.key || this.shown.panel !== panel) {
      return false;
    }
    this.send(panel, { type: 'keep', seq, title });
    void this.sendDifficulty(client, panel, board);
    return true;
  }

  /** Sends the page a new board to play (with when the panel opened and the server answered, for its timing report). */
  private showReplay(
    client: LanguageClient,
    panel: vscode.WebviewPanel,
    seq: number,
    title: string,
    board: Board,
    replay: Replay,
    answeredAt: number,
  ): void {
    this.shown = { key: board.key, panel };
    this.mapKey = undefined;
    this.send(panel, { type: 'replay', seq, title, replay, answeredAt, openedAt: this.openedAt });
    void this.sendDifficulty(client, panel, board);
  }

  /** With the layer on, sends the board's difficulty map once (per board shown). */
  private async sendDifficulty(client: LanguageClient, panel: vscode.WebviewPanel, board: Board): Promise<void> {
    if (!this.difficulty || this.mapKey === board.key) {
      return;
    }
    this.mapKey = board.key;
    let answer: unknown;
    try {
      answer = await client.sendRequest(DIFFICULTY_REQUEST, board.where);
    } catch (err) {
      this.mapKey = undefined;
      this.log.warn(`Preview: ${DIFFICULTY_REQUEST}: ${errorText(err)}`);
      return;
    }
    // Still the board shown (a later refresh that kept it leaves it to this answer).
    const shownNow = this.shown?.key === board.key && this.shown.panel === panel && board.document.version === board.version;
    if (!shownNow || !this.difficulty || this.mapKey !== board.key) {
      if (this.mapKey === board.key) {
        this.mapKey = undefined;
      }
      return;
    }
    const map = parseDifficulty(answer);
    if (typeof map === 'string') {
      this.log.error(`Preview: the server's ${DIFFICULTY_REQUEST} answer is malformed: ${map}`);
    } else if (map === null || map.version === board.version) {
      // null: the server has no map for this board; the page says why.
      this.send(panel, { type: 'difficulty', map });
    }
  }

  /** While a maze solves: once the server has settled this version, look again. */
  private async whenSettled(client: LanguageClient, textDocument: { uri: string }, seq: number, settledKey?: string): Promise<void> {
    try {
      await client.sendRequest(SETTLED_REQUEST, { textDocument });
    } catch (err) {
      this.log.warn(`Preview: ${SETTLED_REQUEST}: ${errorText(err)}`);
      return;
    }
    if (settledKey) {
      this.settled = settledKey;
    }
    if (seq === this.seq) {
      this.schedule(0);
    }
  }

  private current(seq: number, document: vscode.TextDocument, version: number): boolean {
    return seq === this.seq && document.version === version && !!this.panel;
  }

  private post(panel: vscode.WebviewPanel, seq: number, title: string, note: Note): void {
    this.shown = undefined;
    this.mapKey = undefined;
    this.send(panel, { type: 'message', seq, title, ...note });
  }
}

/** What the page is sent: a board, a note instead, a keep of the board shown, its map. */
interface PageMessage {
  type: 'replay' | 'message' | 'keep' | 'difficulty';
  [field: string]: unknown;
}

/** A board being shown: the refresh it came from and where the server was asked. */
interface Board {
  document: vscode.TextDocument;
  version: number;
  key: string;
  where: { textDocument: { uri: string }; position: unknown };
}

function previewable(document: vscode.TextDocument): boolean {
  return document.languageId === 'box' || document.languageId === 'sokoban';
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
