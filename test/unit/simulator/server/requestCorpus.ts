/**
 * Well-formed requests of every API the simulator's server answers, kept as field trees so the fuzz
 * test can mutate them where a broker is most easily hurt: integers (counts, sizes, offsets, ids)
 * set to boundary values, array entries duplicated or dropped, and bytes flipped, inserted or
 * deleted in the encoded body.
 */
import { WireWriter } from '../../protocol/wire';
import { subscriptionToWire } from '../../../../src/simulator/server/memberProtocol';
import { crc32c } from '../../../../src/protocol/crc32c';
import { encodeRecordBatch } from '../../../../src/protocol/recordBatch';
import { topicIdFor } from '../../../../src/simulator/log/cluster';
import { encode, type MessageCodec } from '../../../../src/protocol/runtime';
import { FetchRequest } from '../../../../src/protocol/messages/fetchRequest';
import { FindCoordinatorRequest } from '../../../../src/protocol/messages/findCoordinatorRequest';
import { HeartbeatRequest } from '../../../../src/protocol/messages/heartbeatRequest';
import { JoinGroupRequest } from '../../../../src/protocol/messages/joinGroupRequest';
import { LeaveGroupRequest } from '../../../../src/protocol/messages/leaveGroupRequest';
import { ListGroupsRequest } from '../../../../src/protocol/messages/listGroupsRequest';
import { ListOffsetsRequest } from '../../../../src/protocol/messages/listOffsetsRequest';
import { MetadataRequest } from '../../../../src/protocol/messages/metadataRequest';
import { OffsetCommitRequest } from '../../../../src/protocol/messages/offsetCommitRequest';
import { OffsetFetchRequest } from '../../../../src/protocol/messages/offsetFetchRequest';
import { ProduceRequest } from '../../../../src/protocol/messages/produceRequest';
import { SyncGroupRequest } from '../../../../src/protocol/messages/syncGroupRequest';
import { DescribeGroupsRequest } from '../../../../src/protocol/messages/describeGroupsRequest';
import { DescribeProducersRequest } from '../../../../src/protocol/messages/describeProducersRequest';
import { DescribeTransactionsRequest } from '../../../../src/protocol/messages/describeTransactionsRequest';
import { ListTransactionsRequest } from '../../../../src/protocol/messages/listTransactionsRequest';
import { WriteTxnMarkersRequest } from '../../../../src/protocol/messages/writeTxnMarkersRequest';
import { ConsumerGroupDescribeRequest } from '../../../../src/protocol/messages/consumerGroupDescribeRequest';
import { ConsumerGroupHeartbeatRequest } from '../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import { AlterShareGroupOffsetsRequest } from '../../../../src/protocol/messages/alterShareGroupOffsetsRequest';
import { DeleteShareGroupOffsetsRequest } from '../../../../src/protocol/messages/deleteShareGroupOffsetsRequest';
import { DescribeConfigsRequest } from '../../../../src/protocol/messages/describeConfigsRequest';
import { DescribeShareGroupOffsetsRequest } from '../../../../src/protocol/messages/describeShareGroupOffsetsRequest';
import { IncrementalAlterConfigsRequest } from '../../../../src/protocol/messages/incrementalAlterConfigsRequest';
import { ShareAcknowledgeRequest } from '../../../../src/protocol/messages/shareAcknowledgeRequest';
import { ShareFetchRequest } from '../../../../src/protocol/messages/shareFetchRequest';
import { ShareGroupDescribeRequest } from '../../../../src/protocol/messages/shareGroupDescribeRequest';
import { ShareGroupHeartbeatRequest } from '../../../../src/protocol/messages/shareGroupHeartbeatRequest';
import { StreamsGroupDescribeRequest } from '../../../../src/protocol/messages/streamsGroupDescribeRequest';
import { StreamsGroupHeartbeatRequest } from '../../../../src/protocol/messages/streamsGroupHeartbeatRequest';
import { DeleteTopicsRequest } from '../../../../src/protocol/messages/deleteTopicsRequest';
import { ZERO_UUID } from '../../../../src/simulator/server/topicIds';

