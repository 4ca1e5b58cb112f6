import * as vscode from 'vscode';
import {
  CloseAction,
  CloseHandlerResult,
  DidChangeConfigurationNotification,
  ErrorAction,
  ErrorHandler,
  ErrorHandlerResult,
  LanguageClient,
  LanguageClientOptions,
  Message,
  ServerOptions,
} from 'vscode-languageclient/node';
import { serverConfig } from './config';
import { SERVER_ARGS, ServerProcess, StartFailure, checkVersion, commandLine, serverCwd, spawnServer } from './launch';
import { Candidate, INSTALL_HINT, chooseServer, describeSource, serverCandidates } from './serverPath';
import { registerPreview } from './preview/panel';

let client: BoxlsClient | undefined;
let log: vscode.LogOutputChannel;
let traceOutput: vscode.OutputChannel;
/** Starts and stops run one after another, however fast settings change. */
let lifecycle: Promise<void> = Promise.resolve();

/** The running client, for features (the preview) that send their own requests. */
export function runningClient(): LanguageClient | undefined {
  return client?.isRunning() ? client : undefined;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  log = vscode.window.createOutputChannel('boxls', { log: true });
  traceOutput = vscode.window.createOutputChannel('boxls (trace)');
  context.subscriptions.push(log, traceOutput);

  context.subscriptions.push(
    vscode.commands.registerCommand('boxls.restartServer', () => restart(context)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('boxls.path')) {
        // A new executable needs a new process.
        void restart(context);
      } else if (e.affectsConfiguration('boxls')) {
        // The server pulls its section (workspace/configuration) when told that it changed.
        client?.isRunning() &&
          void client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      }
    }),
  );
  registerPreview(context, runningClient, log);

  await restart(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

function restart(context: vscode.ExtensionContext): Promise<void> {
  lifecycle = lifecycle.then(async () => {
    await stopClient();
    await startClient(context);
  });
  return lifecycle;
}

/**
 * The client, made quiet while it starts: vscode-languageclient would show its own
 * "couldn't create connection" (or "crashed 5 times") notification next to ours, so
 * during the start its errors go to the log only and `startClient` reports the failure
 * once, naming the command.
 */
class BoxlsClient extends LanguageClient {
  starting = true;

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, this.starting ? false : showNotification);
  }
}

/** Crashes after a good start restart as usual; a failed start is reported once by us. */
function errorHandler(c: BoxlsClient, fallback: ErrorHandler): ErrorHandler {
  return {
    error(error: Error, message: Message | undefined, count: number | undefined): ErrorHandlerResult | Promise<ErrorHandlerResult> {
      if (c.starting) {
        return { action: ErrorAction.Shutdown, handled: true };
      }
      return fallback.error(error, message, count);
    },
    closed(): CloseHandlerResult | Promise<CloseHandlerResult> {
      if (c.starting) {
        return { action: CloseAction.DoNotRestart, handled: true };
      }
      return fallback.closed();
    },
  };
}

/**
 * The executable to run, checked to answer `--version`, with the reason logged; or
 * undefined after telling the user (once) what was tried and how to install.
 */
async function findServer(context: vscode.ExtensionContext): Promise<Candidate | undefined> {
  const lookup = serverCandidates({
    configured: vscode.workspace.getConfiguration('boxls').get<string>('path'),
    extensionPath: context.extensionPath,
    env: process.env,
    platform: process.platform,
  });
  if (lookup.kind === 'invalid') {
    log.error(`The server did not start: ${lookup.message}`);
    void reportStartFailure(`boxls: the language server did not start: ${lookup.message}`);
    return undefined;
  }
  const choice = await chooseServer(lookup.candidates, lookup.skipped, (command) => checkVersion(command));
  if (!choice.chosen) {
    log.error(`The server did not start: no working boxls. Tried: ${choice.tried.join('; ')}`);
    void reportStartFailure(`boxls: the language server did not start. Tried: ${choice.tried.join('; ')}. ${INSTALL_HINT}`);
    return undefined;
  }
  log.info(`Found boxls ${choice.chosen.version}: ${choice.tried.join('; ')}`);
  return choice.chosen;
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const resolved = await findServer(context);
  if (!resolved) {
    return;
  }
  const shown = commandLine(resolved.command, SERVER_ARGS);
  log.info(`Starting the server: ${shown} (${describeSource(resolved.source)}${vscode.env.remoteName ? `; remote: ${vscode.env.remoteName}` : ''})`);

  let spawned: ServerProcess | undefined;
  const serverOptions: ServerOptions = async () => {
    spawned = await spawnServer(resolved.command, SERVER_ARGS, serverCwd());
    log.info(`Server process ${spawned.child.pid} started`);
    return spawned.child;
  };
  const clientOptions: LanguageClientOptions = {
    // Sokoban levels go to the same server, which reads them by their language id.
    documentSelector: [
      { scheme: 'file', language: 'box' },
      { scheme: 'untitled', language: 'box' },
      { scheme: 'file', language: 'sokoban' },
      { scheme: 'untitled', language: 'sokoban' },
    ],
    // The server reads its settings at startup from here, then pulls them with
    // workspace/configuration when told they changed (see `activate`).
    initializationOptions: () => currentServerConfig(),
    middleware: {
      workspace: {
        configuration: (params, token, next) =>
          params.items.every((item) => item.section === 'boxls')
            ? params.items.map(() => currentServerConfig())
            : next(params, token),
      },
    },
    // A failed initialize is reported by `startClient`, not by a second notification.
    initializationFailedHandler: () => false,
    outputChannel: log,
    traceOutputChannel: traceOutput,
  };

  // The id `boxls` makes vscode-languageclient honour the `boxls.trace.server` setting.
  const c = new BoxlsClient('boxls', 'boxls', serverOptions, clientOptions);
  c.clientOptions.errorHandler = errorHandler(c, c.createDefaultErrorHandler(4));
  client = c;
  try {
    await c.start();
    c.starting = false;
    log.info('Server running');
  } catch (err) {
    client = undefined;
    const reason = err instanceof StartFailure ? err.message : ((await spawned?.failure(1000)) ?? errorText(err));
    log.error(`The server did not start: ${shown}: ${reason}`);
    await c.dispose().catch(() => undefined);
    void reportStartFailure(
      `boxls: the language server did not start: \`${shown}\`: ${reason}.${resolved.source === 'setting' ? ' Check the `boxls.path` setting.' : ''}`,
    );
  }
}

function currentServerConfig() {
  return serverConfig((key) => vscode.workspace.getConfiguration('boxls').get(key));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The one notification for a failed start, offering the setting and the log. */
async function reportStartFailure(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Open settings', 'Show log');
  if (choice === 'Open settings') {
    await openPathSetting();
  } else if (choice === 'Show log') {
    log.show(true);
  }
}

/**
 * The Settings editor at `boxls.path`. In a remote window (code-server, SSH, WSL) VS Code
 * lists machine settings such as this one only under the Remote tab.
 */
async function openPathSetting(): Promise<void> {
  if (vscode.env.remoteName) {
    await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: 'boxls.path' });
  } else {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'boxls.path');
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.dispose();
    } catch (err) {
      log.warn(`Stopping the server failed: ${errorText(err)}`);
    }
  }
}
