/**
 * What the coordinator's managers know of any group, whatever its protocol (Kafka's
 * org.apache.kafka.coordinator.group.Group): the classic group today, KIP-848's consumer group next.
 * The offset manager and the shard's housekeeping work through this interface only.
 */
import type { GroupState } from '../../../model/types';
import type { KafkaErrorCode } from '../../common/errors';
import type { GroupType } from '../../common/requests';

export type { GroupType } from '../../common/requests';

export interface CommittedOffset {
  offset: number;
  leaderEpoch: number;
  metadata: string;
  commitTimestamp: number;
  /** Position of the commit record in `__consumer_offsets`: a transactional commit loses to a later plain one. */
  recordOffset?: number;
}

/** Which committed offsets may expire, and from when their retention counts (Kafka's OffsetExpirationCondition). */
export interface OffsetExpirationCondition {
  /** Whether the offsets of this topic are considered at all. */
  appliesTo(topic: string): boolean;
  /** The time the retention of this offset counts from. */
  baseTimestamp(offset: CommittedOffset): number;
}

/** What the timeline records of a member. */
export interface GroupMemberIdentity {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
}

export interface Group {
  readonly type: GroupType;
  readonly groupId: string;
  readonly state: GroupState;
  /** The classic generation (a consumer group's group epoch). */
  readonly generationId: number;
  readonly members: ReadonlyMap<string, GroupMemberIdentity>;
  /** null for a "simple" group that only stores offsets. */
  readonly protocolType: string | null;
  /** topic → partition → committed offset. */
  readonly offsets: Map<string, Map<number, CommittedOffset>>;
  /** Group.isEmpty: no members; the group may be deleted once its offsets are gone. */
  isEmpty(): boolean;
  /**
   * Group.validateOffsetCommit, answered as an error code; `partitions` are the ones the commit names, for
   * the groups whose CommitPartitionValidator checks each (a streams member's older epoch).
   */
  validateOffsetCommit(
    memberId: string, groupInstanceId: string | null, generationIdOrMemberEpoch: number, isTransactional: boolean,
    partitions?: ReadonlyArray<{ topic: string; partition: number }>,
  ): KafkaErrorCode;
  /** Group.validateOffsetDelete. */
  validateOffsetDelete(): KafkaErrorCode;
  /** Group.validateDeleteGroup. */
  validateDeleteGroup(): KafkaErrorCode;
  /** Whether OffsetDelete must refuse the topic (Group.isSubscribedToTopic). */
  isSubscribedToTopic(topic: string): boolean;
  /** Group.offsetExpirationCondition: null when no offset of the group expires now. */
  offsetExpirationCondition(): OffsetExpirationCondition | null;
  committed(topic: string, partition: number): CommittedOffset | undefined;
  commit(topic: string, partition: number, value: CommittedOffset): void;
  deleteOffset(topic: string, partition: number): boolean;
  hasOffsets(): boolean;
}
