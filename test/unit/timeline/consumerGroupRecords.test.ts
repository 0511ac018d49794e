import * as assert from 'node:assert/strict';
import { decodeOffsetsTopicRecord } from '../../../src/timeline/groupMetadataRecord';
import { encodeConsumerGroupRecord, type ConsumerGroupRecord } from '../../../src/timeline/consumerGroupRecords';
import { concat, i16, str } from './kafkaBytes';

const groupId = 'g';
const topicId = 'Zm9vLXRvcGljLWlkLTAwMQ';

const samples: ConsumerGroupRecord[] = [
  { type: 'ConsumerGroupMetadata', key: { groupId }, value: { epoch: 7, metadataHash: 42n } },
  {
    type: 'ConsumerGroupMemberMetadata',
    key: { groupId, memberId: 'm' },
    value: {
      instanceId: 'i', rackId: null, clientId: 'c', clientHost: '/127.0.0.1', subscribedTopicNames: ['foo'], subscribedTopicRegex: null,
      rebalanceTimeoutMs: 5000, serverAssignor: 'uniform', classicMemberMetadata: null,
    },
  },
  { type: 'ConsumerGroupTargetAssignmentMetadata', key: { groupId }, value: { assignmentEpoch: 7, assignmentTimestamp: 1_700_000_000_000n } },
  { type: 'ConsumerGroupTargetAssignmentMember', key: { groupId, memberId: 'm' }, value: { topicPartitions: [{ topicId, partitions: [0, 2] }] } },
  {
    type: 'ConsumerGroupCurrentMemberAssignment',
    key: { groupId, memberId: 'm' },
    value: { memberEpoch: 7, previousMemberEpoch: 6, state: 1, assignedPartitions: [{ topicId, partitions: [0], assignmentEpochs: [7] }], partitionsPendingRevocation: [{ topicId, partitions: [1], assignmentEpochs: [6] }] },
  },
  { type: 'ConsumerGroupRegularExpression', key: { groupId, regularExpression: 'fo.*' }, value: { topics: ['foo'], version: 3n, timestamp: 5n } },
];

describe('timeline/consumerGroupRecords (KIP-848 records of __consumer_offsets)', () => {
  it('reads back every record type it writes, with the record type Kafka puts first in the key', () => {
    for (const record of samples) {
      const { key, value } = encodeConsumerGroupRecord(record);
      const decoded = decodeOffsetsTopicRecord(key, value);
      assert.equal(decoded.type, 'consumer-group', record.type);
      assert.deepEqual(decoded.type === 'consumer-group' ? decoded.record : undefined, record);
    }
    assert.deepEqual([...encodeConsumerGroupRecord(samples[0]).key.subarray(0, 2)], [0, 3]);
    assert.deepEqual([...encodeConsumerGroupRecord(samples[4]).value?.subarray(0, 2) ?? []], [0, 0]);
  });

  it('reads a tombstone as a null value', () => {
    const { key } = encodeConsumerGroupRecord(samples[1]);
    assert.deepEqual(decodeOffsetsTopicRecord(key, null), { type: 'consumer-group', group: groupId, record: { ...samples[1], value: null } });
  });

  it('refuses value versions past what Kafka 4.4 writes and bytes past the schema, naming the record', () => {
    const { key, value } = encodeConsumerGroupRecord(samples[0]);
    const newer = Uint8Array.from(value ?? []);
    newer[1] = 1;
    assert.throws(() => decodeOffsetsTopicRecord(key, newer), /ConsumerGroupMetadataValue: unsupported version 1 \(this decoder reads 0 to 0\)/);
    assert.throws(() => decodeOffsetsTopicRecord(concat(key, Uint8Array.of(0)), value), /ConsumerGroupMetadataKey: 1 unexpected trailing byte/);
    assert.throws(() => decodeOffsetsTopicRecord(key, Uint8Array.of(0)), /__consumer_offsets record/);
  });

  it('leaves 4.0\'s partition metadata (type 4) to the caller as another record, and reads share and streams records (11, 17) as theirs', () => {
    assert.deepEqual(decodeOffsetsTopicRecord(concat(i16(4), str(groupId)), null), { type: 'other', keyVersion: 4 });
    assert.deepEqual(decodeOffsetsTopicRecord(concat(i16(11), str(groupId)), null), { type: 'share-group', group: groupId, record: { type: 'ShareGroupMetadata', key: { groupId }, value: null } });
    assert.deepEqual(decodeOffsetsTopicRecord(concat(i16(17), str(groupId)), null), { type: 'streams-group', group: groupId, record: { type: 'StreamsGroupMetadata', key: { groupId }, value: null } });
  });
});
