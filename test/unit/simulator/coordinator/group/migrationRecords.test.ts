/**
 * Online migration writes the records Kafka 4.4 writes (GroupMetadataManager.convertToConsumerGroup and
 * convertToClassicGroup): one batch per conversion, the old group's tombstones first, then the new
 * group's records; and the timeline read from them is the engine's, with the group alive throughout.
 */
import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../../../src/model/types';
import { offsetsPartitionFor } from '../../../../../src/protocol/offsetsPartition';
import { decodeRecordBatches } from '../../../../../src/protocol/recordBatch';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import { OFFSETS_TOPIC, OFFSETS_TOPIC_PARTITIONS } from '../../../../../src/simulator/log/cluster';
import { encodeStoredBatches } from '../../../../../src/simulator/log/coordinatorRecordLog';
import { Simulation } from '../../../../../src/simulator/simulation';
import { decodeOffsetsTopicRecord, type GroupMetadataValue } from '../../../../../src/timeline/groupMetadataRecord';
import { heartbeatRequest } from './modern/consumer/engineSupport';
import { coordinatorEvents, eventsFromOffsetsTopic, settledGenerations, withoutCauses } from '../../offsetsTopicTimeline';

const GROUP = 'migrating';
const TOPIC = 'orders';
const CONTEXT = { apiVersion: 1, clientId: 'java-consumer', clientHost: '/127.0.0.1' };

/** One record as the test names it: its type, and `-` for a tombstone. */
function recordName(key: Uint8Array, value: Uint8Array | null): string {
  const decoded = decodeOffsetsTopicRecord(key, value);
  if (decoded.type === 'consumer-group') {
    return `${decoded.record.type}${decoded.record.value === null ? '-' : ''}`;
  }
  if (decoded.type === 'group-metadata') {
    return `GroupMetadata${decoded.value === null ? '-' : ''}`;
  }
  return decoded.type;
}

/** The values of the group's GroupMetadata records, in log order (null: tombstone). */
function groupMetadataValues(sim: Simulation): Array<GroupMetadataValue | null> {
  return storedRecords(sim).flatMap(({ key, value }) => {
    const decoded = decodeOffsetsTopicRecord(key, value);
    return decoded.type === 'group-metadata' ? [decoded.value] : [];
  });
}

function storedBatches(sim: Simulation): ReturnType<typeof decodeRecordBatches> {
  const log = sim.cluster.partition(OFFSETS_TOPIC, offsetsPartitionFor(GROUP, OFFSETS_TOPIC_PARTITIONS));
  assert.ok(log?.storedRecords, 'no stored records');
  return decodeRecordBatches(encodeStoredBatches(log.storedRecords.read(log.logStartOffset, 'read_uncommitted', Infinity))).filter((batch) => !batch.control);
}

function storedRecords(sim: Simulation): Array<{ key: Uint8Array; value: Uint8Array | null }> {
  return storedBatches(sim).flatMap((batch) => batch.records.map((r) => ({ key: r.key ?? new Uint8Array(0), value: r.value })));
}

/** The group's batches in its __consumer_offsets partition, each as its records' names, with the batch's time. */
function batches(sim: Simulation): Array<{ time: number; records: string[] }> {
  return storedBatches(sim)
    .map((batch) => ({ time: Number(batch.baseTimestamp), records: batch.records.map((r) => recordName(r.key ?? new Uint8Array(0), r.value)) }))
    .filter((batch) => batch.records.some((name) => name !== 'offset-commit'));
}

function heartbeat(sim: Simulation, request: Partial<ConsumerGroupHeartbeatRequestData> & { memberId: string; memberEpoch: number }): ConsumerGroupHeartbeatResponseData {
  let answer: ConsumerGroupHeartbeatResponseData | undefined;
  sim.coordinator.consumerGroupHeartbeat(CONTEXT, heartbeatRequest({ groupId: GROUP, ...request }), (response) => {
    answer = response;
  });
  sim.advance(0);
  assert.ok(answer && answer.errorCode === 0, JSON.stringify(answer));
  return answer;
}

