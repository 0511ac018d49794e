/**
 * Offset resets of KIP-932 share groups with the semantics of Kafka 4.4's `kafka-share-groups.sh --reset-offsets`
 * (ShareGroupCommand.resetOffsets / getPartitionsToReset / prepareOffsetsToReset over the shared
 * GroupOffsetsResetter). A share group has no committed offsets: each share-partition has a *start offset*
 * (DescribeShareGroupOffsets), and AlterShareGroupOffsets sets it. What differs from a consumer group's reset:
 *  - Scenarios: 4.2–4.3 take --to-earliest, --to-latest, --to-datetime only (4.1's tool has --reset-offsets but prints
 *    "--reset-offsets option is not yet implemented"; its broker takes AlterShareGroupOffsets); 4.4 adds --to-offset,
 *    --to-current and --from-file. There is no --shift-by and no --by-duration (the tool's options have neither).
 *  - Only an Empty or Dead group, or one that does not exist, is reset ("Share group 'g' is not empty."): the reset
 *    of an unknown group creates it with those start offsets (how a share group is pre-initialised, KIP-1323).
 *  - --all-topics means the share-partitions the group has state for (listShareGroupOffsets).
 *  - --to-current keeps the start offset; a partition without one gets the log end offset
 *    (GroupOffsetsResetter.resetToCurrentForShareGroup).
 *  - Every partition in scope must exist ("The partitions "t-9" do not exist", checkAllTopicPartitionsValid).
 *  - The CLI has no default between --dry-run and --execute (from 4.2 it fails when neither is given).
 * The rows, clamps and datetime fall-back are the consumer planner's (planReset); `currentOffset` of a row is the
 * start offset before the reset (null: the partition has no share state yet). The CLI's dry run prints
 * GROUP TOPIC PARTITION NEW-OFFSET in hash order: compare as a set.
 */
import type { CommittedOffset, ShareStartOffset } from '../model/groupAdmin';
import type { GroupState, TopicPartition } from '../model/types';
import { exportResetCsv } from './csv';
export type { ShareStartOffset } from '../model/groupAdmin';
import { planReset, type ResetFacts, type ResetPlanResult } from './resetPlan';
import type { ResetRequest, ResetScenarioKind, TopicSelection } from './resetRequest';
import { type PartitionCounts } from './resetScope';
import { compareTopicPartitions, formatTopicPartition } from './topicPartitions';

/** What kafka-share-groups.sh 4.2 and 4.3 can reset to (4.1's tool prints "--reset-offsets option is not yet implemented"). */
export const SHARE_RESET_SCENARIOS_4_2: readonly ResetScenarioKind[] = ['to-earliest', 'to-latest', 'to-datetime'];
/** What kafka-share-groups.sh 4.4 can reset to (KAFKA-20524 added to-offset, to-current and from-file). */
export const SHARE_RESET_SCENARIOS_4_4: readonly ResetScenarioKind[] = [...SHARE_RESET_SCENARIOS_4_2, 'to-offset', 'to-current', 'from-file'];

export interface ShareResetFacts extends Omit<ResetFacts, 'committed' | 'partitionsPerTopic'> {
  /** The group's share-partitions as DescribeShareGroupOffsets lists them (all topics). */
  startOffsets: readonly ShareStartOffset[];
  /** Partition counts of every topic the scope names (whole topics and `t:p` ones, whose partitions must exist). */
  partitionsPerTopic: PartitionCounts;
}

const RESETTABLE: ReadonlyArray<GroupState | 'missing'> = ['Empty', 'Dead', 'missing'];

/** The CLI's refusal of a group with members, or null when the state allows a reset. */
export function shareGroupNotEmptyError(groupId: string, state: GroupState | 'missing'): string | null {
  return RESETTABLE.includes(state) ? null : `Share group '${groupId}' is not empty.`;
}

/** Null when the scenario is one `supported` lists, else why kafka-share-groups.sh cannot do it. */
export function shareScenarioError(kind: ResetScenarioKind, supported: readonly ResetScenarioKind[] = SHARE_RESET_SCENARIOS_4_4): string | null {
  if (supported.includes(kind)) {
    return null;
  }
  const options = supported.map((s) => `--${s}`).join(', ');
  const since = SHARE_RESET_SCENARIOS_4_4.includes(kind) ? ' (added in Kafka 4.4; this cluster is older)' : '';
  return `kafka-share-groups.sh cannot reset a share group with --${kind}${since}: it resets with ${options}`;
}