export type Field =
  | { kind: 'int8' | 'int16' | 'int32'; value: number }
  | { kind: 'int64'; value: bigint }
  | { kind: 'string'; value: string | null }
  | { kind: 'bytes'; value: Buffer | null }
  /** A classic ARRAY; `count` overrides the item count written (a lie about the length). */
  | { kind: 'array'; items: Field[][]; count?: number }
  /** Bytes written as they are (a string whose length prefix lies, say). */
  | { kind: 'raw'; value: Buffer };

export interface CorpusRequest {
  apiKey: number;
  apiVersion: number;
  /** What the request is, for failure messages. */
  label: string;
  /** Group requests go to the group's coordinator, partition requests to the partition's leader. */
  route: { group: string } | { topic: string; partition: number } | null;
  fields: Field[];
}

const i8 = (value: number): Field => ({ kind: 'int8', value });
const i16 = (value: number): Field => ({ kind: 'int16', value });
const i32 = (value: number): Field => ({ kind: 'int32', value });
const i64 = (value: number | bigint): Field => ({ kind: 'int64', value: BigInt(value) });
const str = (value: string | null): Field => ({ kind: 'string', value });
const bytes = (value: Buffer | null): Field => ({ kind: 'bytes', value });
const arr = (...items: Field[][]): Field => ({ kind: 'array', items });

export function encodeFields(fields: readonly Field[], w = new WireWriter()): WireWriter {
  for (const field of fields) {
    switch (field.kind) {
      case 'int8':
        w.int8(field.value);
        break;
      case 'int16':
        w.int16(field.value);
        break;
      case 'int32':
        w.int32(field.value);
        break;
      case 'int64':
        w.raw(int64Bytes(field.value));
        break;
      case 'string':
        w.string(field.value);
        break;
      case 'bytes':
        w.bytes(field.value);
        break;
      case 'array':
        w.int32(field.count ?? field.items.length);
        for (const item of field.items) {
          encodeFields(item, w);
        }
        break;
      case 'raw':
        w.raw(field.value);
        break;
    }
  }
  return w;
}

function int64Bytes(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt.asIntN(64, value));
  return b;
}

function subscription(topics: string[]): Buffer {
  return subscriptionToWire({ topics, ownedPartitions: [], generationId: -1 });
}

/** A one-record batch as a producer sends it. */
export function producedBatch(records = 1): Buffer {
  return Buffer.from(
    encodeRecordBatch({ baseOffset: 0n, baseTimestamp: BigInt(Date.now()), records: Array.from({ length: records }, (_, offset) => ({ value: Buffer.from(`fuzz-${offset}`) })) }),
  );
}

const topicPartitions = (topic: string, partitions: number[]): Field[] => [str(topic), arr(...partitions.map((p) => [i32(p)]))];

