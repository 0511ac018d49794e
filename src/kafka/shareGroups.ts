/**
 * KIP-932 share groups: ShareGroupDescribe (API 77, v1) for state, epochs and members,
 * DescribeShareGroupOffsets (API 90, v0–v1) for each share-partition's start offset and (v1, Kafka
 * 4.2+) lag, and DescribeConfigs on the group (resource type GROUP) for its share configs, all on the
 * group's coordinator. What `kafka-share-groups.sh --describe` prints comes from the same answers:
 * START-OFFSET and LAG as the broker gives them ("-" where a partition has no state yet).
 */
import type { PartitionOffsets, SharePartitionInfo } from '../model/types';
import { compareTopicPartitions } from '../model/types';
import { emptyShareGroupConfigs, shareConfigs, shareGroupInfo, shareGroupTreeMembers } from '../model/shareGroupInfo';
import { errorMessage } from '../protocol/errors';
import { DescribeConfigsRequest } from '../protocol/messages/describeConfigsRequest';
import { DescribeConfigsResponse } from '../protocol/messages/describeConfigsResponse';
import { DescribeShareGroupOffsetsRequest } from '../protocol/messages/describeShareGroupOffsetsRequest';
import { DescribeShareGroupOffsetsResponse, type DescribeShareGroupOffsetsResponseGroup } from '../protocol/messages/describeShareGroupOffsetsResponse';
import { ShareGroupDescribeRequest } from '../protocol/messages/shareGroupDescribeRequest';
import { ShareGroupDescribeResponse, type DescribedGroup } from '../protocol/messages/shareGroupDescribeResponse';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import { MAX_GROUPS_PER_REQUEST, chunked, mapWithConcurrency } from './coordinatorBatches';
import { notOfThisType, groupErrorText, groupStateOf, offsetNumber, type TypedGroupDescription } from './groupTypes';
import { requireNegotiatedVersion, sendGenerated, type GeneratedApi } from './groupTypesWire';
import type { KafkajsBroker } from './kafkajsBridge';

export const SHARE_GROUP_DESCRIBE: GeneratedApi<ReturnType<typeof ShareGroupDescribeRequest.defaults>, ReturnType<typeof ShareGroupDescribeResponse.defaults>> = {
  request: ShareGroupDescribeRequest,
  response: ShareGroupDescribeResponse,
};

export const DESCRIBE_SHARE_GROUP_OFFSETS: GeneratedApi<
  ReturnType<typeof DescribeShareGroupOffsetsRequest.defaults>,
  ReturnType<typeof DescribeShareGroupOffsetsResponse.defaults>
> = { request: DescribeShareGroupOffsetsRequest, response: DescribeShareGroupOffsetsResponse };

export const DESCRIBE_CONFIGS: GeneratedApi<ReturnType<typeof DescribeConfigsRequest.defaults>, ReturnType<typeof DescribeConfigsResponse.defaults>> = {
  request: DescribeConfigsRequest,
  response: DescribeConfigsResponse,
};

/** Kafka's ConfigResource.Type.GROUP. */
export const GROUP_CONFIG_RESOURCE = 32;

/** Group configs that concern share groups: the share.* ones and the dead-letter queue's (KIP-1191, 4.4). */
export function isShareConfig(name: string): boolean {
  return name.startsWith('share.') || name.startsWith('errors.deadletterqueue.');
}

/** One described share group in the load pipeline's terms; offsets and configs come from their own requests. */
export function typedShareGroup(group: DescribedGroup): TypedGroupDescription {
  if (group.errorCode !== 0) {
    const failed: TypedGroupDescription = { groupId: group.groupId, groupType: 'share', state: 'Unknown', assignor: '', members: [], error: groupErrorText(group.errorCode, group.errorMessage) };
    return notOfThisType(group.errorCode) ? { ...failed, notThisType: true } : failed;
  }
  const members = shareGroupTreeMembers(group);
  return {
    groupId: group.groupId,
    groupType: 'share',
    state: groupStateOf('share', group.groupState),
    assignor: group.assignorName,
    groupEpoch: group.groupEpoch,
    members,
    shareGroup: shareGroupInfo(group),
  };
}

export { shareConfigs };

