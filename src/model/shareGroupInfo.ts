/**
 * A described share group (ShareGroupDescribe, KIP-932) in the model's terms, for both sources: a real cluster's
 * answer and the simulator's. The share partitions (start offsets, lag) and the group's configs come from their
 * own requests; until they are read the info has none.
 */
import type { DescribedGroup } from '../protocol/messages/shareGroupDescribeResponse';
import { flattenAssignment } from './consumerGroupInfo';
import type { Member, ShareGroupConfigs, ShareGroupInfo } from './types';

/** The tree's members of a share group: no instance ids; each with its epoch and rack. */
export function shareGroupTreeMembers(group: DescribedGroup): Member[] {
  return group.members.map((m): Member => ({
    memberId: m.memberId,
    groupInstanceId: null,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscription: [...m.subscribedTopicNames].sort(),
    assignment: flattenAssignment(m.assignment.topicPartitions),
    memberEpoch: m.memberEpoch,
    rackId: m.rackId,
  }));
}

/** No configs read (yet), or why they could not be. */
export function emptyShareGroupConfigs(error: string | null): ShareGroupConfigs {
  const configs: ShareGroupConfigs = { autoOffsetReset: null, recordLockDurationMs: null, deliveryCountLimit: null, deadLetterTopic: null, all: null };
  if (error !== null) {
    configs.configsError = error;
  }
  return configs;
}

/** The group's epochs and assignor, before its share partitions and configs are read. */
export function shareGroupInfo(group: DescribedGroup): ShareGroupInfo {
  return { groupEpoch: group.groupEpoch, assignmentEpoch: group.assignmentEpoch, assignorName: group.assignorName, partitions: [], configs: emptyShareGroupConfigs(null) };
}

/** The named share configs out of a group's config entries (names to values). */
export function shareConfigs(all: Record<string, string | null>): ShareGroupConfigs {
  const numberOf = (name: string): number | null => {
    const text = all[name];
    return text === undefined || text === null || text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text);
  };
  return {
    autoOffsetReset: all['share.auto.offset.reset'] ?? null,
    recordLockDurationMs: numberOf('share.record.lock.duration.ms'),
    deliveryCountLimit: numberOf('share.delivery.count.limit'),
    deadLetterTopic: all['errors.deadletterqueue.topic.name'] || null,
    all,
  };
}
