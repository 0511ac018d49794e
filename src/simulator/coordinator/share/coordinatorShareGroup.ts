/**
 * A share group as the coordinator's managers see it (the `Group` side of Kafka 4.4's ShareGroup): the membership
 * lives in the ShareGroupHeartbeatHandler's group, read live by id. A share group keeps no committed offsets in
 * `__consumer_offsets` (its progress is the share state in `__share_group_state`), so OffsetCommit and
 * OffsetDelete answer GROUP_ID_NOT_FOUND ("Group X is not a consumer group.") and no offset expires.
 */
import type { KafkaErrorCode } from '../../common/errors';
import type { Group, OffsetExpirationCondition } from '../group/group';
import { ModernGroupView } from '../group/modernGroupView';
import type { ShareGroup } from './shareGroup';

/** ShareGroup.PROTOCOL_TYPE: what ListGroups prints as a share group's protocol type. */
export const SHARE_GROUP_PROTOCOL_TYPE = 'share';

export class CoordinatorShareGroup extends ModernGroupView<ShareGroup> implements Group {
  readonly type = 'share';
  readonly protocolType = SHARE_GROUP_PROTOCOL_TYPE;

  isEmpty(): boolean {
    return this.state === 'Empty' || this.state === 'Dead';
  }

  /** ShareGroup.validateOffsetCommit */
  validateOffsetCommit(): KafkaErrorCode {
    return 'GROUP_ID_NOT_FOUND';
  }

  /** ShareGroup.validateOffsetDelete */
  validateOffsetDelete(): KafkaErrorCode {
    return 'GROUP_ID_NOT_FOUND';
  }

  /** ShareGroup.validateDeleteGroup: validateEmptyGroup. */
  validateDeleteGroup(): KafkaErrorCode {
    return this.state === 'Empty' ? 'NONE' : 'NON_EMPTY_GROUP';
  }

  /** ModernGroup.isSubscribedToTopic */
  isSubscribedToTopic(topic: string): boolean {
    return this.current()?.subscribedTopicNames().has(topic) ?? false;
  }

  /** ShareGroup.offsetExpirationCondition is unsupported: nothing of a share group expires here. */
  offsetExpirationCondition(): OffsetExpirationCondition | null {
    return null;
  }
}