/** Every served API at the versions the mutations start from (each API's lowest and highest), for group `group`. */
export function requestCorpus(group = 'fuzzed'): CorpusRequest[] {
  const joinProtocols = arr([str('range'), bytes(subscription(['orders']))], [str('roundrobin'), bytes(subscription(['orders']))]);
  // One protocol, as kafkajs joins by default.
  const oneProtocol = arr([str('roundrobin'), bytes(subscription(['orders']))]);
  const list: CorpusRequest[] = [
    { apiKey: 0, apiVersion: 3, label: 'Produce v3', route: { topic: 'orders', partition: 0 }, fields: [str(null), i16(1), i32(1000), arr([str('orders'), arr([i32(0), bytes(producedBatch(2))])])] },
    { apiKey: 0, apiVersion: 7, label: 'Produce v7', route: { topic: 'orders', partition: 1 }, fields: [str(null), i16(-1), i32(1000), arr([str('orders'), arr([i32(1), bytes(producedBatch(1))])])] },
    {
      apiKey: 1,
      apiVersion: 4,
      label: 'Fetch v4',
      route: { topic: 'orders', partition: 0 },
      fields: [i32(-1), i32(50), i32(1), i32(1 << 20), i8(0), arr([str('orders'), arr([i32(0), i64(0), i32(1 << 20)])])],
    },
    {
      apiKey: 1,
      apiVersion: 11,
      label: 'Fetch v11',
      route: { topic: 'orders', partition: 2 },
      fields: [i32(-1), i32(50), i32(1), i32(1 << 20), i8(1), i32(0), i32(-1), arr([str('orders'), arr([i32(2), i32(-1), i64(1), i64(-1), i32(1 << 20)])]), arr(), str('')],
    },
    { apiKey: 2, apiVersion: 1, label: 'ListOffsets v1', route: { topic: 'orders', partition: 0 }, fields: [i32(-1), arr([str('orders'), arr([i32(0), i64(-1)])])] },
    { apiKey: 2, apiVersion: 5, label: 'ListOffsets v5', route: { topic: 'orders', partition: 1 }, fields: [i32(-1), i8(1), arr([str('orders'), arr([i32(1), i32(-1), i64(-2)])])] },
    { apiKey: 3, apiVersion: 0, label: 'Metadata v0', route: null, fields: [arr([str('orders')])] },
    { apiKey: 3, apiVersion: 6, label: 'Metadata v6', route: null, fields: [arr([str('orders')], [str('fuzz-auto')]), i8(1)] },
    { apiKey: 8, apiVersion: 2, label: 'OffsetCommit v2', route: { group }, fields: [str('fuzz-simple'), i32(-1), str(''), i64(-1), arr([str('orders'), arr([i32(0), i64(2), str('')])])] },
    {
      apiKey: 8,
      apiVersion: 7,
      label: 'OffsetCommit v7',
      route: { group },
      fields: [str('fuzz-simple'), i32(-1), str(''), str(null), arr([str('orders'), arr([i32(1), i64(3), i32(-1), str('meta')])])],
    },
    { apiKey: 9, apiVersion: 1, label: 'OffsetFetch v1', route: { group }, fields: [str('fuzz-simple'), arr(topicPartitions('orders', [0, 1]))] },
    { apiKey: 9, apiVersion: 5, label: 'OffsetFetch v5', route: { group }, fields: [str('fuzz-simple'), { kind: 'array', items: [], count: -1 }] },
    { apiKey: 10, apiVersion: 0, label: 'FindCoordinator v0', route: null, fields: [str(group)] },
    { apiKey: 10, apiVersion: 2, label: 'FindCoordinator v2', route: null, fields: [str('fuzz-txn'), i8(1)] },
    { apiKey: 11, apiVersion: 0, label: 'JoinGroup v0', route: { group }, fields: [str(group), i32(10000), str(''), str('consumer'), joinProtocols] },
    { apiKey: 11, apiVersion: 3, label: 'JoinGroup v3', route: { group }, fields: [str(group), i32(10000), i32(20000), str(''), str('consumer'), joinProtocols] },
    { apiKey: 11, apiVersion: 1, label: 'JoinGroup v1 (one protocol)', route: { group }, fields: [str(group), i32(10000), i32(10000), str(''), str('consumer'), oneProtocol] },
    { apiKey: 11, apiVersion: 5, label: 'JoinGroup v5 (one protocol)', route: { group }, fields: [str(group), i32(10000), i32(10000), str(''), str(null), str('consumer'), oneProtocol] },
    { apiKey: 11, apiVersion: 5, label: 'JoinGroup v5', route: { group }, fields: [str(group), i32(10000), i32(20000), str(''), str('fuzz-static'), str('consumer'), joinProtocols] },
    { apiKey: 12, apiVersion: 0, label: 'Heartbeat v0', route: { group }, fields: [str(group), i32(1), str('member')] },
    { apiKey: 12, apiVersion: 3, label: 'Heartbeat v3', route: { group }, fields: [str(group), i32(1), str('member'), str(null)] },
    { apiKey: 13, apiVersion: 0, label: 'LeaveGroup v0', route: { group }, fields: [str(group), str('member')] },
    { apiKey: 13, apiVersion: 3, label: 'LeaveGroup v3', route: { group }, fields: [str(group), arr([str('member'), str(null)], [str(''), str('fuzz-static')])] },
    { apiKey: 14, apiVersion: 0, label: 'SyncGroup v0', route: { group }, fields: [str(group), i32(1), str('member'), arr([str('member'), bytes(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))])] },
    { apiKey: 14, apiVersion: 3, label: 'SyncGroup v3', route: { group }, fields: [str(group), i32(1), str('member'), str(null), arr()] },
    { apiKey: 15, apiVersion: 0, label: 'DescribeGroups v0', route: { group }, fields: [arr([str(group)], [str('steady')])] },
    { apiKey: 15, apiVersion: 4, label: 'DescribeGroups v4', route: { group }, fields: [arr([str(group)]), i8(1)] },
    { apiKey: 16, apiVersion: 0, label: 'ListGroups v0', route: null, fields: [] },
    { apiKey: 16, apiVersion: 2, label: 'ListGroups v2', route: null, fields: [] },
    { apiKey: 18, apiVersion: 0, label: 'ApiVersions v0', route: null, fields: [] },
    { apiKey: 18, apiVersion: 2, label: 'ApiVersions v2', route: null, fields: [] },
    { apiKey: 19, apiVersion: 2, label: 'CreateTopics v2', route: null, fields: [arr([str('fuzz-created'), i32(2), i16(1), arr(), arr()]), i32(1000), i8(0)] },
    { apiKey: 19, apiVersion: 4, label: 'CreateTopics v4', route: null, fields: [arr([str('fuzz-created-4'), i32(-1), i16(-1), arr(), arr([str('cleanup.policy'), str('delete')])]), i32(1000), i8(1)] },
    { apiKey: 20, apiVersion: 1, label: 'DeleteTopics v1', route: null, fields: [arr([str('fuzz-created-4')], [str('missing')]), i32(1000)] },
    { apiKey: 22, apiVersion: 0, label: 'InitProducerId v0', route: null, fields: [str(null), i32(60000)] },
    { apiKey: 22, apiVersion: 1, label: 'InitProducerId v1', route: { group: 'fuzz-txn' }, fields: [str('fuzz-txn'), i32(60000)] },
    { apiKey: 24, apiVersion: 0, label: 'AddPartitionsToTxn v0', route: { group: 'fuzz-txn' }, fields: [str('fuzz-txn'), i64(1), i16(0), arr(topicPartitions('orders', [0]))] },
    { apiKey: 25, apiVersion: 2, label: 'AddOffsetsToTxn v2', route: { group: 'fuzz-txn' }, fields: [str('fuzz-txn'), i64(1), i16(0), str(group)] },
    { apiKey: 26, apiVersion: 1, label: 'EndTxn v1', route: { group: 'fuzz-txn' }, fields: [str('fuzz-txn'), i64(1), i16(0), i8(1)] },
    {
      apiKey: 28,
      apiVersion: 2,
      label: 'TxnOffsetCommit v2',
      route: { group },
      fields: [str('fuzz-txn'), str(group), i64(1), i16(0), arr([str('orders'), arr([i32(0), i64(1), i32(-1), str(null)])])],
    },
    { apiKey: 42, apiVersion: 1, label: 'DeleteGroups v1', route: { group }, fields: [arr([str('fuzz-simple')])] },
    { apiKey: 47, apiVersion: 0, label: 'OffsetDelete v0', route: { group }, fields: [str('fuzz-simple'), arr(topicPartitions('orders', [0]))] },
  ];
  return [...list, ...flexibleCorpus(group)];
}

