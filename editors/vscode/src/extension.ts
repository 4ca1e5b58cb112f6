import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { serverConfig } from './config';
import { resolveServerPath } from './serverPath';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
let traceOutput: vscode.OutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('boxls');
  traceOutput = vscode.window.createOutputChannel('boxls (trace)');
  context.subscriptions.push(output, traceOutput);

  context.subscriptions.push(
    vscode.commands.registerCommand('boxls.restartServer', async () => {
      await stopClient();
      await startClient(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      // A new executable needs a new process; every other `boxls.*` key reaches the
      // running server through workspace/didChangeConfiguration.
      if (e.affectsConfiguration('boxls.path')) {
        await stopClient();
        await startClient(context);
      }
    }),
  );

  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('boxls');
  const resolved = resolveServerPath({
    configured: config.get<string>('path'),
    extensionPath: context.extensionPath,
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    env: process.env,
    platform: process.platform,
  });
  output?.appendLine(`Starting ${resolved.command} lsp (found via ${resolved.source})`);

  const run = { command: resolved.command, args: ['lsp'], transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'box' },
      { scheme: 'untitled', language: 'box' },
    ],
    // The server reads its settings at startup from here, then pulls them with
    // workspace/configuration whenever didChangeConfiguration says they changed.
    initializationOptions: () => serverConfig((key) => vscode.workspace.getConfiguration('boxls').get(key)),
    synchronize: { configurationSection: 'boxls' },
    outputChannel: output,
    traceOutputChannel: traceOutput,
  };

  // The id `boxls` makes vscode-languageclient honour the `boxls.trace.server` setting.
  const c = new LanguageClient('boxls', 'boxls', serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
  } catch (err) {
    client = undefined;
    const message = err instanceof Error ? err.message : String(err);
    const hint =
      resolved.source === 'fallback'
        ? ' No `boxls` was found on PATH and no bundled server exists: install boxls (`cargo install --path .` in the boxls repository) or set `boxls.path`.'
        : '';
    const choice = await vscode.window.showErrorMessage(
      `boxls: could not start \`${resolved.command} lsp\`: ${message}.${hint}`,
      'Open settings',
    );
    if (choice === 'Open settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'boxls.path');
    }
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch (err) {
      output?.appendLine(`Stopping the server failed: ${String(err)}`);
    }
  }
}