function waitFor(sim: Simulation, done: () => boolean, what: string, step: () => void = () => sim.advance(1000)): void {
  for (let i = 0; i < 300 && !done(); i++) {
    step();
  }
  assert.ok(done(), `timed out waiting for ${what}`);
}

/** Two classic consumers; a member of the consumer protocol joins (upgrade), runs until Stable, and leaves (downgrade). */
function migrate(sim: Simulation): { upgradedAt: number; downgradedAt: number } {
  sim.createTopic(TOPIC, 4);
  sim.addConsumer({ groupId: GROUP, topics: [TOPIC], assignors: ['range'] }, 'classic-1');
  sim.addConsumer({ groupId: GROUP, topics: [TOPIC], assignors: ['range'] }, 'classic-2');
  waitFor(sim, () => sim.coordinator.group(GROUP)?.state === 'Stable', 'a Stable classic group');
  sim.advance(1000);
  const upgradedAt = sim.now;
  let answer = heartbeat(sim, { memberId: 'member-c', memberEpoch: 0, rebalanceTimeoutMs: 30000, subscribedTopicNames: [TOPIC], topicPartitions: [] });
  let owned = answer.assignment?.topicPartitions ?? [];
  waitFor(sim, () => sim.coordinator.consumerGroupDescribeNow(GROUP).groupState === 'Stable', 'a Stable consumer group', () => {
    sim.advance(1000);
    answer = heartbeat(sim, { memberId: 'member-c', memberEpoch: answer.memberEpoch, topicPartitions: owned });
    owned = answer.assignment?.topicPartitions ?? owned;
  });
  const downgradedAt = sim.now;
  heartbeat(sim, { memberId: 'member-c', memberEpoch: -1 });
  waitFor(sim, () => sim.coordinator.group(GROUP)?.state === 'Stable', 'the classic group to rebalance');
  sim.advance(5000);
  return { upgradedAt, downgradedAt };
}

const CONSUMER_GROUP_STATES = new Set(['Empty', 'Assigning', 'Reconciling', 'Stable', 'Dead']);

/**
 * The engine's events a consumer group's records can give: the KIP-848 coordinator's (an assignment
 * change with its reconciliation), not the simulated clients' own nor the classic coordinator's.
 */
function consumerGroupCoordinatorEvents(events: readonly RebalanceEvent[]): RebalanceEvent[] {
  return events.filter((event) => {
    switch (event.kind) {
      case 'assignment-changed':
        return event.reconciliation !== undefined;
      case 'state-changed':
        return CONSUMER_GROUP_STATES.has(event.stateBefore ?? 'Empty') && CONSUMER_GROUP_STATES.has(event.stateAfter ?? 'Empty');
      case 'offsets-committed':
        return false;
      default:
        return event.stateAfter === undefined;
    }
  });
}

function between(events: readonly RebalanceEvent[], from: number, to: number): RebalanceEvent[] {
  return events.filter((event) => event.time >= from && event.time <= to);
}

