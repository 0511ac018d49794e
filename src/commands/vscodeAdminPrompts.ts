/** AdminPrompts on VS Code: quick picks and input boxes, a modal warning to confirm, the open-file dialog. */
import * as vscode from 'vscode';
import type { AdminPrompts, ConfirmOptions, OpenFileOptions } from './adminPrompts';
import { vscodePrompts } from './vscodePrompts';

export const vscodeAdminPrompts: AdminPrompts = {
  ...vscodePrompts,
  async confirm({ message, detail, action }: ConfirmOptions): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  },
  async openFile({ title, filters }: OpenFileOptions): Promise<string | undefined> {
    const picked = await vscode.window.showOpenDialog({ title, filters, canSelectMany: false, canSelectFiles: true, canSelectFolders: false, openLabel: 'Use Plan' });
    return picked?.[0]?.fsPath;
  },
};
