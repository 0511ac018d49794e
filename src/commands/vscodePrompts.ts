/** The `Prompts` the simulator flows use, on VS Code's quick pick and input box. */
import * as vscode from 'vscode';
import type { InputOptions, PickItem, PromptOptions, Prompts } from './simulatorPrompts';

type ValueItem<T> = vscode.QuickPickItem & { value: T };

function toQuickPickItems<T>(items: Array<PickItem<T>>): Array<ValueItem<T>> {
  return items.map((item) => ({
    label: item.label,
    description: item.description,
    detail: item.detail,
    picked: item.picked,
    value: item.value,
  }));
}

export const vscodePrompts: Prompts = {
  async pickOne<T>(items: Array<PickItem<T>>, options: PromptOptions): Promise<T | undefined> {
    const picked = await vscode.window.showQuickPick(toQuickPickItems(items), {
      title: options.title,
      placeHolder: options.placeholder,
      ignoreFocusOut: true,
    });
    return picked?.value;
  },
  async pickMany<T>(items: Array<PickItem<T>>, options: PromptOptions): Promise<T[] | undefined> {
    const picked = await vscode.window.showQuickPick(toQuickPickItems(items), {
      title: options.title,
      placeHolder: options.placeholder,
      canPickMany: true,
      ignoreFocusOut: true,
    });
    return picked?.map((item) => item.value);
  },
  async input(options: InputOptions): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title: options.title,
      prompt: options.prompt,
      placeHolder: options.placeholder,
      value: options.value,
      password: options.password,
      ignoreFocusOut: true,
      validateInput: (text) => options.validate(text) ?? null,
    });
  },
};
