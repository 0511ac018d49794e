/**
 * KIP-1071 streams groups: StreamsGroupDescribe (API 89, v0–v1) on the group's coordinator, turned
 * into the model: state, epochs, the topology's subtopologies with their source, repartition and
 * changelog topics, and each member (one stream thread) with its process id, client tags and
 * active/standby/warm-up tasks. For the tree, a member's active tasks become the partitions of its
 * subtopologies' source topics, the partitions its consumer reads. Committed offsets and lag are the
 * classic ones (OffsetFetch against the high watermark), as `kafka-streams-groups.sh --offsets` has them.
 * Deleting a group's internal topics (DeleteTopics) is here too: only streams groups have topics of their own.
 */
import type { TopicResult } from '../model/groupAdmin';
import { streamsGroupInfo, streamsGroupTreeMembers } from '../model/streamsGroupInfo';
import { DeleteTopicsRequest, defaultDeleteTopicState } from '../protocol/messages/deleteTopicsRequest';
import { DeleteTopicsResponse } from '../protocol/messages/deleteTopicsResponse';
import { StreamsGroupDescribeRequest } from '../protocol/messages/streamsGroupDescribeRequest';
import { StreamsGroupDescribeResponse, type DescribedGroup } from '../protocol/messages/streamsGroupDescribeResponse';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { groupErrorText, notOfThisType, groupStateOf, type TypedGroupDescription } from './groupTypes';
import { requireNegotiatedVersion, sendGenerated, type GeneratedApi } from './groupTypesWire';
import type { ClusterConnection } from './clusterConnection';
import type { KafkajsBroker } from './kafkajsBridge';

export const STREAMS_GROUP_DESCRIBE: GeneratedApi<
  ReturnType<typeof StreamsGroupDescribeRequest.defaults>,
  ReturnType<typeof StreamsGroupDescribeResponse.defaults>
> = { request: StreamsGroupDescribeRequest, response: StreamsGroupDescribeResponse };

export const DELETE_TOPICS: GeneratedApi<ReturnType<typeof DeleteTopicsRequest.defaults>, ReturnType<typeof DeleteTopicsResponse.defaults>> = {
  request: DeleteTopicsRequest,
  response: DeleteTopicsResponse,
};

/** How long the controller may take to delete the topics (Admin's default.api.timeout.ms would be 60 s). */
const DELETE_TOPICS_TIMEOUT_MS = 30000;

/** One described group in the load pipeline's terms. */
export function typedStreamsGroup(group: DescribedGroup): TypedGroupDescription {
  if (group.errorCode !== 0) {
    const failed: TypedGroupDescription = { groupId: group.groupId, groupType: 'streams', state: 'Unknown', assignor: '', members: [], error: groupErrorText(group.errorCode, group.errorMessage) };
    return notOfThisType(group.errorCode) ? { ...failed, notThisType: true } : failed;
  }
  const info = streamsGroupInfo(group);
  return {
    groupId: group.groupId,
    groupType: 'streams',
    state: groupStateOf('streams', group.groupState),
    assignor: info.assignorName ?? '',
    groupEpoch: group.groupEpoch,
    members: streamsGroupTreeMembers(info),
    streamsGroup: info,
  };
}

/** StreamsGroupDescribe of the groups on their coordinator. Throws when the request fails as a whole. */
export async function describeStreamsGroups(broker: KafkajsBroker, groupIds: readonly string[]): Promise<TypedGroupDescription[]> {
  if (groupIds.length === 0) {
    return [];
  }
  const version = requireNegotiatedVersion(broker, STREAMS_GROUP_DESCRIBE);
  const describe = () => sendGenerated(broker, STREAMS_GROUP_DESCRIBE, version, { groupIds: [...groupIds], includeAuthorizedOperations: false });
  const response = await retryWhileCoordinatorLoads(describe, (r) => hasLoadingCode(r.groups));
  return response.groups.map(typedStreamsGroup);
}

/**
 * DeleteTopics of a streams group's internal topics, as Admin.deleteTopics sends it for
 * `kafka-streams-groups.sh --delete --delete-all-internal-topics`: by name, to any broker (a KRaft broker
 * forwards it to the controller), once (a failure is reported, not retried). One result per topic asked for.
 */
export async function deleteInternalTopics(connection: ClusterConnection, topics: readonly string[]): Promise<TopicResult[]> {
  if (topics.length === 0) {
    return [];
  }
  let response: ReturnType<typeof DeleteTopicsResponse.defaults>;
  try {
    response = await connection.guard(async () => {
      const broker = await connection.anyBroker();
      const version = requireNegotiatedVersion(broker, DELETE_TOPICS);
      // v6 names topics in `topics` (name or id), earlier versions in `topicNames`.
      const named = version >= 6 ? { topics: topics.map((name) => ({ ...defaultDeleteTopicState(), name })) } : { topicNames: [...topics] };
      return sendGenerated(broker, DELETE_TOPICS, version, { ...named, timeoutMs: DELETE_TOPICS_TIMEOUT_MS });
    });
  } catch (e) {
    const error = connection.errorText(e);
    return topics.map((topic) => ({ topic, error }));
  }
  return topics.map((topic) => {
    const answer = response.responses.find((r) => r.name === topic);
    if (!answer) {
      return { topic, error: 'The controller did not answer for this topic' };
    }
    return answer.errorCode === 0 ? { topic } : { topic, error: groupErrorText(answer.errorCode, answer.errorMessage) };
  });
}