/**
 * A flexible version's request as one raw field: the request header v2's empty tagged fields
 * (requestFrame writes header v1), then the body from the generated codec.
 */
function flexible<T>(codec: MessageCodec<T>, apiVersion: number, route: CorpusRequest['route'], body: T): CorpusRequest {
  if (codec.apiKey === null) {
    throw new Error(`${codec.name} is not a request`);
  }
  const value = Buffer.concat([Buffer.from([0]), encode(codec, apiVersion, body)]);
  return { apiKey: codec.apiKey, apiVersion, label: `${codec.name} v${apiVersion}`, route, fields: [{ kind: 'raw', value }] };
}

/** Kafka 4.4's newest versions (flexible, topic ids where they use them), for group `group`; `ordersId` is the topic id of "orders". */
export function flexibleCorpus(group: string, ordersId = topicIdFor('sim-cluster', 'orders')): CorpusRequest[] {
  const metadata = subscription(['orders']);
  return [
    flexible(ProduceRequest, 13, { topic: 'orders', partition: 0 }, { transactionalId: null, acks: -1, timeoutMs: 1000, topicData: [{ topicId: ordersId, partitionData: [{ index: 0, records: producedBatch(2) }] }] }),
    flexible(FetchRequest, 18, { topic: 'orders', partition: 1 }, {
      replicaId: -1, maxWaitMs: 50, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionId: 0, sessionEpoch: -1,
      topics: [{ topicId: ordersId, partitions: [{ partition: 1, currentLeaderEpoch: -1, fetchOffset: 0n, lastFetchedEpoch: -1, logStartOffset: -1n, partitionMaxBytes: 1 << 20 }] }],
      forgottenTopicsData: [], rackId: '',
    }),
    flexible(ListOffsetsRequest, 11, { topic: 'orders', partition: 2 }, { replicaId: -1, isolationLevel: 0, topics: [{ name: 'orders', partitions: [{ partitionIndex: 2, currentLeaderEpoch: -1, timestamp: -3n }] }], timeoutMs: 1000 }),
    flexible(MetadataRequest, 13, null, { topics: [{ name: 'orders' }, { name: null, topicId: ordersId }], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false }),
    flexible(OffsetCommitRequest, 10, { group }, { groupId: 'fuzz-simple', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null, topics: [{ topicId: ordersId, partitions: [{ partitionIndex: 0, committedOffset: 1n, committedLeaderEpoch: -1, committedMetadata: '' }] }] }),
    flexible(OffsetFetchRequest, 10, { group }, { groups: [{ groupId: 'fuzz-simple', memberId: null, memberEpoch: -1, topics: null }, { groupId: group, memberId: null, memberEpoch: -1, topics: [{ topicId: ordersId, partitionIndexes: [0, 1] }] }], requireStable: true }),
    flexible(FindCoordinatorRequest, 6, null, { keyType: 0, coordinatorKeys: [group, 'fuzz-simple'] }),
    flexible(JoinGroupRequest, 9, { group }, { groupId: group, sessionTimeoutMs: 10000, rebalanceTimeoutMs: 20000, memberId: '', groupInstanceId: null, protocolType: 'consumer', protocols: [{ name: 'range', metadata }], reason: 'fuzz' }),
    flexible(SyncGroupRequest, 5, { group }, { groupId: group, generationId: 1, memberId: 'member', groupInstanceId: null, protocolType: 'consumer', protocolName: 'range', assignments: [] }),
    flexible(HeartbeatRequest, 4, { group }, { groupId: group, generationId: 1, memberId: 'member', groupInstanceId: null }),
    flexible(LeaveGroupRequest, 5, { group }, { groupId: group, members: [{ memberId: 'member', groupInstanceId: null, reason: 'fuzz' }] }),
    flexible(DescribeGroupsRequest, 6, { group }, { groups: [group, 'missing'], includeAuthorizedOperations: false }),
    flexible(ListGroupsRequest, 5, null, { statesFilter: ['stable'], typesFilter: ['classic'] }),
    flexible(ConsumerGroupHeartbeatRequest, 1, { group: 'fuzz-kip848' }, {
      groupId: 'fuzz-kip848', memberId: 'fuzz-member-000000000', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30000,
      subscribedTopicNames: ['orders'], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
    }),
    flexible(ConsumerGroupHeartbeatRequest, 0, { group: 'fuzz-kip848' }, {
      groupId: 'fuzz-kip848', memberId: 'fuzz-member-000000000', memberEpoch: 1, instanceId: null, rackId: null, rebalanceTimeoutMs: -1,
      subscribedTopicNames: null, subscribedTopicRegex: null, serverAssignor: 'uniform', topicPartitions: [{ topicId: ordersId, partitions: [0, 1] }],
    }),
    flexible(ConsumerGroupDescribeRequest, 1, { group: 'fuzz-kip848' }, { groupIds: ['fuzz-kip848', group, 'missing'], includeAuthorizedOperations: true }),
    flexible(ShareGroupHeartbeatRequest, 1, { group: 'fuzz-share' }, {
      groupId: 'fuzz-share', memberId: 'fuzz-share-member-0000', memberEpoch: 0, rackId: null, subscribedTopicNames: ['orders', 'missing'],
    }),
    flexible(ShareGroupHeartbeatRequest, 1, { group: 'fuzz-share' }, {
      groupId: 'fuzz-share', memberId: 'fuzz-share-member-0000', memberEpoch: 1, rackId: 'rack-a', subscribedTopicNames: null,
    }),
    flexible(ShareGroupDescribeRequest, 1, { group: 'fuzz-share' }, { groupIds: ['fuzz-share', group, 'missing'], includeAuthorizedOperations: false }),
    // A session opened (epoch 0), then one fetch of it with acknowledgements of every type, and a close; each goes to partition 0's leader.
    flexible(ShareFetchRequest, 2, { topic: 'orders', partition: 0 }, {
      groupId: 'fuzz-share', memberId: 'fuzz-share-member-0000', shareSessionEpoch: 0, maxWaitMs: 20, minBytes: 1, maxBytes: 1 << 20, maxRecords: 50, batchSize: 10,
      shareAcquireMode: 0, isRenewAck: false, topics: [{ topicId: ordersId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [] }, { partitionIndex: 7, acknowledgementBatches: [] }] }], forgottenTopicsData: [],
    }),
    flexible(ShareFetchRequest, 2, { topic: 'orders', partition: 0 }, {
      groupId: 'fuzz-share', memberId: 'fuzz-share-member-0000', shareSessionEpoch: 1, maxWaitMs: 20, minBytes: 1, maxBytes: 1 << 20, maxRecords: 5, batchSize: 5,
      shareAcquireMode: 1, isRenewAck: false,
      topics: [{ topicId: ordersId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 0n, lastOffset: 3n, acknowledgeTypes: [0, 1, 2, 3] }, { firstOffset: 4n, lastOffset: 9n, acknowledgeTypes: [1] }] }] }],
      forgottenTopicsData: [{ topicId: ordersId, partitions: [7] }],
    }),
    flexible(DescribeShareGroupOffsetsRequest, 1, { group: 'fuzz-share' }, {
      groups: [{ groupId: 'fuzz-share', topics: null }, { groupId: 'fuzz-share', topics: [{ topicName: 'orders', partitions: [0, 9] }, { topicName: 'missing', partitions: [0] }] }],
    }),
    flexible(AlterShareGroupOffsetsRequest, 0, { group: 'fuzz-share-idle' }, {
      groupId: 'fuzz-share-idle', topics: [{ topicName: 'orders', partitions: [{ partitionIndex: 0, startOffset: 1n }, { partitionIndex: 9, startOffset: -1n }] }, { topicName: 'missing', partitions: [{ partitionIndex: 0, startOffset: 0n }] }],
    }),
    flexible(DeleteShareGroupOffsetsRequest, 0, { group: 'fuzz-share-idle' }, { groupId: 'fuzz-share-idle', topics: [{ topicName: 'orders' }, { topicName: 'missing' }] }),
    flexible(IncrementalAlterConfigsRequest, 1, null, {
      resources: [{ resourceType: 32, resourceName: 'fuzz-share', configs: [{ name: 'share.record.lock.duration.ms', configOperation: 0, value: '15000' }, { name: 'share.isolation.level', configOperation: 0, value: 'read_committed' }] }],
      validateOnly: false,
    }),
    flexible(DescribeConfigsRequest, 4, null, { resources: [{ resourceType: 32, resourceName: 'fuzz-share', configurationKeys: null }, { resourceType: 2, resourceName: 'orders', configurationKeys: ['x'] }], includeSynonyms: true, includeDocumentation: true }),
    flexible(ShareAcknowledgeRequest, 2, { topic: 'orders', partition: 0 }, {
      groupId: 'fuzz-share', memberId: 'fuzz-share-member-0000', shareSessionEpoch: -1, isRenewAck: true,
      topics: [{ topicId: ordersId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 0n, lastOffset: 1n, acknowledgeTypes: [4] }] }] }],
    }),
    flexible(StreamsGroupHeartbeatRequest, 1, { group: 'fuzz-streams' }, {
      groupId: 'fuzz-streams', memberId: 'fuzz-streams-member-00', memberEpoch: 0, endpointInformationEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30000,
      topology: {
        epoch: 0,
        subtopologies: [{
          subtopologyId: '0', sourceTopics: ['orders'], sourceTopicRegex: [], repartitionSinkTopics: [], repartitionSourceTopics: [], copartitionGroups: [],
          stateChangelogTopics: [{ name: 'fuzz-streams-store-changelog', partitions: 0, replicationFactor: 0, topicConfigs: [] }],
        }],
      },
      activeTasks: [], standbyTasks: [], warmupTasks: [], processId: 'fuzz-process', userEndpoint: { host: 'localhost', port: 7070 },
      clientTags: [{ key: 'zone', value: 'a' }], taskOffsets: null, taskEndOffsets: null, shutdownApplication: false,
    }),
    flexible(StreamsGroupDescribeRequest, 1, { group: 'fuzz-streams' }, { groupIds: ['fuzz-streams', group, 'missing'], includeAuthorizedOperations: false }),
    flexible(DeleteTopicsRequest, 6, null, {
      topics: [{ name: 'fuzz-streams-store-changelog', topicId: ZERO_UUID }, { name: null, topicId: ZERO_UUID }, { name: 'missing', topicId: ordersId }, { name: null, topicId: 'fuzzUnknownTopicId000A' }],
      timeoutMs: 1000,
    }),
    flexible(DescribeProducersRequest, 0, { topic: 'orders', partition: 0 }, { topics: [{ name: 'orders', partitionIndexes: [0, 1] }, { name: 'missing', partitionIndexes: [0] }] }),
    flexible(ListTransactionsRequest, 2, null, { stateFilters: ['Ongoing', 'Unknown'], producerIdFilters: [1n], durationFilter: 0n, transactionalIdPattern: 'fuzz-.*' }),
    flexible(DescribeTransactionsRequest, 0, { group: 'fuzz-txn' }, { transactionalIds: ['fuzz-txn', 'missing', ''] }),
    flexible(WriteTxnMarkersRequest, 2, { topic: 'orders', partition: 0 }, {
      markers: [{ producerId: 1n, producerEpoch: 0, transactionResult: false, coordinatorEpoch: 0, transactionVersion: 2, topics: [{ name: 'orders', partitionIndexes: [0] }, { name: '__consumer_offsets', partitionIndexes: [0] }] }],
    }),
  ];
}