describe('simulator: online migration writes the records Kafka writes, and the timeline read from them is the engine\'s', () => {
  let sim: Simulation;

  beforeEach(() => {
    sim = new Simulation({ seed: 5 });
  });

  afterEach(() => sim.dispose());

  it('upgrade: the classic tombstone, createConsumerGroupRecords and the join, in one batch', () => {
    const { upgradedAt } = migrate(sim);
    const upgrade = batches(sim).filter((batch) => batch.time === upgradedAt);
    assert.equal(upgrade.length, 1, JSON.stringify(upgrade));
    const converted = ['ConsumerGroupMemberMetadata', 'ConsumerGroupMemberMetadata', 'ConsumerGroupMetadata',
      'ConsumerGroupTargetAssignmentMember', 'ConsumerGroupTargetAssignmentMember', 'ConsumerGroupTargetAssignmentMetadata',
      'ConsumerGroupCurrentMemberAssignment', 'ConsumerGroupCurrentMemberAssignment'];
    // The join: its member, the epoch bump, the targets that changed (a classic member gives one of its two up to it).
    const join = ['ConsumerGroupMemberMetadata', 'ConsumerGroupMetadata', 'ConsumerGroupTargetAssignmentMember', 'ConsumerGroupTargetAssignmentMember',
      'ConsumerGroupTargetAssignmentMetadata', 'ConsumerGroupCurrentMemberAssignment'];
    assert.deepEqual(upgrade[0].records, ['GroupMetadata-', ...converted, ...join]);
  });

  it('downgrade: the consumer group\'s tombstones as createGroupTombstoneRecords orders them, then the classic group\'s GroupMetadata, in one batch', () => {
    const { downgradedAt } = migrate(sim);
    const downgrade = batches(sim).filter((batch) => batch.time === downgradedAt && batch.records.includes('GroupMetadata'));
    assert.equal(downgrade.length, 1, JSON.stringify(batches(sim)));
    const three = (name: string): string[] => [name, name, name];
    assert.deepEqual(downgrade[0].records, [
      ...three('ConsumerGroupCurrentMemberAssignment-'), ...three('ConsumerGroupTargetAssignmentMember-'), 'ConsumerGroupTargetAssignmentMetadata-',
      ...three('ConsumerGroupMemberMetadata-'), 'ConsumerGroupMetadata-', 'GroupMetadata',
    ]);
    const value = groupMetadataValues(sim).at(-2);
    assert.ok(value !== undefined && value !== null);
    assert.equal(value.generation, 2, 'the classic group starts at the group epoch');
    assert.equal(value.protocol, 'range');
    assert.deepEqual(value.members.map((m) => m.clientId), ['consumer-migrating-1', 'consumer-migrating-1']);
    assert.ok(!value.members.some((m) => m.memberId === 'member-c'), 'the leaving member is not in the classic group');
  });

  it('both timelines agree through the upgrade and the downgrade, and neither shows the group Dead', () => {
    const { upgradedAt, downgradedAt } = migrate(sim);
    const engine = sim.events.forGroup(GROUP);
    const fromRecords = eventsFromOffsetsTopic(sim, GROUP);
    assert.deepEqual(engine.filter((e) => e.stateAfter === 'Dead'), []);
    assert.deepEqual(fromRecords.filter((e) => e.stateAfter === 'Dead'), []);

    const before = (events: readonly RebalanceEvent[]): RebalanceEvent[] => events.filter((event) => event.time < upgradedAt);
    assert.deepEqual(settledGenerations(before(fromRecords)), settledGenerations(before(coordinatorEvents(sim, GROUP))));

    const consumerPhase = withoutCauses(between(fromRecords, upgradedAt, downgradedAt));
    assert.deepEqual(consumerPhase, withoutCauses(consumerGroupCoordinatorEvents(between(engine, upgradedAt, downgradedAt))));
    // The converted members were the classic group's: only the member of the consumer protocol joins, and only it leaves.
    assert.deepEqual(consumerPhase.filter((e) => e.kind !== 'assignment-changed').map((e) => `${e.kind} ${e.memberId ?? ''} ${e.generation}`),
      ['member-joined member-c 1', 'rebalance-started  2', 'sync-completed  2', 'state-changed  2', 'state-changed  2', 'member-left member-c 2']);

    const after = (events: readonly RebalanceEvent[]): RebalanceEvent[] => events.filter((event) => event.time > downgradedAt);
    const classicAfter = settledGenerations(after(coordinatorEvents(sim, GROUP)));
    assert.deepEqual(classicAfter.map((g) => `${g.generation} ${g.state}`), ['3 Stable']);
    assert.deepEqual(settledGenerations(after(fromRecords)), classicAfter);
  });
});
