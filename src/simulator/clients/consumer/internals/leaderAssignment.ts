/** The group leader's assignment (ConsumerCoordinator.onLeaderElected): the selected assignor over the members' subscriptions. */
import type { TopicPartition } from '../../../../model/types';
import { assign, type AssignInput } from '../../../assignors/index';
import type { SimCluster } from '../../../log/cluster';
import type { AssignorName } from '../../../common/control';
import type { JoinGroupResponse } from '../../../common/requests';

export type MemberAssignments = Array<{ memberId: string; assignment: { partitions: TopicPartition[] } }>;

export function runAssignor(cluster: SimCluster, response: JoinGroupResponse): MemberAssignments {
  const protocol = response.protocolName as AssignorName;
  const partitionsPerTopic: Record<string, number> = {};
  for (const member of response.members) {
    for (const topic of member.metadata.topics) {
      const count = cluster.partitionCount(topic);
      if (count > 0) {
        partitionsPerTopic[topic] = count;
      }
    }
  }
  const input: AssignInput = {
    partitionsPerTopic,
    members: response.members.map((m) => ({
      memberId: m.memberId,
      ...(m.groupInstanceId !== null ? { groupInstanceId: m.groupInstanceId } : {}),
      topics: m.metadata.topics.filter((t) => partitionsPerTopic[t] !== undefined),
      owned: m.metadata.ownedPartitions,
      generation: m.metadata.generationId,
    })),
  };
  const result = assign(protocol, input);
  return response.members.map((m) => ({ memberId: m.memberId, assignment: { partitions: result[m.memberId] ?? [] } }));
}
