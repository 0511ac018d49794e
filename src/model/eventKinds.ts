/** Event kinds as small numbers, for columns of events and markers (the order is the wire format of EventColumns). */
import type { RebalanceEventKind } from './types';

export const EVENT_KINDS: readonly RebalanceEventKind[] = [
  'member-joined',
  'member-left',
  'member-expired',
  'poll-timeout',
  'static-rejoin',
  'rebalance-started',
  'sync-completed',
  'state-changed',
  'assignment-changed',
  'offsets-committed',
  'offsets-reset',
  'transaction-offsets',
  'transaction-committed',
  'transaction-aborted',
  'lso-held',
  'lso-released',
];

export const EVENT_KIND_CODES: ReadonlyMap<RebalanceEventKind, number> = new Map(EVENT_KINDS.map((kind, code) => [kind, code]));
