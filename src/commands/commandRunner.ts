/**
 * Registers a command whose failures are reported the same way everywhere: an error notification naming
 * the command, and the full error in the output channel.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../views/groupTreeData';

/**
 * Where a command invoked without a node (from the palette or a keybinding, or from a context menu
 * while the tree was re-fetching the clicked row, when VS Code passes no element) finds one: the
 * row selected in the view. Set once at activation.
 */
export const commandDefaults: { node: () => unknown } = { node: () => undefined };

export function registerReportingCommand<Args extends unknown[]>(
  id: string,
  title: string,
  log: vscode.LogOutputChannel,
  handler: (...args: Args) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: Args) => {
    try {
      const withNode = args[0] === undefined ? ([commandDefaults.node(), ...args.slice(1)] as Args) : args;
      await handler(...withNode);
    } catch (e) {
      log.error(`${title} failed:`, e instanceof Error ? e : errorMessage(e));
      void vscode.window.showErrorMessage(`${title} failed: ${errorMessage(e)}`);
    }
  });
}
