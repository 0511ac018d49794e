import * as assert from 'node:assert/strict';
import type { RebalanceEvent } from '../../../src/model/types';
import { decodeOffsetsTopicRecord } from '../../../src/timeline/groupMetadataRecord';
import { OffsetsTopicEventLog } from '../../../src/timeline/offsetsTopicEventLog';
import { SHARE_GROUP_RECORDS, type ShareGroupRecord } from '../../../src/timeline/shareGroupRecords';
import { STREAMS_GROUP_RECORDS, type StreamsGroupRecord } from '../../../src/timeline/streamsGroupRecords';
import { concat, cstr, i16, i32, str, uvarint } from './kafkaBytes';

const groupId = 'g';
/** 15 zero bytes and a 1, as Kafka's Uuid.toString (base64url) spells it. */
const topicId = 'AAAAAAAAAAAAAAAAAAAAAQ';
const topicNames = new Map([[topicId, 'orders']]);

type Encoded = { key: Uint8Array; value: Uint8Array | null };

/** Feeds batches of encoded records (one coordinator write each) and returns the group's events. */
function read(batches: Array<{ time: number; records: Encoded[] }>): { log: OffsetsTopicEventLog; events: RebalanceEvent[] } {
  const log = new OffsetsTopicEventLog((id) => topicNames.get(id));
  for (const batch of batches) {
    for (const { key, value } of batch.records) {
      assert.deepEqual(log.ingest(key, value, batch.time), []);
    }
    log.endBatch();
  }
  return { log, events: log.events(groupId) };
}

const share = (record: ShareGroupRecord): Encoded => SHARE_GROUP_RECORDS.encode(record);
const streams = (record: StreamsGroupRecord): Encoded => STREAMS_GROUP_RECORDS.encode(record);

function shareMember(memberId: string): ShareGroupRecord {
  return { type: 'ShareGroupMemberMetadata', key: { groupId, memberId }, value: { rackId: null, clientId: `client-${memberId}`, clientHost: '/127.0.0.1', subscribedTopicNames: ['orders'] } };
}
const shareEpoch = (epoch: number): ShareGroupRecord => ({ type: 'ShareGroupMetadata', key: { groupId }, value: { epoch, metadataHash: 9n } });
const shareTarget = (memberId: string, partitions: number[] | null): ShareGroupRecord =>
  ({ type: 'ShareGroupTargetAssignmentMember', key: { groupId, memberId }, value: partitions === null ? null : { topicPartitions: [{ topicId, partitions }] } });
const shareTargetEpoch = (assignmentEpoch: number): ShareGroupRecord => ({ type: 'ShareGroupTargetAssignmentMetadata', key: { groupId }, value: { assignmentEpoch, assignmentTimestamp: 0n } });
const shareCurrent = (memberId: string, memberEpoch: number, previousMemberEpoch: number, partitions: number[]): ShareGroupRecord =>
  ({ type: 'ShareGroupCurrentMemberAssignment', key: { groupId, memberId }, value: { memberEpoch, previousMemberEpoch, state: 0, assignedPartitions: [{ topicId, partitions }] } });
const tombstone = (record: ShareGroupRecord): ShareGroupRecord => ({ ...record, value: null });

/** Members a and b join, a takes its new epoch, b leaves, the group is deleted (GroupMetadataManager's write order). */
const shareBatches = [
  { time: 1000, records: [shareMember('a'), shareEpoch(1), shareTarget('a', [0, 1]), shareTargetEpoch(1), shareCurrent('a', 1, 0, [0, 1])].map(share) },
  { time: 2000, records: [shareMember('b'), shareEpoch(2), shareTarget('a', [0]), shareTarget('b', [1]), shareTargetEpoch(2), shareCurrent('b', 2, 0, [1])].map(share) },
  { time: 2500, records: [shareCurrent('a', 2, 1, [0])].map(share) },
  { time: 3000, records: [tombstone(shareCurrent('b', 2, 0, [])), tombstone(shareTarget('b', [])), tombstone(shareMember('b')), shareEpoch(3)].map(share) },
  {
    time: 4000,
    records: [
      share({ type: 'ShareGroupStatePartitionMetadata', key: { groupId }, value: null }),
      ...[shareCurrent('a', 2, 1, []), shareTarget('a', []), shareTargetEpoch(0), shareMember('a'), shareEpoch(0)].map((r) => share(tombstone(r))),
    ],
  },
];

