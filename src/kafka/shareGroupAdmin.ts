/**
 * The share-group side of the admin (kafka-share-groups.sh's writes), on the group's coordinator:
 * ShareGroupDescribe for the state a reset re-checks, DescribeShareGroupOffsets for the start offsets,
 * AlterShareGroupOffsets (API 91) for a reset and DeleteShareGroupOffsets (API 92, whole topics) for an
 * offset deletion. Each is retried while the coordinator loads and never after a failure of its own.
 */
import type { CommittedOffset, PartitionResult, ShareGroupAdmin, ShareOffsetDeletion, ShareStartOffset } from '../model/groupAdmin';
import type { GroupState } from '../model/types';
import { AlterShareGroupOffsetsRequest } from '../protocol/messages/alterShareGroupOffsetsRequest';
import { AlterShareGroupOffsetsResponse } from '../protocol/messages/alterShareGroupOffsetsResponse';
import { DeleteShareGroupOffsetsRequest } from '../protocol/messages/deleteShareGroupOffsetsRequest';
import { DeleteShareGroupOffsetsResponse } from '../protocol/messages/deleteShareGroupOffsetsResponse';
import type { ClusterConnection } from './clusterConnection';
import { groupBy } from './collections';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { GROUP_ID_NOT_FOUND, groupErrorText } from './groupTypes';
import { requireNegotiatedVersion, sendGenerated, type GeneratedApi } from './groupTypesWire';
import type { KafkajsBroker } from './kafkajsBridge';
import { DESCRIBE_SHARE_GROUP_OFFSETS, describeShareGroups, sharePartitions } from './shareGroups';

export const ALTER_SHARE_GROUP_OFFSETS: GeneratedApi<ReturnType<typeof AlterShareGroupOffsetsRequest.defaults>, ReturnType<typeof AlterShareGroupOffsetsResponse.defaults>> = {
  request: AlterShareGroupOffsetsRequest,
  response: AlterShareGroupOffsetsResponse,
};

export const DELETE_SHARE_GROUP_OFFSETS: GeneratedApi<ReturnType<typeof DeleteShareGroupOffsetsRequest.defaults>, ReturnType<typeof DeleteShareGroupOffsetsResponse.defaults>> = {
  request: DeleteShareGroupOffsetsRequest,
  response: DeleteShareGroupOffsetsResponse,
};

function checkOffset({ topic, partition, offset }: CommittedOffset): bigint {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new Error(`Start offset for ${topic}-${partition} must be a non-negative integer, got ${offset}`);
  }
  return BigInt(offset);
}

/** AlterShareGroupOffsets request data: topics in first-seen order, partitions as given. */
export function alterShareGroupOffsetsData(groupId: string, offsets: readonly CommittedOffset[]): ReturnType<typeof AlterShareGroupOffsetsRequest.defaults> {
  const byTopic = groupBy(offsets, (o) => o.topic);
  return {
    groupId,
    topics: [...byTopic].map(([topicName, entries]) => ({
      topicName,
      partitions: entries.map((o) => ({ partitionIndex: o.partition, startOffset: checkOffset(o) })),
    })),
  };
}

/**
 * One result per asked partition: the partition's own error, else the request's (NON_EMPTY_GROUP and the like
 * come as a top-level error with no partitions), else "no answer" for a partition the broker left out.
 */
export function alterResults(asked: readonly CommittedOffset[], answer: ReturnType<typeof AlterShareGroupOffsetsResponse.defaults>): PartitionResult[] {
  const topLevel = answer.errorCode !== 0 ? groupErrorText(answer.errorCode, answer.errorMessage) : undefined;
  const found = new Map<string, string | null>();
  for (const topic of answer.responses) {
    for (const p of topic.partitions) {
      found.set(`${topic.topicName}\u0000${p.partitionIndex}`, p.errorCode === 0 ? null : groupErrorText(p.errorCode, p.errorMessage));
    }
  }
  return asked.map(({ topic, partition }) => {
    const own = found.get(`${topic}\u0000${partition}`);
    const error = own ?? topLevel ?? (own === null ? undefined : 'The broker did not answer for this partition');
    return error === undefined ? { topic, partition } : { topic, partition, error };
  });
}

