/**
 * A KIP-848 consumer group as the coordinator's managers see it (the `Group` side of Kafka 4.4's
 * modern.consumer.ConsumerGroup): the membership lives in the ConsumerGroupHeartbeatHandler's group,
 * read live by id, and the committed offsets here, so the offset manager and the shard's housekeeping
 * treat it like a classic group (validateOffsetCommit by member epoch, NON_EMPTY_GROUP on delete).
 */
import type { ConsumerGroup } from '.';
import type { KafkaErrorCode } from '../../../../common/errors';
import type { Group, OffsetExpirationCondition } from '../../group';
import { ModernGroupView } from '../../modernGroupView';

/** ConsumerProtocol.PROTOCOL_TYPE: what ListGroups prints as a consumer group's protocol type. */
export const CONSUMER_GROUP_PROTOCOL_TYPE = 'consumer';

export class CoordinatorConsumerGroup extends ModernGroupView<ConsumerGroup> implements Group {
  readonly type = 'consumer';
  readonly protocolType = CONSUMER_GROUP_PROTOCOL_TYPE;

  isEmpty(): boolean {
    return (this.current()?.members.size ?? 0) === 0;
  }

  /**
   * ConsumerGroup.validateOffsetCommit: an admin commit (epoch < 0) only to an empty group; otherwise the
   * member must exist and commit with its current member epoch (a classic member's generation).
   */
  validateOffsetCommit(memberId: string, _groupInstanceId: string | null, memberEpoch: number, _isTransactional: boolean): KafkaErrorCode {
    const group = this.current();
    if (memberEpoch < 0 && this.isEmpty()) {
      return 'NONE';
    }
    const member = group?.member(memberId);
    if (member === undefined) {
      return 'UNKNOWN_MEMBER_ID';
    }
    if (memberEpoch === member.memberEpoch) {
      return 'NONE';
    }
    // validateMemberEpoch: a member of the classic protocol commits with its generation, and hears so.
    return member.classicMemberMetadata === null ? 'STALE_MEMBER_EPOCH' : 'ILLEGAL_GENERATION';
  }

  /** ConsumerGroup.validateOffsetDelete: allowed in any state; subscribed topics are refused per topic. */
  validateOffsetDelete(): KafkaErrorCode {
    return this.state === 'Dead' ? 'GROUP_ID_NOT_FOUND' : 'NONE';
  }

  /** ConsumerGroup.validateDeleteGroup */
  validateDeleteGroup(): KafkaErrorCode {
    return this.state === 'Empty' ? 'NONE' : 'NON_EMPTY_GROUP';
  }

  /** ConsumerGroup.isSubscribedToTopic: some member subscribes to it, by name or through a resolved regex. */
  isSubscribedToTopic(topic: string): boolean {
    return this.current()?.subscribedTopicNames().has(topic) ?? false;
  }

  /** ModernGroup.offsetExpirationCondition: by commit time, for the topics no member subscribes to. */
  offsetExpirationCondition(): OffsetExpirationCondition {
    return { appliesTo: (topic) => !this.isSubscribedToTopic(topic), baseTimestamp: (offset) => offset.commitTimestamp };
  }
}
