/**
 * Messages between the reset preview panel and its page (src/reset/page/), both ways, with the checks each
 * side runs on what it receives: the other side is across a process boundary, so nothing is trusted by
 * shape. Everything the page shows arrives as plain strings and is set with textContent there. Imported by
 * the extension host and by the page's browser bundle: no Node or DOM here.
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

export type PreviewWebviewMessage =
  | { type: 'ready' }
  | { type: 'action'; action: PreviewAction }
  /** A page-side failure (a malformed message, an uncaught error) for the host to log. */
  | { type: 'reportError'; message: string };

const ACTIONS: ReadonlySet<string> = new Set<PreviewAction>(['execute', 'cancel', 'exportCsv', 'copyDryRun', 'copyExecute', 'replan']);

export function isPreviewAction(value: unknown): value is PreviewAction {
  return typeof value === 'string' && ACTIONS.has(value);
}

/** The page is untrusted input: accept only the exact shapes above. */
export function isPreviewWebviewMessage(value: unknown): value is PreviewWebviewMessage {
  if (!isRecord(value)) {
    return false;
  }
  const message = value;
  switch (message.type) {
    case 'ready':
      return hasOnlyKeys(message, []);
    case 'action':
      return hasOnlyKeys(message, ['action']) && isPreviewAction(message.action);
    case 'reportError':
      return hasOnlyKeys(message, ['message']) && typeof message.message === 'string';
    default:
      return false;
  }
}

/** Checks a message from the host, for the page: a malformed one must not reach the renderer half-drawn. */
export function isPreviewHostMessage(value: unknown): value is PreviewHostMessage {
  if (!isRecord(value)) {
    return false;
  }
  switch (value.type) {
    case 'preview':
      return isPreviewData(value.preview);
    case 'status':
      return typeof value.text === 'string' && typeof value.busy === 'boolean';
    case 'results':
      return typeof value.summary === 'string' && Array.isArray(value.rows) && value.rows.every(isResultRowData);
    case 'changed':
      return isRecord(value.changed) && typeof value.changed.summary === 'string' && isStringArray(value.changed.lines);
    default:
      return false;
  }
}

function isPreviewData(value: unknown): value is PreviewData {
  return (
    isRecord(value) &&
    hasStrings(value, ['groupId', 'cluster', 'groupState', 'scenario', 'scope']) &&
    Array.isArray(value.rows) &&
    value.rows.every(isPreviewRowData) &&
    isStringArray(value.warnings)
  );
}

function isPreviewRowData(value: unknown): value is PreviewRowData {
  return isRecord(value) && hasStrings(value, ['topic', 'current', 'next', 'difference', 'warning']) && isPartition(value.partition);
}

function isResultRowData(value: unknown): value is ResultRowData {
  return isRecord(value) && typeof value.topic === 'string' && isPartition(value.partition) && typeof value.ok === 'boolean' && typeof value.status === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasStrings(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((key) => typeof value[key] === 'string');
}

function hasOnlyKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => key === 'type' || keys.includes(key));
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isPartition(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
