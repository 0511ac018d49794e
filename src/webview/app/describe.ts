/**
 * Words for the timeline: event-kind labels, rebalance modes and partition lists. Pure, shared by the
 * plot, the details pane and the accessible announcements.
 */
import type { RebalanceEventKind, TopicPartition } from '../../model/types';

export const KIND_LABELS: Record<RebalanceEventKind, string> = {
  'member-joined': 'Member joined',
  'member-left': 'Member left',
  'member-expired': 'Session expired',
  'poll-timeout': 'Poll timeout',
  'static-rejoin': 'Static rejoin',
  'rebalance-started': 'Rebalance started',
  'sync-completed': 'Sync completed',
  'state-changed': 'State changed',
  'assignment-changed': 'Assignment changed',
  'offsets-committed': 'Offsets committed',
  'offsets-reset': 'Offsets reset',
  'transaction-offsets': 'Offsets staged in a transaction',
  'transaction-committed': 'Transaction committed',
  'transaction-aborted': 'Transaction aborted',
  'lso-held': 'LSO held by a transaction',
  'lso-released': 'LSO released',
};

/** A producer id with its epoch when known: "4001, epoch 2". */
export function producerEpochText(producer: { producerId: number; producerEpoch: number }): string {
  return `${producer.producerId}${producer.producerEpoch >= 0 ? `, epoch ${producer.producerEpoch}` : ''}`;
}

/** "orders 0-3, 7 · payments 1" : partitions grouped by topic, runs collapsed. */
export function formatPartitions(partitions: readonly TopicPartition[]): string {
  if (partitions.length === 0) {
    return 'none';
  }
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions) {
    const list = byTopic.get(topic) ?? [];
    list.push(partition);
    byTopic.set(topic, list);
  }
  return [...byTopic.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, list]) => `${topic} ${runs([...new Set(list)].sort((a, b) => a - b))}`)
    .join(' · ');
}

function runs(sorted: number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) {
      j++;
    }
    parts.push(j - i >= 2 ? `${sorted[i]}-${sorted[j]}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}

/** A rebalance's mode as the timeline names it; one that moved nothing says why. */
export function modeLabel(rebalance: { mode: string; protocol: string; generationBefore: number }): string {
  if (rebalance.mode === 'reconciliation') {
    return rebalance.protocol === 'streams' ? 'KIP-1071 reconciliation' : 'KIP-848 reconciliation';
  }
  if (rebalance.mode !== 'none') {
    return rebalance.mode;
  }
  return rebalance.generationBefore === 0 ? 'initial' : 'no revocation';
}

/** How a rebalance's before → after numbers read: classic generations, or a KIP-848 group's epochs. */
export function generationSteps(rebalance: { protocol: string; generationBefore: number; generationAfter: number }): string {
  return `${rebalance.protocol === 'classic' ? 'gen' : 'epoch'} ${rebalance.generationBefore} → ${rebalance.generationAfter}`;
}
