/**
 * The three ways a group rebalances, side by side: three groups read the same topic, one with the
 * classic protocol and the eager range assignor (every rebalance revokes everything), one classic with
 * cooperative-sticky (incremental, in two rounds), one with KIP-848's consumer protocol and the
 * server-side uniform assignor (each member reconciles on its own heartbeats, no group-wide barrier).
 * Each group has the same membership change: three members, a fourth joins at 20 s, the second leaves
 * at 50 s, so their timelines compare directly.
 */
import type { Scenario, ScenarioAction, ScenarioConsumer } from './scenarioSchema';

export const PROTOCOL_GROUPS = {
  eager: 'classic-eager-range',
  cooperative: 'classic-cooperative-sticky',
  consumer: 'consumer-protocol-uniform',
} as const;

const TOPIC = 'clicks';
export const PROTOCOLS_JOIN_AT_MS = 20000;
export const PROTOCOLS_LEAVE_AT_MS = 50000;

type GroupSettings = Pick<ScenarioConsumer, 'groupProtocol' | 'assignors' | 'groupRemoteAssignor'>;

const SETTINGS: Record<keyof typeof PROTOCOL_GROUPS, GroupSettings> = {
  eager: { assignors: ['range'] },
  cooperative: { assignors: ['cooperative-sticky'] },
  consumer: { groupProtocol: 'consumer', groupRemoteAssignor: 'uniform' },
};

function member(kind: keyof typeof PROTOCOL_GROUPS, n: number): ScenarioConsumer {
  const groupId = PROTOCOL_GROUPS[kind];
  return { id: `${kind}-${n}`, groupId, clientId: `${groupId}-${n}`, topics: [TOPIC], autoOffsetReset: 'earliest', processingTimeMs: 50, ...SETTINGS[kind] };
}

const KINDS = Object.keys(PROTOCOL_GROUPS) as Array<keyof typeof PROTOCOL_GROUPS>;

export const PROTOCOLS_SCENARIO: Scenario = {
  name: 'protocols',
  description: 'The same membership change under classic eager, classic cooperative and KIP-848 consumer-protocol rebalancing',
  seed: 848,
  durationMs: 90000,
  cluster: { brokers: 3, host: '127.0.0.1', basePort: 9092, clusterId: 'sim-protocols-cluster' },
  topics: [{ name: TOPIC, partitions: 12, initialRecords: 12000 }],
  consumers: KINDS.flatMap((kind) => [1, 2, 3].map((n) => member(kind, n))),
  producers: [{ id: 'clicks-producer', topic: TOPIC, recordsPerSecond: 120 }],
  actions: KINDS.flatMap((kind): ScenarioAction[] => [
    { atMs: PROTOCOLS_JOIN_AT_MS, type: 'join', consumer: member(kind, 4) },
    { atMs: PROTOCOLS_LEAVE_AT_MS, type: 'leave', consumer: `${kind}-2` },
  ]),
};