/** An empty v2 batch whose header claims 2^31 - 1 records (CRC correct), as a hostile producer sends it. */
export function lyingEmptyBatch(): Buffer {
  const batch = Buffer.from(producedBatch(1).subarray(0, 61));
  batch.writeInt32BE(49, 8);
  batch.writeInt32BE(2 ** 31 - 2, 23);
  batch.writeInt32BE(2 ** 31 - 1, 57);
  batch.writeUInt32BE(crc32c(batch.subarray(21)), 17);
  return batch;
}

/** The inputs that once ended the process, exhausted its memory or lost records, as requests to mutate further. */
export function attackCorpus(group: string): CorpusRequest[] {
  const twice = arr([str('range'), bytes(subscription(['orders']))], [str('range'), bytes(subscription(['orders']))]);
  return [
    { apiKey: 11, apiVersion: 0, label: 'JoinGroup v0 naming one protocol twice', route: { group }, fields: [str(group), i32(10000), str(''), str('consumer'), twice] },
    { apiKey: 8, apiVersion: 2, label: 'OffsetCommit v2 above 2^53', route: { group }, fields: [str(group), i32(-1), str(''), i64(-1), arr([str('orders'), arr([i32(0), i64(2n ** 53n + 2n), str('')])])] },
    { apiKey: 9, apiVersion: 3, label: 'OffsetFetch v3 of every offset', route: { group }, fields: [str(group), { kind: 'array', items: [], count: -1 }] },
    { apiKey: 19, apiVersion: 2, label: 'CreateTopics v2 of 10^7 partitions', route: null, fields: [arr([str(`huge-${group}`), i32(10_000_000), i16(1), arr(), arr()]), i32(1000), i8(0)] },
    { apiKey: 0, apiVersion: 3, label: 'Produce v3 of an empty batch claiming 2^31 - 1 records', route: { topic: 'orders', partition: 2 }, fields: [str(null), i16(1), i32(1000), arr([str('orders'), arr([i32(2), bytes(lyingEmptyBatch())])])] },
    {
      apiKey: 1,
      apiVersion: 4,
      label: 'Fetch v4 parked past the end for a long wait',
      route: { topic: 'orders', partition: 2 },
      fields: [i32(-1), i32(600_000), i32(1), i32(1 << 20), i8(0), arr([str('orders'), arr([i32(2), i64(1_000_000), i32(1 << 20)])])],
    },
  ];
}