/** One result per asked topic, as alterResults. */
export function deleteResults(topics: readonly string[], answer: ReturnType<typeof DeleteShareGroupOffsetsResponse.defaults>): ShareOffsetDeletion {
  const found = new Map(answer.responses.map((t) => [t.topicName, t.errorCode === 0 ? null : groupErrorText(t.errorCode, t.errorMessage)]));
  const outcome: ShareOffsetDeletion = {
    topics: topics.map((topic) => {
      const own = found.get(topic);
      const error = own === null ? undefined : (own ?? (answer.errorCode !== 0 ? groupErrorText(answer.errorCode, answer.errorMessage) : 'The broker did not answer for this topic'));
      return error === undefined ? { topic } : { topic, error };
    }),
  };
  if (answer.errorCode !== 0) {
    outcome.error = groupErrorText(answer.errorCode, answer.errorMessage);
  }
  return outcome;
}

export class ShareGroupAdminClient implements ShareGroupAdmin {
  constructor(private readonly connection: ClusterConnection) {}

  private async onCoordinator<T>(groupId: string, send: (broker: KafkajsBroker) => Promise<T>, loading: (answer: T) => boolean): Promise<T> {
    if (!groupId) {
      throw new Error('A share-group operation needs a group id');
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      return retryWhileCoordinatorLoads(async () => send(await this.connection.coordinatorBroker(groupId, topology)), loading);
    });
  }

  async shareGroupState(groupId: string): Promise<GroupState | 'missing'> {
    const [described] = await this.onCoordinator(groupId, (broker) => describeShareGroups(broker, [groupId]), () => false);
    if (!described) {
      throw new Error(`State of share group ${groupId}: the coordinator did not describe it`);
    }
    if (described.notThisType) {
      return 'missing';
    }
    if (described.error !== undefined) {
      throw new Error(`State of share group ${groupId}: ${described.error}`);
    }
    return described.state;
  }

  async shareStartOffsets(groupId: string): Promise<ShareStartOffset[]> {
    const response = await this.onCoordinator(
      groupId,
      (broker) => sendGenerated(broker, DESCRIBE_SHARE_GROUP_OFFSETS, requireNegotiatedVersion(broker, DESCRIBE_SHARE_GROUP_OFFSETS), { groups: [{ groupId, topics: null }] }),
      (r) => hasLoadingCode(r.groups),
    );
    const group = response.groups.find((g) => g.groupId === groupId);
    if (!group) {
      throw new Error(`Share offsets of ${groupId}: the coordinator did not answer for this group`);
    }
    if (group.errorCode === GROUP_ID_NOT_FOUND) {
      return [];
    }
    if (group.errorCode !== 0) {
      throw new Error(`Share offsets of ${groupId}: ${groupErrorText(group.errorCode, group.errorMessage)}`);
    }
    const { partitions, errors } = sharePartitions(group);
    if (errors.length > 0) {
      throw new Error(errors.join('; '));
    }
    return partitions.map(({ topic, partition, startOffset }) => ({ topic, partition, startOffset }));
  }

  async alterShareGroupOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> {
    if (offsets.length === 0) {
      return [];
    }
    const data = alterShareGroupOffsetsData(groupId, offsets);
    const answer = await this.onCoordinator(
      groupId,
      (broker) => sendGenerated(broker, ALTER_SHARE_GROUP_OFFSETS, requireNegotiatedVersion(broker, ALTER_SHARE_GROUP_OFFSETS), data),
      (r) => hasLoadingCode([r]),
    );
    return alterResults(offsets, answer);
  }

  async deleteShareGroupOffsets(groupId: string, topics: readonly string[]): Promise<ShareOffsetDeletion> {
    if (topics.length === 0) {
      throw new Error('deleteShareGroupOffsets needs at least one topic');
    }
    const answer = await this.onCoordinator(
      groupId,
      (broker) =>
        sendGenerated(broker, DELETE_SHARE_GROUP_OFFSETS, requireNegotiatedVersion(broker, DELETE_SHARE_GROUP_OFFSETS), { groupId, topics: topics.map((topicName) => ({ topicName })) }),
      (r) => hasLoadingCode([r]),
    );
    return deleteResults(topics, answer);
  }
}