/** Share-partition rows of one group's DescribeShareGroupOffsets answer; a partition with no state has no start offset. */
export function sharePartitions(group: DescribeShareGroupOffsetsResponseGroup): { partitions: SharePartitionInfo[]; errors: string[] } {
  const partitions: SharePartitionInfo[] = [];
  const errors: string[] = [];
  for (const topic of group.topics) {
    for (const p of topic.partitions) {
      if (p.errorCode !== 0) {
        errors.push(`Share offsets of ${topic.topicName}-${p.partitionIndex}: ${groupErrorText(p.errorCode, p.errorMessage)}`);
        continue;
      }
      // A negative start offset means the partition has no share state yet: Kafka's admin client gives null, the CLI "-".
      const known = p.startOffset >= 0n;
      partitions.push({
        topic: topic.topicName,
        partition: p.partitionIndex,
        startOffset: known ? offsetNumber(p.startOffset, 'start offset') : null,
        leaderEpoch: known && p.leaderEpoch >= 0 ? p.leaderEpoch : null,
        lag: known && p.lag !== undefined && p.lag >= 0n ? offsetNumber(p.lag, 'share lag') : null,
      });
    }
  }
  partitions.sort(compareTopicPartitions);
  return { partitions, errors };
}

/**
 * Offsets rows of a share group for the tree: the start offset where a consumer group has its
 * committed offset, and the broker's share lag (not end - start: records after the start offset may
 * already be delivered). The log end offset comes from ListOffsets, as for the other types.
 */
export function shareOffsetRows(partitions: readonly SharePartitionInfo[], logEnd: (p: SharePartitionInfo) => { logStartOffset: number | null; logEndOffset: number | null }): PartitionOffsets[] {
  return partitions.map((p) => ({
    topic: p.topic,
    partition: p.partition,
    committedOffset: p.startOffset,
    ...logEnd(p),
    lag: p.lag,
    ownerMemberId: null,
  }));
}

/** ShareGroupDescribe of the groups on their coordinator. Throws when the request fails as a whole. */
export async function describeShareGroups(broker: KafkajsBroker, groupIds: readonly string[]): Promise<TypedGroupDescription[]> {
  if (groupIds.length === 0) {
    return [];
  }
  const version = requireNegotiatedVersion(broker, SHARE_GROUP_DESCRIBE);
  const describe = () => sendGenerated(broker, SHARE_GROUP_DESCRIBE, version, { groupIds: [...groupIds], includeAuthorizedOperations: false });
  const response = await retryWhileCoordinatorLoads(describe, (r) => hasLoadingCode(r.groups));
  return response.groups.map(typedShareGroup);
}

/**
 * Fills in each described share group's partitions (DescribeShareGroupOffsets, see
 * shareOffsetsRequestGroups for how many groups a request) and configs (DescribeConfigs on the groups). A failure of either lands on
 * the groups as an error; what did load stays.
 */
export async function addShareOffsetsAndConfigs(broker: KafkajsBroker, groups: readonly TypedGroupDescription[]): Promise<void> {
  const described = groups.filter((g) => g.shareGroup !== undefined);
  if (described.length === 0) {
    return;
  }
  const addError = (group: TypedGroupDescription, error: string) => {
    group.error = group.error ? `${group.error}; ${error}` : error;
  };
  const [offsets, configs] = await Promise.allSettled([describeShareOffsets(broker, described.map((g) => g.groupId)), describeGroupConfigs(broker, described.map((g) => g.groupId))]);
  for (const group of described) {
    const info = group.shareGroup as NonNullable<TypedGroupDescription['shareGroup']>;
    if (offsets.status === 'rejected') {
      addError(group, `Share offsets: ${errorMessage(offsets.reason)}`);
    } else {
      const answer = offsets.value.get(group.groupId);
      if (!answer) {
        addError(group, 'Share offsets: the coordinator did not answer for this group');
      } else if (answer.errorCode !== 0) {
        addError(group, `Share offsets: ${groupErrorText(answer.errorCode, answer.errorMessage)}`);
      } else {
        try {
          const { partitions, errors } = sharePartitions(answer);
          info.partitions = partitions;
          errors.forEach((e) => addError(group, e));
        } catch (e) {
          addError(group, `Share offsets: ${errorMessage(e)}`);
        }
      }
    }
    if (configs.status === 'rejected') {
      info.configs = emptyShareGroupConfigs(errorMessage(configs.reason));
    } else {
      const answer = configs.value.get(group.groupId);
      info.configs = answer === undefined ? emptyShareGroupConfigs('the broker did not answer for this group') : typeof answer === 'string' ? emptyShareGroupConfigs(answer) : shareConfigs(answer);
    }
  }
}

