/** A small cluster shared by the offsets tests: two topics, some committed offsets, one empty partition. */
import type { CommittedOffset, PartitionLogOffsets, ResetFacts } from '../../../src/offsets/resetPlan';

export const partitionsPerTopic = { orders: 3, payments: 2 };

export const logOffsets: PartitionLogOffsets[] = [
  { topic: 'orders', partition: 0, earliest: 10, latest: 100 },
  { topic: 'orders', partition: 1, earliest: 0, latest: 50 },
  { topic: 'orders', partition: 2, earliest: 0, latest: 0 },
  { topic: 'payments', partition: 0, earliest: 5, latest: 20 },
  { topic: 'payments', partition: 1, earliest: 0, latest: 7 },
];

export const committed: CommittedOffset[] = [
  { topic: 'payments', partition: 0, offset: 12, metadata: 'm-p0' },
  { topic: 'orders', partition: 1, offset: 50 },
  { topic: 'orders', partition: 0, offset: 40 },
];

export function facts(overrides: Partial<ResetFacts> = {}): ResetFacts {
  return { groupState: 'Empty', committed, partitionsPerTopic, logOffsets, ...overrides };
}
