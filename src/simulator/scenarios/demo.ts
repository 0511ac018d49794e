/**
 * The built-in demo: a few groups that, within two minutes of virtual time, show a member joining,
 * a crash expired by the session timeout, a static member restarting without a rebalance, and a
 * poll timeout. The live view keeps running it afterwards.
 */
import type { Scenario } from './scenarioSchema';

export const WEIRD_GROUP_ID = '<b>weird</b>&group';

export const DEMO_SCENARIO: Scenario = {
  name: 'demo',
  description: 'Kafka Group Lens demo cluster',
  seed: 20240601,
  durationMs: 120000,
  cluster: { brokers: 3, host: '127.0.0.1', basePort: 9092, clusterId: 'sim-demo-cluster' },
  topics: [
    { name: 'orders', partitions: 6, initialRecords: 6000 },
    { name: 'payments', partitions: 4, initialRecords: 2000 },
    { name: 'inventory', partitions: 8, initialRecords: 4000 },
    { name: 'legacy-events', partitions: 3, initialRecords: 3000 },
  ],
  consumers: [
    // Range (EAGER): every rebalance revokes everything.
    { id: 'orders-1', groupId: 'orders-processor', clientId: 'orders-processor-1', topics: ['orders'], assignors: ['range'], autoOffsetReset: 'earliest', processingTimeMs: 200 },
    { id: 'orders-2', groupId: 'orders-processor', clientId: 'orders-processor-2', topics: ['orders'], assignors: ['range'], autoOffsetReset: 'earliest', processingTimeMs: 200 },
    { id: 'orders-3', groupId: 'orders-processor', clientId: 'orders-processor-3', topics: ['orders'], assignors: ['range'], autoOffsetReset: 'earliest', processingTimeMs: 200 },
    // Cooperative-sticky with static members: a quick restart keeps the assignment.
    { id: 'payments-a', groupId: 'payments-audit', clientId: 'payments-audit-a', groupInstanceId: 'payments-audit-a', topics: ['payments'], assignors: ['cooperative-sticky'], sessionTimeoutMs: 30000, autoOffsetReset: 'earliest' },
    { id: 'payments-b', groupId: 'payments-audit', clientId: 'payments-audit-b', groupInstanceId: 'payments-audit-b', topics: ['payments'], assignors: ['cooperative-sticky'], sessionTimeoutMs: 30000, autoOffsetReset: 'earliest' },
    // Round-robin; inventory-2 has a short max.poll.interval.ms and stalls below.
    { id: 'inventory-1', groupId: 'inventory-sync', clientId: 'inventory-sync-1', topics: ['inventory'], assignors: ['roundrobin'], autoOffsetReset: 'earliest' },
    { id: 'inventory-2', groupId: 'inventory-sync', clientId: 'inventory-sync-2', topics: ['inventory'], assignors: ['roundrobin'], autoOffsetReset: 'earliest', maxPollIntervalMs: 20000 },
    // A group id full of markup, to prove the views escape it.
    { id: 'weird-1', groupId: WEIRD_GROUP_ID, clientId: 'weird-client', topics: ['orders', 'payments'], autoOffsetReset: 'latest' },
  ],
  producers: [
    { id: 'orders-producer', topic: 'orders', recordsPerSecond: 60 },
    { id: 'payments-producer', topic: 'payments', recordsPerSecond: 20 },
    { id: 'inventory-producer', topic: 'inventory', recordsPerSecond: 40 },
  ],
  actions: [
    // An Empty group that only has committed offsets (as after kafka-consumer-groups.sh --reset-offsets).
    {
      atMs: 0,
      type: 'commit',
      groupId: 'billing-archive',
      offsets: [
        { topic: 'legacy-events', partition: 0, offset: 700 },
        { topic: 'legacy-events', partition: 1, offset: 1000 },
        { topic: 'legacy-events', partition: 2, offset: 250, metadata: 'archived by batch job' },
      ],
    },
    { atMs: 20000, type: 'join', consumer: { id: 'orders-4', groupId: 'orders-processor', clientId: 'orders-processor-4', topics: ['orders'], assignors: ['range'], autoOffsetReset: 'earliest', processingTimeMs: 200 } },
    { atMs: 30000, type: 'crash', consumer: 'orders-2' },
    { atMs: 35000, type: 'leave', consumer: 'payments-a' },
    { atMs: 45000, type: 'restart', consumer: 'payments-a' },
    { atMs: 40000, type: 'pause', consumer: 'inventory-2', durationMs: 30000 },
  ],
};
