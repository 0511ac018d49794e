/**
 * The share-group records of `__consumer_offsets` (record types 10 to 15 of Kafka 4.4's group
 * coordinator, KIP-932), decoded on the shared path (coordinatorRecordCodecs.ts).
 *
 * Types 10 to 14 have the shapes of the consumer group's 5, 3, 6, 7 and 8 less what share groups do not
 * have (instance ids, rebalance timeouts, regexes, partitions pending revocation: a share partition
 * may be consumed by many members at once, so no member waits for another to release it), so
 * asConsumerGroupRecord maps them onto those and one derivation (consumerGroupEvents.ts) reads both.
 * ShareGroupStatePartitionMetadata (15) says which partitions' share state is initialized or being
 * deleted in `__share_group_state`: delivery state, not membership, so no event.
 */
import { ShareGroupCurrentMemberAssignmentKey, type ShareGroupCurrentMemberAssignmentKeyData } from '../protocol/messages/shareGroupCurrentMemberAssignmentKey';
import { ShareGroupCurrentMemberAssignmentValue, type ShareGroupCurrentMemberAssignmentValueData } from '../protocol/messages/shareGroupCurrentMemberAssignmentValue';
import { ShareGroupMemberMetadataKey, type ShareGroupMemberMetadataKeyData } from '../protocol/messages/shareGroupMemberMetadataKey';
import { ShareGroupMemberMetadataValue, type ShareGroupMemberMetadataValueData } from '../protocol/messages/shareGroupMemberMetadataValue';
import { ShareGroupMetadataKey, type ShareGroupMetadataKeyData } from '../protocol/messages/shareGroupMetadataKey';
import { ShareGroupMetadataValue, type ShareGroupMetadataValueData } from '../protocol/messages/shareGroupMetadataValue';
import { ShareGroupStatePartitionMetadataKey, type ShareGroupStatePartitionMetadataKeyData } from '../protocol/messages/shareGroupStatePartitionMetadataKey';
import { ShareGroupStatePartitionMetadataValue, type ShareGroupStatePartitionMetadataValueData } from '../protocol/messages/shareGroupStatePartitionMetadataValue';
import { ShareGroupTargetAssignmentMemberKey, type ShareGroupTargetAssignmentMemberKeyData } from '../protocol/messages/shareGroupTargetAssignmentMemberKey';
import { ShareGroupTargetAssignmentMemberValue, type ShareGroupTargetAssignmentMemberValueData } from '../protocol/messages/shareGroupTargetAssignmentMemberValue';
import { ShareGroupTargetAssignmentMetadataKey, type ShareGroupTargetAssignmentMetadataKeyData } from '../protocol/messages/shareGroupTargetAssignmentMetadataKey';
import { ShareGroupTargetAssignmentMetadataValue, type ShareGroupTargetAssignmentMetadataValueData } from '../protocol/messages/shareGroupTargetAssignmentMetadataValue';
import type { ConsumerGroupRecord } from './consumerGroupRecords';
import { CoordinatorRecordFamily, recordCodecs } from './coordinatorRecordCodecs';

/** One share-group record, tagged with its key's type; a null value is a tombstone. */
export type ShareGroupRecord =
  | { type: 'ShareGroupMetadata'; key: ShareGroupMetadataKeyData; value: ShareGroupMetadataValueData | null }
  | { type: 'ShareGroupMemberMetadata'; key: ShareGroupMemberMetadataKeyData; value: ShareGroupMemberMetadataValueData | null }
  | { type: 'ShareGroupTargetAssignmentMetadata'; key: ShareGroupTargetAssignmentMetadataKeyData; value: ShareGroupTargetAssignmentMetadataValueData | null }
  | { type: 'ShareGroupTargetAssignmentMember'; key: ShareGroupTargetAssignmentMemberKeyData; value: ShareGroupTargetAssignmentMemberValueData | null }
  | { type: 'ShareGroupCurrentMemberAssignment'; key: ShareGroupCurrentMemberAssignmentKeyData; value: ShareGroupCurrentMemberAssignmentValueData | null }
  | { type: 'ShareGroupStatePartitionMetadata'; key: ShareGroupStatePartitionMetadataKeyData; value: ShareGroupStatePartitionMetadataValueData | null };

export const SHARE_GROUP_RECORDS = new CoordinatorRecordFamily<ShareGroupRecord>('share-group', [
  recordCodecs('ShareGroupMetadata', ShareGroupMetadataKey, ShareGroupMetadataValue),
  recordCodecs('ShareGroupMemberMetadata', ShareGroupMemberMetadataKey, ShareGroupMemberMetadataValue),
  recordCodecs('ShareGroupTargetAssignmentMetadata', ShareGroupTargetAssignmentMetadataKey, ShareGroupTargetAssignmentMetadataValue),
  recordCodecs('ShareGroupTargetAssignmentMember', ShareGroupTargetAssignmentMemberKey, ShareGroupTargetAssignmentMemberValue),
  recordCodecs('ShareGroupCurrentMemberAssignment', ShareGroupCurrentMemberAssignmentKey, ShareGroupCurrentMemberAssignmentValue),
  recordCodecs('ShareGroupStatePartitionMetadata', ShareGroupStatePartitionMetadataKey, ShareGroupStatePartitionMetadataValue),
]);

/** The consumer-group record of the same meaning; null for ShareGroupStatePartitionMetadata (no membership in it). */
export function asConsumerGroupRecord(record: ShareGroupRecord): ConsumerGroupRecord | null {
  switch (record.type) {
    case 'ShareGroupMetadata':
      return { type: 'ConsumerGroupMetadata', key: record.key, value: record.value };
    case 'ShareGroupMemberMetadata':
      return {
        type: 'ConsumerGroupMemberMetadata',
        key: record.key,
        value: record.value === null ? null : {
          instanceId: null,
          rackId: record.value.rackId,
          clientId: record.value.clientId,
          clientHost: record.value.clientHost,
          subscribedTopicNames: record.value.subscribedTopicNames,
          subscribedTopicRegex: null,
          rebalanceTimeoutMs: -1,
          serverAssignor: null,
        },
      };
    case 'ShareGroupTargetAssignmentMetadata':
      return { type: 'ConsumerGroupTargetAssignmentMetadata', key: record.key, value: record.value };
    case 'ShareGroupTargetAssignmentMember':
      return { type: 'ConsumerGroupTargetAssignmentMember', key: record.key, value: record.value };
    case 'ShareGroupCurrentMemberAssignment':
      return {
        type: 'ConsumerGroupCurrentMemberAssignment',
        key: record.key,
        value: record.value === null ? null : {
          memberEpoch: record.value.memberEpoch,
          previousMemberEpoch: record.value.previousMemberEpoch,
          state: record.value.state,
          assignedPartitions: record.value.assignedPartitions,
          partitionsPendingRevocation: [],
        },
      };
    case 'ShareGroupStatePartitionMetadata':
      return null;
  }
}
