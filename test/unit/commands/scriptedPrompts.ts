/** A `Prompts` that answers from a script and records every question asked, for the command-flow tests. */
import type { InputOptions, PickItem, PromptOptions, Prompts } from '../../../src/commands/simulatorPrompts';

export type Answer =
  | { pick: string }
  | { pickMany: string[] }
  | { input: string }
  | { cancel: true };

export interface AskedQuestion {
  title: string;
  kind: 'pickOne' | 'pickMany' | 'input';
  labels?: string[];
  preselected?: string[];
  prefilled?: string;
  /** For inputs: what the validator said about the scripted answer. */
  validation?: string;
}

export class ScriptedPrompts implements Prompts {
  readonly asked: AskedQuestion[] = [];

  constructor(private readonly answers: Answer[]) {}

  private next(title: string): Answer {
    const answer = this.answers.shift();
    if (!answer) {
      throw new Error(`No scripted answer left for "${title}"`);
    }
    return answer;
  }

  async pickOne<T>(items: Array<PickItem<T>>, options: PromptOptions): Promise<T | undefined> {
    this.asked.push({ title: options.title, kind: 'pickOne', labels: items.map((i) => i.label) });
    const answer = this.next(options.title);
    if ('cancel' in answer) {
      return undefined;
    }
    if (!('pick' in answer)) {
      throw new Error(`Expected a pick answer for "${options.title}"`);
    }
    const item = items.find((i) => i.label === answer.pick);
    if (!item) {
      throw new Error(`"${answer.pick}" is not offered by "${options.title}"`);
    }
    return item.value;
  }

  async pickMany<T>(items: Array<PickItem<T>>, options: PromptOptions): Promise<T[] | undefined> {
    this.asked.push({
      title: options.title,
      kind: 'pickMany',
      labels: items.map((i) => i.label),
      preselected: items.filter((i) => i.picked).map((i) => i.label),
    });
    const answer = this.next(options.title);
    if ('cancel' in answer) {
      return undefined;
    }
    if (!('pickMany' in answer)) {
      throw new Error(`Expected a pickMany answer for "${options.title}"`);
    }
    return answer.pickMany.map((label) => {
      const item = items.find((i) => i.label === label);
      if (!item) {
        throw new Error(`"${label}" is not offered by "${options.title}"`);
      }
      return item.value;
    });
  }

  async input(options: InputOptions): Promise<string | undefined> {
    const answer = this.next(options.title);
    if ('cancel' in answer) {
      this.asked.push({ title: options.title, kind: 'input', prefilled: options.value });
      return undefined;
    }
    if (!('input' in answer)) {
      throw new Error(`Expected an input answer for "${options.title}"`);
    }
    const validation = options.validate(answer.input);
    this.asked.push({ title: options.title, kind: 'input', prefilled: options.value, validation });
    // An input box does not close on invalid text: the user would have to correct it.
    if (validation !== undefined) {
      throw new Error(`Invalid scripted input for "${options.title}": ${validation}`);
    }
    return answer.input;
  }
}