function countOf(counts: PartitionCounts, topic: string): number | undefined {
  if (counts instanceof Map) {
    return counts.get(topic);
  }
  const record = counts as Readonly<Record<string, number>>;
  return Object.prototype.hasOwnProperty.call(record, topic) ? record[topic] : undefined;
}

/** Every topic a scope names, whole or with partitions: the topics whose partition counts the share planner needs. */
export function scopeTopics(topics: readonly TopicSelection[]): string[] {
  return [...new Set(topics.map((t) => t.topic))];
}

/** checkAllTopicPartitionsValid for the explicit `t:p` partitions of the scope. */
function missingPartitionsError(request: ResetRequest, counts: PartitionCounts): string | null {
  if (request.scope.kind !== 'topics' || request.scenario.kind === 'from-file') {
    return null;
  }
  const missing: TopicPartition[] = [];
  for (const { topic, partitions } of request.scope.topics) {
    const count = countOf(counts, topic);
    for (const partition of partitions ?? []) {
      if (count === undefined || partition >= count) {
        missing.push({ topic, partition });
      }
    }
  }
  return missing.length === 0 ? null : `The partitions "${missing.map(formatTopicPartition).join(',')}" do not exist`;
}

/** The start offsets as the "committed" offsets the shared planner reads: only partitions that have one. */
export function startOffsetsAsCommitted(startOffsets: readonly ShareStartOffset[]): CommittedOffset[] {
  return startOffsets.flatMap(({ topic, partition, startOffset }) => (startOffset === null ? [] : [{ topic, partition, offset: startOffset }]));
}

/**
 * Plans a share group's reset exactly as `kafka-share-groups.sh --reset-offsets --dry-run` would.
 * `supported` is the scenario set of the cluster's version (SHARE_RESET_SCENARIOS_4_2 before 4.4).
 */
export async function planShareReset(request: ResetRequest, facts: ShareResetFacts, supported: readonly ResetScenarioKind[] = SHARE_RESET_SCENARIOS_4_4): Promise<ResetPlanResult> {
  const unsupported = shareScenarioError(request.scenario.kind, supported);
  if (unsupported) {
    return { ok: false, error: unsupported };
  }
  const refusal = shareGroupNotEmptyError(request.groupId, facts.groupState);
  if (refusal) {
    return { ok: false, error: refusal };
  }
  const missing = missingPartitionsError(request, facts.partitionsPerTopic);
  if (missing) {
    return { ok: false, error: missing };
  }
  const { startOffsets, ...rest } = facts;
  const committed = startOffsetsAsCommitted(startOffsets);
  if (request.scope.kind === 'all-topics' && request.scenario.kind !== 'from-file') {
    // --all-topics is every share-partition the group has, a start offset or not (listShareGroupOffsets' keys);
    // the shared planner would take only those with one, so name them explicitly.
    const partitions = [...startOffsets].sort(compareTopicPartitions);
    if (partitions.length === 0) {
      return { ok: true, groupId: request.groupId, rows: [], warnings: [] };
    }
    const topics = scopeTopics(partitions.map(({ topic }) => ({ topic }))).map((topic) => ({
      topic,
      partitions: partitions.filter((p) => p.topic === topic).map((p) => p.partition),
    }));
    return planReset({ ...request, scope: { kind: 'topics', topics } }, { ...rest, committed });
  }
  return planReset(request, { ...rest, committed });
}

/**
 * The --from-file CSV that seeds a share group from a consumer group's committed offsets (KIP-1323): the
 * single-group `topic,partition,offset` format, which kafka-share-groups.sh reads for the one --group it is given.
 */
export function shareSeedCsv(committed: readonly CommittedOffset[]): string {
  return exportResetCsv([{ groupId: '', rows: [...committed].sort(compareTopicPartitions).map(({ topic, partition, offset }) => ({ topic, partition, newOffset: offset })) }], {
    withGroupColumn: false,
  });
}
