/**
 * A share group's state (Kafka 4.4's modern.share.ShareGroup with the share-state partition metadata its
 * GroupMetadataManager keeps beside it), changed only by replaying the records of `__consumer_offsets` (10–15),
 * as Kafka's coordinator rebuilds its groups. Its state is Empty without members and Stable with any: a share
 * group never waits for a member to revoke a partition. What Kafka keeps in memory only (the metadata refresh
 * deadline) lives beside it.
 */
import type { ShareGroupRecord } from '../../../timeline/shareGroupRecords';
import type { TopicPartitionSets } from '../group/modern/consumer/types';
import { newShareGroupMember, withShareCurrentAssignment, withShareMemberMetadata, type ShareGroupMember } from './shareGroupMember';
import { statePartitionMetadataOf, type ShareGroupStatePartitionMetadataInfo } from './shareStatePartitions';

/** ShareGroup.ShareGroupState, as describe and ListGroups print it. */
export type ShareGroupState = 'Empty' | 'Stable' | 'Dead';

export class ShareGroup {
  state: ShareGroupState = 'Empty';
  /** A new group starts at epoch 0 and its target assignment at 1 (TargetAssignmentMetadata.INITIAL): the first join assigns nothing. */
  groupEpoch = 0;
  metadataHash = 0n;
  assignmentEpoch = 1;
  assignmentTimestamp = 0;
  readonly members = new Map<string, ShareGroupMember>();
  readonly targetAssignment = new Map<string, TopicPartitionSets>();
  /** GroupMetadataManager.shareGroupStatePartitionMetadata for this group; undefined before any record 15. */
  statePartitionMetadata: ShareGroupStatePartitionMetadataInfo | undefined;
  /** In memory only: when the topics' metadata is read again (DeadlineAndEpoch). */
  metadataRefreshDeadline = { deadlineMs: 0, epoch: 0 };

  constructor(readonly groupId: string) {}

  /** GroupMetadataManager.replay of one share record; `now` stamps the share-state partition metadata as Kafka's replay does. */
  replay(record: ShareGroupRecord, now: number): void {
    switch (record.type) {
      case 'ShareGroupMetadata':
        if (record.value === null) {
          this.state = 'Dead';
          return;
        }
        this.groupEpoch = record.value.epoch;
        this.metadataHash = record.value.metadataHash;
        break;
      case 'ShareGroupMemberMetadata':
        if (record.value === null) {
          this.members.delete(record.key.memberId);
        } else {
          this.members.set(record.key.memberId, withShareMemberMetadata(this.members.get(record.key.memberId) ?? newShareGroupMember(record.key.memberId), record.value));
        }
        break;
      case 'ShareGroupTargetAssignmentMetadata':
        this.assignmentEpoch = record.value === null ? -1 : record.value.assignmentEpoch;
        this.assignmentTimestamp = record.value === null ? 0 : Number(record.value.assignmentTimestamp ?? 0n);
        break;
      case 'ShareGroupTargetAssignmentMember':
        if (record.value === null) {
          this.targetAssignment.delete(record.key.memberId);
        } else {
          this.targetAssignment.set(record.key.memberId, new Map(record.value.topicPartitions.map(({ topicId, partitions }) => [topicId, new Set(partitions)])));
        }
        break;
      case 'ShareGroupCurrentMemberAssignment': {
        const member = this.members.get(record.key.memberId);
        if (record.value !== null) {
          this.members.set(record.key.memberId, withShareCurrentAssignment(member ?? newShareGroupMember(record.key.memberId), record.value));
        } else if (member !== undefined) {
          this.members.set(member.memberId, { ...member, memberEpoch: -1, previousMemberEpoch: -1, assignedPartitions: new Map() });
        }
        break;
      }
      case 'ShareGroupStatePartitionMetadata':
        this.statePartitionMetadata = record.value === null ? undefined : statePartitionMetadataOf(record.value, now);
        break;
    }
    this.maybeUpdateGroupState();
  }

  member(memberId: string): ShareGroupMember | undefined {
    return this.members.get(memberId);
  }

  targetAssignmentOf(memberId: string): TopicPartitionSets {
    return this.targetAssignment.get(memberId) ?? new Map();
  }

  /** ModernGroup.subscribedTopicNames: each subscribed topic name with how many members subscribe to it. */
  subscribedTopicNames(): Map<string, number> {
    return this.computeSubscribedTopicNames(undefined, undefined);
  }

  /** ModernGroup.computeSubscribedTopicNames(oldMember, newMember): the counts with one member swapped (or removed). */
  computeSubscribedTopicNames(oldMember: ShareGroupMember | undefined, newMember: ShareGroupMember | undefined): Map<string, number> {
    const counts = new Map<string, number>();
    for (const member of this.members.values()) {
      if (member.memberId === oldMember?.memberId || member.memberId === newMember?.memberId) {
        continue;
      }
      member.subscribedTopicNames.forEach((name) => counts.set(name, (counts.get(name) ?? 0) + 1));
    }
    newMember?.subscribedTopicNames.forEach((name) => counts.set(name, (counts.get(name) ?? 0) + 1));
    return counts;
  }

  /** hasMetadataExpired */
  hasMetadataExpired(now: number): boolean {
    return now >= this.metadataRefreshDeadline.deadlineMs || this.groupEpoch < this.metadataRefreshDeadline.epoch;
  }

  /** ShareGroup.maybeUpdateGroupState: Empty without members, else Stable. */
  private maybeUpdateGroupState(): void {
    if (this.state !== 'Dead') {
      this.state = this.members.size === 0 ? 'Empty' : 'Stable';
    }
  }
}
