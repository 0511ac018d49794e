/**
 * The share-offset APIs at Kafka 4.4's versions, on each group's coordinator: DescribeShareGroupOffsets (90, v0–v1,
 * v1 with the share lag of Kafka 4.2+) from the share coordinator's state (admin/shareGroupOffsets.ts);
 * AlterShareGroupOffsets (91) and DeleteShareGroupOffsets (92) through the engine, so `kafka-share-groups.sh
 * --describe`, `--reset-offsets` and `--delete-offsets` work against the simulator as against a broker.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import { ApiKeys } from '../../protocol/messages/apis';
import { DescribeShareGroupOffsetsRequest, type DescribeShareGroupOffsetsRequestData } from '../../protocol/messages/describeShareGroupOffsetsRequest';
import { DescribeShareGroupOffsetsResponse, type DescribeShareGroupOffsetsResponseData } from '../../protocol/messages/describeShareGroupOffsetsResponse';
import { AlterShareGroupOffsetsRequest, type AlterShareGroupOffsetsRequestData } from '../../protocol/messages/alterShareGroupOffsetsRequest';
import { AlterShareGroupOffsetsResponse, type AlterShareGroupOffsetsResponseData } from '../../protocol/messages/alterShareGroupOffsetsResponse';
import { DeleteShareGroupOffsetsRequest, type DeleteShareGroupOffsetsRequestData } from '../../protocol/messages/deleteShareGroupOffsetsRequest';
import { DeleteShareGroupOffsetsResponse, type DeleteShareGroupOffsetsResponseData } from '../../protocol/messages/deleteShareGroupOffsetsResponse';
import { kafkaError } from '../../protocol/errorCodes';
import { KafkaApiError } from '../common/errors';
import type { Respond } from '../common/requests';
import type { AlterShareOffsetsTopicResult, DeleteShareOffsetsTopicResult } from '../coordinator/share/shareGroupOffsetRecords';
import { describeShareGroupOffsets } from '../admin/shareGroupOffsets';
import { ask, defineApi, type ApiDefinition, type RequestContext } from './context';
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

/** A group-level refusal of Alter or Delete: the request's checks, NOT_COORDINATOR, or the engine's error. */
function groupError(ctx: RequestContext, groupId: string): KafkaApiError | null {
  if (groupId === '') {
    return new KafkaApiError('INVALID_GROUP_ID', kafkaError(errorCodeOf('INVALID_GROUP_ID'))?.message ?? '');
  }
  return coordinatorError(ctx, groupId) !== 'NONE' ? new KafkaApiError('NOT_COORDINATOR', notCoordinatorMessage(groupId)) : null;
}

const messageOf = (name: string): string | null => (name === 'NONE' ? null : kafkaError(errorCodeOf(name))?.message ?? null);

async function alterOffsets(request: AlterShareGroupOffsetsRequestData, ctx: RequestContext): Promise<AlterShareGroupOffsetsResponseData> {
  const refused = (error: KafkaApiError): AlterShareGroupOffsetsResponseData => ({ throttleTimeMs: 0, errorCode: error.errorCode, errorMessage: error.message, responses: [] });
  const early = groupError(ctx, request.groupId);
  if (early !== null) {
    return refused(early);
  }
  const badOffset = request.topics.flatMap((t) => t.partitions).find((p) => p.startOffset < -1n || p.startOffset > BigInt(Number.MAX_SAFE_INTEGER));
  if (badOffset !== undefined) {
    return refused(new KafkaApiError('INVALID_REQUEST', `The start offset ${badOffset.startOffset} of partition ${badOffset.partitionIndex} is out of range.`));
  }
  const topics = request.topics.map((t) => ({ topicName: t.topicName, partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, startOffset: Number(p.startOffset) })) }));
  const coordinator = ctx.server.simulation.coordinator;
  const result = await ask((q: typeof topics, a: Respond<AlterShareOffsetsTopicResult[] | KafkaApiError>) => coordinator.alterShareGroupOffsets(request.groupId, q, a), topics);
  if (result instanceof KafkaApiError) {
    return refused(result);
  }
  return {
    throttleTimeMs: 0, errorCode: 0, errorMessage: null,
    responses: result.map((topic) => ({
      topicName: topic.topicName, topicId: topic.topicId ?? 'AAAAAAAAAAAAAAAAAAAAAA',
      partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: errorCodeOf(p.error), errorMessage: messageOf(p.error) })),
    })),
  };
}

async function deleteOffsets(request: DeleteShareGroupOffsetsRequestData, ctx: RequestContext): Promise<DeleteShareGroupOffsetsResponseData> {
  const refused = (error: KafkaApiError): DeleteShareGroupOffsetsResponseData => ({ throttleTimeMs: 0, errorCode: error.errorCode, errorMessage: error.message, responses: [] });
  const early = groupError(ctx, request.groupId);
  if (early !== null) {
    return refused(early);
  }
  const coordinator = ctx.server.simulation.coordinator;
  const names = request.topics.map((t) => t.topicName);
  const result = await ask((q: string[], a: Respond<DeleteShareOffsetsTopicResult[] | KafkaApiError>) => coordinator.deleteShareGroupOffsets(request.groupId, q, a), names);
  if (result instanceof KafkaApiError) {
    return refused(result);
  }
  return {
    throttleTimeMs: 0, errorCode: 0, errorMessage: null,
    responses: result.map((topic) => ({ topicName: topic.topicName, topicId: topic.topicId ?? 'AAAAAAAAAAAAAAAAAAAAAA', errorCode: errorCodeOf(topic.error), errorMessage: topic.errorMessage })),
  };
}

export const SHARE_OFFSETS_APIS: readonly ApiDefinition[] = [
  defineApi({
    key: ApiKeys.DescribeShareGroupOffsets, name: 'DescribeShareGroupOffsets', minVersion: 0, maxVersion: 1,
    request: DescribeShareGroupOffsetsRequest, response: DescribeShareGroupOffsetsResponse, handle: describeOffsets,
  }),
  defineApi({
    key: ApiKeys.AlterShareGroupOffsets, name: 'AlterShareGroupOffsets', minVersion: 0, maxVersion: 0,
    request: AlterShareGroupOffsetsRequest, response: AlterShareGroupOffsetsResponse, handle: alterOffsets,
  }),
  defineApi({
    key: ApiKeys.DeleteShareGroupOffsets, name: 'DeleteShareGroupOffsets', minVersion: 0, maxVersion: 0,
    request: DeleteShareGroupOffsetsRequest, response: DeleteShareGroupOffsetsResponse, handle: deleteOffsets,
  }),
];
