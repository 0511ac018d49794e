/**
 * DescribeShareGroupOffsets (90) at Kafka 4.4's versions (v0–v1, v1 with the share lag of Kafka 4.2+): each
 * group on its coordinator, its share partitions' start offsets from the share coordinator's state
 * (admin/shareGroupOffsets.ts), so `kafka-share-groups.sh --describe --offsets` reads the simulator as a broker.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { DescribeShareGroupOffsetsRequest, type DescribeShareGroupOffsetsRequestData } from '../../protocol/messages/describeShareGroupOffsetsRequest';
import { DescribeShareGroupOffsetsResponse, type DescribeShareGroupOffsetsResponseData } from '../../protocol/messages/describeShareGroupOffsetsResponse';
import { describeShareGroupOffsets } from '../admin/shareGroupOffsets';
import { defineApi, type ApiDefinition, type RequestContext } from './context';
import { coordinatorError, notCoordinatorMessage } from './groupApis';

function describeOffsets(request: DescribeShareGroupOffsetsRequestData, ctx: RequestContext): DescribeShareGroupOffsetsResponseData {
  const simulation = ctx.server.simulation;
  return {
    throttleTimeMs: 0,
    groups: request.groups.map((group) => {
      if (coordinatorError(ctx, group.groupId) !== 'NONE') {
        return { groupId: group.groupId, topics: [], errorCode: errorCodeOf('NOT_COORDINATOR'), errorMessage: notCoordinatorMessage(group.groupId) };
      }
      const topics = describeShareGroupOffsets(simulation, group.groupId, group.topics);
      return {
        groupId: group.groupId, errorCode: 0, errorMessage: null,
        topics: topics.map((topic) => ({
          topicName: topic.topicName,
          topicId: topic.topicId,
          partitions: topic.partitions.map((p) => ({
            partitionIndex: p.partitionIndex, startOffset: BigInt(p.startOffset), leaderEpoch: p.leaderEpoch, errorCode: 0, errorMessage: null,
            ...(ctx.apiVersion >= 1 ? { lag: BigInt(p.lag) } : {}),
          })),
        })),
      };
    }),
  };
}

export const SHARE_OFFSETS_APIS: readonly ApiDefinition[] = [
  defineApi({
    key: ApiKeys.DescribeShareGroupOffsets, name: 'DescribeShareGroupOffsets', minVersion: 0, maxVersion: 1,
    request: DescribeShareGroupOffsetsRequest, response: DescribeShareGroupOffsetsResponse, handle: describeOffsets,
  }),
];