describe('timeline/share and streams group records (KIP-932, KIP-1071 records of __consumer_offsets)', () => {
  it('decodes a share-group current assignment from the bytes Kafka 4.4 writes (types 10 to 15)', () => {
    const key = concat(i16(14), str(groupId), str('a'));
    const value = concat(i16(0), i32(5), i32(4), Uint8Array.of(0), uvarint(2), new Uint8Array(15), Uint8Array.of(1), uvarint(3), i32(0), i32(2), uvarint(0), uvarint(0));
    assert.deepEqual(decodeOffsetsTopicRecord(key, value), {
      type: 'share-group',
      group: groupId,
      record: { type: 'ShareGroupCurrentMemberAssignment', key: { groupId, memberId: 'a' }, value: { memberEpoch: 5, previousMemberEpoch: 4, state: 0, assignedPartitions: [{ topicId, partitions: [0, 2] }] } },
    });
    assert.throws(() => decodeOffsetsTopicRecord(key, value.subarray(0, 9)), /ShareGroupCurrentMemberAssignmentValue/);
    for (const record of shareBatches.flatMap((batch) => batch.records)) {
      assert.equal(decodeOffsetsTopicRecord(record.key, record.value).type, 'share-group');
    }
  });

  it('gives a share group\'s joins, leaves, epoch bumps, targets and member epoch steps, none inferred, and Dead on deletion', () => {
    const { events } = read(shareBatches);
    assert.deepEqual(events.map((e) => [e.time, e.kind, e.memberId ?? e.stateAfter ?? e.generation]), [
      [1000, 'member-joined', 'a'], [1000, 'rebalance-started', 1], [1000, 'sync-completed', 1], [1000, 'assignment-changed', 'a'], [1000, 'state-changed', 'Stable'],
      [2000, 'member-joined', 'b'], [2000, 'rebalance-started', 2], [2000, 'sync-completed', 2], [2000, 'assignment-changed', 'b'],
      [2500, 'assignment-changed', 'a'],
      [3000, 'member-left', 'b'], [3000, 'rebalance-started', 3],
      [4000, 'member-left', 'a'], [4000, 'state-changed', 'Dead'],
    ]);
    assert.ok(events.every((e) => e.inferred === undefined));
    assert.deepEqual(events[7].assignments?.map((a) => [a.memberId, a.revoked, a.assigned]), [
      ['a', [{ topic: 'orders', partition: 1 }], []], ['b', [], [{ topic: 'orders', partition: 1 }]],
    ]);
    // No revocation wait: a gives up partition 1 in the same step that takes it to epoch 2.
    const step = events[9];
    assert.deepEqual(step.assignments?.[0], { memberId: 'a', groupInstanceId: null, revoked: [{ topic: 'orders', partition: 1 }], assigned: [] });
    assert.deepEqual(step.reconciliation, { memberEpoch: 2, previousMemberEpoch: 1, state: 'stable', targetEpoch: 2, pendingRevocation: [], pendingAssignment: [], convergedAfterMs: 500 });
    assert.equal(events[0].clientId, 'client-a');
  });

  it('keeps a share group Stable while it has members (no Assigning or Reconciling in ShareGroup)', () => {
    const { log, events } = read(shareBatches.slice(0, 2));
    assert.deepEqual(events.filter((e) => e.kind === 'state-changed').map((e) => e.stateAfter), ['Stable']);
    assert.equal(log.generation(groupId), 2);
  });

  it('shows a streams group\'s active tasks as partitions of a subtopology, its process id, and tasks pending revocation', () => {
    const member = (memberId: string): StreamsGroupRecord => ({
      type: 'StreamsGroupMemberMetadata',
      key: { groupId, memberId },
      value: { instanceId: null, rackId: null, clientId: `app-${memberId}`, clientHost: '/127.0.0.1', rebalanceTimeoutMs: 30000, topologyEpoch: 0, processId: `process-${memberId}`, userEndpoint: null, clientTags: [] },
    });
    const epoch = (value: number): StreamsGroupRecord => ({ type: 'StreamsGroupMetadata', key: { groupId }, value: { epoch: value, metadataHash: 1n } });
    const target = (memberId: string, partitions: number[]): StreamsGroupRecord =>
      ({ type: 'StreamsGroupTargetAssignmentMember', key: { groupId, memberId }, value: { activeTasks: [{ subtopologyId: '0', partitions }], standbyTasks: [], warmupTasks: [] } });
    const targetEpoch = (assignmentEpoch: number): StreamsGroupRecord => ({ type: 'StreamsGroupTargetAssignmentMetadata', key: { groupId }, value: { assignmentEpoch, assignmentTimestamp: 0n } });
    const current = (memberId: string, memberEpoch: number, state: number, active: number[], pending: number[]): StreamsGroupRecord => ({
      type: 'StreamsGroupCurrentMemberAssignment',
      key: { groupId, memberId },
      value: {
        memberEpoch, previousMemberEpoch: memberEpoch - 1, state, standbyTasks: [], warmupTasks: [], standbyTasksPendingRevocation: [], warmupTasksPendingRevocation: [],
        activeTasks: [{ subtopologyId: '0', partitions: active, assignmentEpochs: active.map(() => memberEpoch) }],
        activeTasksPendingRevocation: [{ subtopologyId: '0', partitions: pending, assignmentEpochs: pending.map(() => memberEpoch - 1) }],
      },
    });
    const topology: StreamsGroupRecord = { type: 'StreamsGroupTopology', key: { groupId }, value: { epoch: 0, subtopologies: [] } };
    const log = new OffsetsTopicEventLog((id) => topicNames.get(id));
    const batches = [
      // Streams' MemberState: STABLE 1, UNREVOKED_TASKS 2, UNRELEASED_TASKS 3.
      [member('a'), topology, epoch(1), target('a', [0, 1]), targetEpoch(1), current('a', 1, 1, [0, 1], [])],
      [member('b'), epoch(2), target('a', [0]), target('b', [1]), targetEpoch(2), current('b', 2, 3, [], [])],
      [current('a', 1, 2, [0], [1])],
      [current('a', 2, 1, [0], [])],
      [current('b', 2, 1, [1], [])],
    ];
    for (const [i, records] of batches.entries()) {
      for (const record of records.map(streams)) {
        assert.equal(decodeOffsetsTopicRecord(record.key, record.value).type, 'streams-group');
        log.ingest(record.key, record.value, 1000 * (i + 1));
      }
      assert.deepEqual(log.unnamedTopicIds(), [], 'subtopologies are no topic ids to ask the cluster for');
      log.endBatch();
    }
    const events = log.events(groupId);
    assert.ok(events.every((e) => e.inferred === undefined));
    assert.deepEqual(events.filter((e) => e.kind === 'member-joined').map((e) => e.clientId), ['app-a (process process-a)', 'app-b (process process-b)']);
    const revoking = events.filter((e) => e.kind === 'assignment-changed' && e.time === 3000)[0];
    assert.deepEqual(revoking.reconciliation?.pendingRevocation, [{ topic: 'subtopology 0', partition: 1 }]);
    assert.equal(revoking.reconciliation?.state, 'unrevoked-partitions');
    assert.deepEqual(events.filter((e) => e.kind === 'assignment-changed' && e.memberId === 'b').map((e) => e.reconciliation?.state), ['unreleased-partitions', 'stable']);
    assert.deepEqual(events.filter((e) => e.kind === 'state-changed').map((e) => e.stateAfter), ['Stable', 'Reconciling', 'Stable']);
    const converged = events.filter((e) => e.reconciliation?.convergedAfterMs !== undefined && e.time > 1000);
    assert.deepEqual(converged.map((e) => [e.memberId, e.reconciliation?.convergedAfterMs]), [['a', 2000], ['b', 3000]]);
    assert.deepEqual(converged[1].assignments?.[0].assigned, [{ topic: 'subtopology 0', partition: 1 }]);
  });

  it('decodes a streams member from its bytes (type 19), process id included', () => {
    const key = concat(i16(19), str(groupId), str('m'));
    const value = concat(i16(0), cstr(null), cstr(null), cstr('c'), cstr('/h'), i32(100), i32(3), cstr('p1'), Uint8Array.of(0xff), uvarint(1), uvarint(0)); // no endpoint (-1), no client tags
    const decoded = decodeOffsetsTopicRecord(key, value);
    assert.equal(decoded.type === 'streams-group' && decoded.record.type === 'StreamsGroupMemberMetadata' ? decoded.record.value?.processId : undefined, 'p1');
  });
});
