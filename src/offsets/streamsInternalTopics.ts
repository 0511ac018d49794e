/**
 * The internal topics `kafka-streams-groups.sh --delete --delete-all-internal-topics` deletes with a streams group,
 * as Kafka 4.4's StreamsGroupCommand.retrieveInternalTopics finds them: every repartition source topic and state
 * changelog topic of the described topology that is not also a source topic, kept only when its name is inferred
 * as the group's own (isInferredInternalTopic: "<group>-" prefix and an internal suffix); the others are named
 * and left alone, as the tool prints "... is not inferred as internal and thus will not be deleted".
 */
import type { StreamsGroupInfo } from '../model/types';

/** StreamsGroupCommand.matchesInternalTopicFormat. */
export function matchesInternalTopicFormat(topic: string): boolean {
  return (
    topic.endsWith('-changelog') ||
    topic.endsWith('-repartition') ||
    topic.endsWith('-subscription-registration-topic') ||
    topic.endsWith('-subscription-response-topic') ||
    /^.+-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-\d+-topic$/.test(topic) ||
    /^.+-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-\d+-topic$/.test(topic)
  );
}

/** StreamsGroupCommand.isInferredInternalTopic. */
export function isInferredInternalTopic(topic: string, groupId: string): boolean {
  return topic.startsWith(`${groupId}-`) && matchesInternalTopicFormat(topic);
}

export interface StreamsInternalTopics {
  /** What --delete-all-internal-topics deletes, sorted. */
  deletable: string[];
  /** Internal topics of the topology whose names are not the group's own: never deleted, sorted. */
  notInferred: string[];
}

/** The group's internal topics from its StreamsGroupDescribe topology (none when the group has no topology yet). */
export function streamsInternalTopics(groupId: string, info: Pick<StreamsGroupInfo, 'topology'> | undefined): StreamsInternalTopics {
  const subtopologies = info?.topology?.subtopologies ?? [];
  const sources = new Set(subtopologies.flatMap((s) => s.sourceTopics));
  const internal = [...new Set(subtopologies.flatMap((s) => [...s.repartitionSourceTopics, ...s.stateChangelogTopics]))].filter((t) => !sources.has(t)).sort();
  return {
    deletable: internal.filter((t) => isInferredInternalTopic(t, groupId)),
    notInferred: internal.filter((t) => !isInferredInternalTopic(t, groupId)),
  };
}
