/**
 * Messages between the reset preview panel and its page (media/resetPreview/main.js). Everything the page
 * shows arrives here as plain strings and is set with textContent there.
 */

export interface PreviewRowData {
  topic: string;
  partition: number;
  /** Committed offset before the reset, "-" when none. */
  current: string;
  next: string;
  /** Signed difference ("+5", "-3", "0"), "" when there was no committed offset. */
  difference: string;
  warning: string;
}

export interface PreviewData {
  groupId: string;
  cluster: string;
  groupState: string;
  scenario: string;
  scope: string;
  rows: PreviewRowData[];
  warnings: string[];
}

export interface ResultRowData {
  topic: string;
  partition: number;
  ok: boolean;
  /** "committed 120" or the broker's reason. */
  status: string;
}

/** Execute found the group changed since the preview and wrote nothing. */
export interface ChangedData {
  summary: string;
  /** One line per change: "legacy-events-0: previewed 700, now 0". */
  lines: string[];
}

export type PreviewHostMessage =
  /** A plan to show; a new one (after Re-plan) replaces the old and allows Execute again. */
  | { type: 'preview'; preview: PreviewData }
  | { type: 'status'; text: string; busy: boolean }
  | { type: 'results'; summary: string; rows: ResultRowData[] }
  /** The plan is stale: Execute stays off until Re-plan brings a new one. */
  | { type: 'changed'; changed: ChangedData };

export type PreviewAction = 'execute' | 'cancel' | 'exportCsv' | 'copyDryRun' | 'copyExecute' | 'replan';

export type PreviewWebviewMessage = { type: 'ready' } | { type: 'action'; action: PreviewAction };

const ACTIONS: ReadonlySet<string> = new Set<PreviewAction>(['execute', 'cancel', 'exportCsv', 'copyDryRun', 'copyExecute', 'replan']);

/** The page is untrusted input: accept only the exact shapes above. */
export function isPreviewWebviewMessage(value: unknown): value is PreviewWebviewMessage {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const message = value as Record<string, unknown>;
  if (message.type === 'ready') {
    return Object.keys(message).length === 1;
  }
  return message.type === 'action' && typeof message.action === 'string' && ACTIONS.has(message.action) && Object.keys(message).length === 2;
}
