/**
 * StreamsGroupDescribe for the engine's streams groups (StreamsGroup.asDescribedGroup of Kafka 4.4): the
 * group's epochs and state, the configured topology (or the one members sent, before it is configured),
 * and each member with its current and target tasks.
 */
import { errorCodeOf } from '../../../protocol/errorCodes';
import type { DescribedGroup } from '../../../protocol/messages/streamsGroupDescribeResponse';
import { AUTHORIZED_OPERATIONS_OMITTED } from '../group/modern/consumer/consumerGroupDescribe';
import { STICKY_ASSIGNOR_NAME } from './assignor';
import type { StreamsGroup } from './streamsGroup';
import { describeStreamsMember } from './streamsGroupMember';
import { describedConfiguredSubtopologies, isTopologyReady } from './topics/configuredTopology';

/** The answer for a group that is not a streams group, or none at all. */
export function streamsGroupNotFound(groupId: string, message: string): DescribedGroup {
  return {
    errorCode: errorCodeOf('GROUP_ID_NOT_FOUND'), errorMessage: message, groupId, groupState: '', groupEpoch: 0, assignmentEpoch: 0,
    topology: null, members: [], authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

export function describeStreamsGroup(group: StreamsGroup): DescribedGroup {
  const configured = group.configuredTopology;
  let topology: DescribedGroup['topology'];
  if (configured !== undefined && isTopologyReady(configured) && configured.subtopologies !== undefined) {
    topology = { epoch: configured.topologyEpoch, subtopologies: describedConfiguredSubtopologies(configured.subtopologies) };
  } else if (group.topology !== undefined) {
    topology = { epoch: group.topology.topologyEpoch, subtopologies: group.topology.describedSubtopologies() };
  } else {
    return streamsGroupNotFound(group.groupId, `Group ${group.groupId} has no topology.`);
  }
  return {
    errorCode: 0,
    errorMessage: null,
    groupId: group.groupId,
    groupState: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    topology,
    members: [...group.members.values()].map((m) => describeStreamsMember(m, group.targetAssignment.get(m.memberId), group.memberTaskOffsets(m.memberId))),
    authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
    assignorName: STICKY_ASSIGNOR_NAME,
  };
}
