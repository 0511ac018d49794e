/**
 * Registers a command whose failures are reported the same way everywhere: an error notification naming
 * the command, and the full error in the output channel.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../protocol/errors';

export function registerReportingCommand<Args extends unknown[]>(
  id: string,
  title: string,
  log: vscode.LogOutputChannel,
  handler: (...args: Args) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: Args) => {
    try {
      // No fallback to the selected row when VS Code passes no node: acting on another row than the one
      // clicked (a delete, a reset) is worse than asking the user to run the command again.
      await handler(...args);
    } catch (e) {
      log.error(`${title} failed:`, e instanceof Error ? e : errorMessage(e));
      void vscode.window.showErrorMessage(`${title} failed: ${errorMessage(e)}`);
    }
  });
}
