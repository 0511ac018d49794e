/**
 * A streams group as the coordinator's managers see it (the `Group` side of Kafka 4.4's StreamsGroup): the
 * membership lives in the StreamsGroupHeartbeatHandler's group, read live by id; the committed offsets here.
 * OffsetCommit is checked by member epoch, and an older epoch task by task against the epoch each task was
 * assigned in (CommitPartitionValidator).
 */
import type { KafkaErrorCode } from '../../common/errors';
import type { Group, OffsetExpirationCondition } from '../group/group';
import { ModernGroupView } from '../group/modernGroupView';
import type { StreamsGroup } from './streamsGroup';
import type { StreamsGroupMember } from './streamsGroupMember';

/** StreamsGroup.PROTOCOL_TYPE: what ListGroups prints as a streams group's protocol type. */
export const STREAMS_GROUP_PROTOCOL_TYPE = 'streams';

export class CoordinatorStreamsGroup extends ModernGroupView<StreamsGroup> implements Group {
  readonly type = 'streams';
  readonly protocolType = STREAMS_GROUP_PROTOCOL_TYPE;

  isEmpty(): boolean {
    return this.state === 'Empty' || this.state === 'Dead';
  }

  /**
   * StreamsGroup.validateOffsetCommit: an admin commit only to an empty group, a transactional one without
   * a member as it is; a member commits with its epoch, or an older one for tasks it had since then.
   */
  validateOffsetCommit(
    memberId: string, groupInstanceId: string | null, memberEpoch: number, isTransactional: boolean,
    partitions: ReadonlyArray<{ topic: string; partition: number }> = [],
  ): KafkaErrorCode {
    const group = this.current();
    if (memberEpoch < 0 && (group?.members.size ?? 0) === 0) {
      return 'NONE';
    }
    if (isTransactional && memberEpoch === -1 && memberId === '' && groupInstanceId === null) {
      return 'NONE';
    }
    const member = group?.member(memberId);
    if (group === undefined || member === undefined) {
      return 'UNKNOWN_MEMBER_ID';
    }
    if (memberEpoch === member.memberEpoch) {
      return 'NONE';
    }
    if (memberEpoch > member.memberEpoch) {
      return 'STALE_MEMBER_EPOCH';
    }
    return partitions.every(({ topic, partition }) => this.assignedSince(group, member, topic, partition, memberEpoch)) ? 'NONE' : 'STALE_MEMBER_EPOCH';
  }

  /** createAssignmentEpochValidator: the task of this input partition was assigned (or is being revoked) at or before the epoch. */
  private assignedSince(group: StreamsGroup, member: StreamsGroupMember, topic: string, partition: number, memberEpoch: number): boolean {
    const subtopology = group.topology?.sourceTopicMap.get(topic);
    if (subtopology === undefined) {
      return false;
    }
    const id = subtopology.subtopologyId;
    const epoch = member.assignedTasks.activeTasksWithEpochs.get(id)?.get(partition) ?? member.tasksPendingRevocation.activeTasksWithEpochs.get(id)?.get(partition);
    return epoch !== undefined && memberEpoch >= epoch;
  }

  validateOffsetDelete(): KafkaErrorCode {
    return this.state === 'Dead' ? 'GROUP_ID_NOT_FOUND' : 'NONE';
  }

  /** StreamsGroup.validateDeleteGroup */
  validateDeleteGroup(): KafkaErrorCode {
    return this.state === 'Empty' ? 'NONE' : 'NON_EMPTY_GROUP';
  }

  /** StreamsGroup.isSubscribedToTopic: a source topic of the topology, while the group has members. */
  isSubscribedToTopic(topic: string): boolean {
    const group = this.current();
    return group !== undefined && group.state !== 'Empty' && group.state !== 'Dead' && (group.topology?.sourceTopicMap.has(topic) ?? false);
  }

  /** StreamsGroup.offsetExpirationCondition: every offset, by commit time. */
  offsetExpirationCondition(): OffsetExpirationCondition {
    return { appliesTo: () => true, baseTimestamp: (offset) => offset.commitTimestamp };
  }
}