/**
 * The groups of each DescribeShareGroupOffsets. Kafka's admin client (ListShareGroupOffsetsHandler's
 * buildBatchedRequest) puts all of a coordinator's groups in one request, and so do we, MAX_GROUPS_PER_REQUEST
 * at most, where the broker only reads start offsets (v0, Kafka 4.1). A broker that also computes the lag
 * (v1, Kafka 4.2+) has GroupCoordinatorService ask the partition leaders for their end offsets through
 * NetworkPartitionMetadataClient, one ListOffsets per group of the request. Its send thread stamps each
 * queued ListOffsets with the monotonic clock (Time.hiResClockMs) where InterBrokerSendThread's
 * failExpiredRequests compares wall-clock time, so a ListOffsets that has to wait behind another to the same
 * leader counts as 30 s old, is failed as disconnected and retried after the client's backoff (KAFKA-19928:
 * about 2 s the first time, doubling). Several groups in one request queue their ListOffsets together: on
 * 4.4.0, 10 groups took 2.3 s and 300 groups 2.6 to 6.8 s a request, where 300 single-group requests, 8 at
 * once, took 0.3 to 1.1 s (bench/shareOffsetsProbe.ts). And the broker reads a connection's next request only
 * after answering the last, so a stalled request holds up every request behind it. So on those brokers each
 * group has its own request; the broker still takes them one at a time (none of ours collide but the first,
 * while its ListOffsets connection opens), and having several in flight saves the round trips. They go on
 * the broker's second socket (sendCall's secondSocket): on the main one, thousands of them held every other
 * request of the load (describes, offsets, configs) behind them; there they run beside those, and still one
 * at a time, which keeps their ListOffsets from colliding. A 20,000-group load with 5,000 live share groups
 * went from 27.6 s to 16.0 s so (bench/kafkaLive.ts).
 */
export function shareOffsetsRequestGroups(groupIds: readonly string[], version: number): string[][] {
  return chunked(groupIds, version >= SHARE_LAG_VERSION ? 1 : MAX_GROUPS_PER_REQUEST);
}

/** DescribeShareGroupOffsets v1 (Kafka 4.2): the broker answers each partition's lag. */
const SHARE_LAG_VERSION = 1;

/** DescribeShareGroupOffsets requests in flight at once per coordinator batch (pipelined on the broker's connection). */
export const SHARE_OFFSETS_CONCURRENCY = 8;

/** Each group's DescribeShareGroupOffsets answer, every topic of the group (topics null), in bounded requests. */
async function describeShareOffsets(broker: KafkajsBroker, groupIds: readonly string[]): Promise<Map<string, DescribeShareGroupOffsetsResponseGroup>> {
  const version = requireNegotiatedVersion(broker, DESCRIBE_SHARE_GROUP_OFFSETS);
  const answers = await mapWithConcurrency(shareOffsetsRequestGroups(groupIds, version), SHARE_OFFSETS_CONCURRENCY, (ids) =>
    retryWhileCoordinatorLoads(
      () => sendGenerated(broker, DESCRIBE_SHARE_GROUP_OFFSETS, version, { groups: ids.map((groupId) => ({ groupId, topics: null })) }, { secondSocket: version >= SHARE_LAG_VERSION }),
      (r) => hasLoadingCode(r.groups),
    ),
  );
  return new Map(answers.flatMap((response) => response.groups.map((g) => [g.groupId, g] as const)));
}

/** Each group's share configs by name, or the error text for that group. */
async function describeGroupConfigs(broker: KafkajsBroker, groupIds: readonly string[]): Promise<Map<string, Record<string, string | null> | string>> {
  const version = requireNegotiatedVersion(broker, DESCRIBE_CONFIGS);
  const response = await sendGenerated(broker, DESCRIBE_CONFIGS, version, {
    resources: groupIds.map((resourceName) => ({ resourceType: GROUP_CONFIG_RESOURCE, resourceName, configurationKeys: null })),
    includeSynonyms: false,
    includeDocumentation: false,
  });
  const result = new Map<string, Record<string, string | null> | string>();
  for (const r of response.results) {
    if (r.errorCode !== 0) {
      result.set(r.resourceName, groupErrorText(r.errorCode, r.errorMessage));
      continue;
    }
    const all: Record<string, string | null> = {};
    for (const c of r.configs.filter((entry) => isShareConfig(entry.name)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      all[c.name] = c.value;
    }
    result.set(r.resourceName, all);
  }
  return result;
}
