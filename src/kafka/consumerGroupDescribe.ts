/**
 * KIP-848 consumer groups: ConsumerGroupDescribe (API 69, v0–v1) on the group's coordinator, and
 * what it says turned into the model: epochs, the server assignor, subscriptions (names and regex),
 * each member's current and target assignment with what it still has to revoke or is waiting for,
 * and the member type (classic or consumer) that shows an online migration from classic (KIP-1099).
 */
import { consumerGroupInfo, consumerGroupTreeMembers } from '../model/consumerGroupInfo';
import { ConsumerGroupDescribeRequest } from '../protocol/messages/consumerGroupDescribeRequest';
import { ConsumerGroupDescribeResponse, type DescribedGroup } from '../protocol/messages/consumerGroupDescribeResponse';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import {
  notOfThisType,
  groupErrorText,
  groupStateOf,
  type TypedGroupDescription,
} from './groupTypes';
import { requireNegotiatedVersion, sendGenerated, type GeneratedApi } from './groupTypesWire';
import type { KafkajsBroker } from './kafkajsBridge';

export const CONSUMER_GROUP_DESCRIBE: GeneratedApi<
  ReturnType<typeof ConsumerGroupDescribeRequest.defaults>,
  ReturnType<typeof ConsumerGroupDescribeResponse.defaults>
> = { request: ConsumerGroupDescribeRequest, response: ConsumerGroupDescribeResponse };

export { consumerGroupInfo, consumerGroupTreeMembers };

/** One described group in the load pipeline's terms. */
export function typedConsumerGroup(group: DescribedGroup): TypedGroupDescription {
  if (notOfThisType(group.errorCode)) {
    return { groupId: group.groupId, groupType: 'consumer', state: 'Unknown', assignor: '', members: [], notThisType: true, error: groupErrorText(group.errorCode, group.errorMessage) };
  }
  if (group.errorCode !== 0) {
    return { groupId: group.groupId, groupType: 'consumer', state: 'Unknown', assignor: '', members: [], error: groupErrorText(group.errorCode, group.errorMessage) };
  }
  const info = consumerGroupInfo(group);
  return {
    groupId: group.groupId,
    groupType: 'consumer',
    state: groupStateOf('consumer', group.groupState),
    assignor: group.assignorName,
    groupEpoch: group.groupEpoch,
    members: consumerGroupTreeMembers(info),
    consumerGroup: info,
  };
}

/**
 * ConsumerGroupDescribe of the groups on their coordinator (one request, repeated while the
 * coordinator loads), at the highest version both sides know. Throws when the request fails as a
 * whole (the caller puts that on each group); a group's own error code lands on that group.
 */
export async function describeConsumerGroups(broker: KafkajsBroker, groupIds: readonly string[]): Promise<TypedGroupDescription[]> {
  if (groupIds.length === 0) {
    return [];
  }
  const version = requireNegotiatedVersion(broker, CONSUMER_GROUP_DESCRIBE);
  const describe = () => sendGenerated(broker, CONSUMER_GROUP_DESCRIBE, version, { groupIds: [...groupIds], includeAuthorizedOperations: false });
  const response = await retryWhileCoordinatorLoads(describe, (r) => hasLoadingCode(r.groups));
  return response.groups.map(typedConsumerGroup);
}
