/**
 * Offset resets of KIP-1071 streams groups with the semantics of Kafka 4.4's `kafka-streams-groups.sh
 * --reset-offsets` (StreamsGroupCommand.resetOffsets / getPartitionsToReset over the shared GroupOffsetsResetter).
 * A streams group commits offsets as a consumer group does, so the scenarios, clamps, refusal sentence and the
 * "missing group is reset anyway" rule are kafka-consumer-groups.sh's (planReset). What differs is the scope:
 *  - --all-input-topics: the group's committed partitions of the topology's source topics (getInputTopicOffsets:
 *    the subtopologies' sourceTopics), not every committed partition;
 *  - --input-topic t[:p]: every partition must exist (checkAllTopicPartitionsValid), and every one must have a
 *    committed offset of the group, else the tool prints "One or more topics are not part of the group 'g'." and
 *    resets nothing (filterExistingGroupTopics).
 * The options are --all-input-topics / --input-topic (the request's all-topics / topics scope), and the tool has no
 * default between --dry-run and --execute.
 */
import { inactiveGroupError, planReset, type ResetFacts, type ResetPlanResult } from './resetPlan';
import type { ResetRequest } from './resetRequest';
import { resolveScopePartitions } from './resetScope';
import { compareTopicPartitions, PartitionMap } from './topicPartitions';

export interface StreamsResetFacts extends ResetFacts {
  /** The source topics of the group's topology (StreamsGroupDescribe's subtopologies). */
  sourceTopics: readonly string[];
}

/** Plans a streams group's reset exactly as `kafka-streams-groups.sh --reset-offsets --dry-run` would. */
export async function planStreamsReset(request: ResetRequest, facts: StreamsResetFacts): Promise<ResetPlanResult> {
  const refusal = inactiveGroupError(request.groupId, facts.groupState);
  if (refusal || request.scenario.kind === 'from-file') {
    return planReset(request, facts);
  }
  const committed = [...facts.committed];
  if (request.scope.kind === 'all-topics') {
    const inputs = new Set(facts.sourceTopics);
    const partitions = committed.filter((c) => inputs.has(c.topic)).sort(compareTopicPartitions);
    if (partitions.length === 0) {
      // Nothing in scope: the tool prints no plan.
      return { ok: true, groupId: request.groupId, rows: [], warnings: [] };
    }
    const topics = [...new Set(partitions.map((p) => p.topic))].map((topic) => ({ topic, partitions: partitions.filter((p) => p.topic === topic).map((p) => p.partition) }));
    return planReset({ ...request, scope: { kind: 'topics', topics } }, { ...facts, committed });
  }
  const scope = resolveScopePartitions(request.scope, committed, facts.partitionsPerTopic);
  if (scope.ok) {
    const held = new PartitionMap<true>();
    committed.forEach((c) => held.set(c.topic, c.partition, true));
    if (!scope.partitions.every((tp) => held.has(tp.topic, tp.partition))) {
      return { ok: false, error: `One or more topics are not part of the group '${request.groupId}'.` };
    }
  }
  return planReset(request, { ...facts, committed });
}

/** The CLI line's options for kafka-streams-groups.sh: its scope flags name input topics. */
export const STREAMS_GROUPS_COMMAND = 'kafka-streams-groups.sh';
export const STREAMS_SCOPE_FLAGS = { all: '--all-input-topics', topic: '--input-topic' } as const;
