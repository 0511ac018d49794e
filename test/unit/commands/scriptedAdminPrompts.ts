/** ScriptedPrompts plus scripted confirmations and open-file answers, recording what was confirmed. */
import type { AdminPrompts, ConfirmOptions, OpenFileOptions } from '../../../src/commands/adminPrompts';
import { ScriptedPrompts, type Answer } from './scriptedPrompts';

export class ScriptedAdminPrompts extends ScriptedPrompts implements AdminPrompts {
  readonly confirmations: ConfirmOptions[] = [];
  readonly openDialogs: OpenFileOptions[] = [];
  /** Runs while a confirmation is shown (before it is answered): what others do meanwhile. */
  whileConfirming: ((options: ConfirmOptions, index: number) => Promise<void> | void) | undefined;

  constructor(
    answers: Answer[],
    private readonly confirmAnswers: boolean[] = [],
    private readonly files: Array<string | undefined> = [],
  ) {
    super(answers);
  }

  async confirm(options: ConfirmOptions): Promise<boolean> {
    this.confirmations.push(options);
    await this.whileConfirming?.(options, this.confirmations.length - 1);
    const answer = this.confirmAnswers.shift();
    if (answer === undefined) {
      throw new Error(`No scripted confirmation left for "${options.message}"`);
    }
    return answer;
  }

  async openFile(options: OpenFileOptions): Promise<string | undefined> {
    this.openDialogs.push(options);
    if (this.files.length === 0) {
      throw new Error(`No scripted file left for "${options.title}"`);
    }
    return this.files.shift();
  }
}
