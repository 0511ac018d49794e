/**
 * The questions the offset and group-administration commands ask beyond quick picks and input boxes:
 * a modal confirmation and an open-file dialog. Plain data, so the flows run in tests without the editor.
 */
import type { Prompts } from './simulatorPrompts';

export interface ConfirmOptions {
  /** The question, naming what will change. */
  message: string;
  /** Longer text under the question (the partitions, the members, ...). */
  detail?: string;
  /** Label of the button that goes ahead, e.g. "Delete Group". */
  action: string;
}

export interface OpenFileOptions {
  title: string;
  /** Dialog filters, e.g. { 'CSV files': ['csv'] }. */
  filters?: Record<string, string[]>;
}

export interface AdminPrompts extends Prompts {
  /** True only when the user pressed the action button. */
  confirm(options: ConfirmOptions): Promise<boolean>;
  /** The chosen file's path, or undefined when cancelled. */
  openFile(options: OpenFileOptions): Promise<string | undefined>;
}
