/**
 * Messages between the group dashboard panel and its page (src/dashboard/page/), both ways, with the checks each side
 * runs on what it receives: nothing across the process boundary is trusted by shape. Unknown values are null (a
 * webview message is JSON: NaN would not survive it). Imported by the host and by the page's browser bundle: no Node
 * or DOM here.
 */

/** One topic's columns, one value per entry of `DashboardSnapshot.times`. */
export interface TopicSeriesData {
  topic: string;
  partitions: number;
  /** Sum of the partitions' lag (log end − committed), null when no partition's was known. */
  lag: (number | null)[];
  /** The largest partition lag in time, in ms. */
  maxLagInTimeMs: (number | null)[];
  /** Committed offsets per second since the sample before (null for the first). */
  consumedPerSec: (number | null)[];
  /** Log end offsets per second since the sample before. */
  producedPerSec: (number | null)[];
}

export interface RebalanceMarkerData {
  time: number;
  /** What happened ("member-joined", …), shown as the marker's tooltip. */
  label: string;
}

export interface DashboardSnapshot {
  groupId: string;
  cluster: string;
  /** Sample times, epoch ms, oldest first. */
  times: number[];
  topics: TopicSeriesData[];
  /** Rebalances within the samples' time range, oldest first. */
  rebalances: RebalanceMarkerData[];
}

/** What the page keeps across a window reload (vscode.setState), for the panel serializer to reopen the same group. */
export interface DashboardPanelState {
  sourceId: string;
  groupId: string;
}

export type DashboardHostMessage = { type: 'snapshot'; snapshot: DashboardSnapshot } | { type: 'panel'; state: DashboardPanelState };

/** Checks the state VS Code hands back after a reload: it was stored by the page, so it is not trusted. */
export function isDashboardPanelState(value: unknown): value is DashboardPanelState {
  return isRecord(value) && typeof value.sourceId === 'string' && typeof value.groupId === 'string';
}

export type DashboardWebviewMessage =
  | { type: 'ready' }
  /** A page-side failure (a malformed message, an uncaught error) for the host to log. */
  | { type: 'reportError'; message: string };

/** The page is untrusted input: accept only the exact shapes above. */
export function isDashboardWebviewMessage(value: unknown): value is DashboardWebviewMessage {
  if (!isRecord(value)) {
    return false;
  }
  switch (value.type) {
    case 'ready':
      return hasOnlyKeys(value, []);
    case 'reportError':
      return hasOnlyKeys(value, ['message']) && typeof value.message === 'string';
    default:
      return false;
  }
}

/** Checks a message from the host, for the page: a malformed one must not reach the renderer half-drawn. */
export function isDashboardHostMessage(value: unknown): value is DashboardHostMessage {
  if (!isRecord(value)) {
    return false;
  }
  if (value.type === 'panel') {
    const state = value.state;
    return hasOnlyKeys(value, ['state']) && isRecord(state) && hasOnlyKeys(state, ['sourceId', 'groupId']) && isDashboardPanelState(state);
  }
  return value.type === 'snapshot' && hasOnlyKeys(value, ['snapshot']) && isSnapshot(value.snapshot);
}

function isSnapshot(value: unknown): value is DashboardSnapshot {
  if (!isRecord(value) || typeof value.groupId !== 'string' || typeof value.cluster !== 'string') {
    return false;
  }
  const { times, topics, rebalances } = value;
  if (!Array.isArray(times) || !times.every(isFiniteNumber) || !Array.isArray(topics) || !Array.isArray(rebalances)) {
    return false;
  }
  return topics.every((topic) => isTopicSeries(topic, times.length)) && rebalances.every(isMarker);
}

function isTopicSeries(value: unknown, length: number): value is TopicSeriesData {
  return (
    isRecord(value) &&
    typeof value.topic === 'string' &&
    typeof value.partitions === 'number' &&
    Number.isInteger(value.partitions) &&
    value.partitions >= 0 &&
    [value.lag, value.maxLagInTimeMs, value.consumedPerSec, value.producedPerSec].every((column) => isColumn(column, length))
  );
}

function isColumn(value: unknown, length: number): value is (number | null)[] {
  return Array.isArray(value) && value.length === length && value.every((item) => item === null || isFiniteNumber(item));
}

function isMarker(value: unknown): value is RebalanceMarkerData {
  return isRecord(value) && isFiniteNumber(value.time) && typeof value.label === 'string';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => key === 'type' || keys.includes(key));
}
