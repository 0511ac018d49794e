/**
 * Messages between the timeline panel (extension host) and its webview, both ways. Shared by both
 * sides; the host owns the events and the webview only renders them. The webview starts with
 * `ready`, and the host answers with a full `snapshot`; while the panel stays visible `append`
 * deltas follow. A hidden webview gets nothing and is sent a fresh snapshot when it shows again.
 */
import type { RebalanceEvent } from '../model/types';
import { isEventColumns, type EventColumns } from './eventColumns';

/** How event times read: virtual milliseconds since the simulation started, or epoch milliseconds. */
export type TimeBase = 'virtual' | 'epoch';

export interface TimelineSnapshotMessage {
  type: 'snapshot';
  /** The cluster source's id: the webview keeps it with the group id so the panel can be restored after a reload. */
  sourceId: string;
  groupId: string;
  clusterLabel: string;
  timeBase: TimeBase;
  /** How the events were obtained, shown to the user (e.g. "simulator event log", "inferred from DescribeGroups polls"). */
  origin: string;
  /** All events, packed by column (see eventColumns.ts): a snapshot can hold tens of thousands. */
  events: EventColumns;
}

export interface TimelineAppendMessage {
  type: 'append';
  /** Oldest events the source no longer keeps (its buffer rolled over): drop this many from the start first. */
  dropFromStart: number;
  events: RebalanceEvent[];
}

export interface TimelineErrorMessage {
  type: 'error';
  message: string;
}

export type HostToWebviewMessage = TimelineSnapshotMessage | TimelineAppendMessage | TimelineErrorMessage;

export interface WebviewReadyMessage {
  type: 'ready';
}

/** Asks the host to save every event of the timeline as JSON (the host shows the save dialog). */
export interface WebviewExportMessage {
  type: 'export';
}

/** A webview-side failure the host should log. */
export interface WebviewErrorReport {
  type: 'reportError';
  message: string;
}

export type WebviewToHostMessage = WebviewReadyMessage | WebviewExportMessage | WebviewErrorReport;

/** What a timeline panel's webview state holds for restoring the panel after a reload (see registerTimeline.ts). */
export interface TimelinePanelState {
  sourceId: string;
  groupId: string;
}

export function isTimelinePanelState(value: unknown): value is TimelinePanelState {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const state = value as Partial<Record<keyof TimelinePanelState, unknown>>;
  return typeof state.sourceId === 'string' && typeof state.groupId === 'string';
}

/** Checks a message coming from the webview: it crosses a process boundary, so its shape is not trusted. */
export function isWebviewToHostMessage(value: unknown): value is WebviewToHostMessage {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const message = value as { type?: unknown; message?: unknown };
  switch (message.type) {
    case 'ready':
    case 'export':
      return true;
    case 'reportError':
      return typeof message.message === 'string';
    default:
      return false;
  }
}

/** Checks a message coming from the host, for the webview side. */
export function isHostToWebviewMessage(value: unknown): value is HostToWebviewMessage {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'snapshot':
      return (
        typeof message.sourceId === 'string' &&
        typeof message.groupId === 'string' &&
        typeof message.clusterLabel === 'string' &&
        (message.timeBase === 'virtual' || message.timeBase === 'epoch') &&
        typeof message.origin === 'string' &&
        isEventColumns(message.events)
      );
    case 'append':
      return typeof message.dropFromStart === 'number' && message.dropFromStart >= 0 && Array.isArray(message.events);
    case 'error':
      return typeof message.message === 'string';
    default:
      return false;
  }
}
