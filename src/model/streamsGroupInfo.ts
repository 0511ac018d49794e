/**
 * A described streams group (StreamsGroupDescribe, KIP-1071) in the model's terms, for both sources: a real
 * cluster's answer and the simulator's. For the tree, a member's active tasks become the partitions of its
 * subtopologies' source topics, the partitions its consumer reads.
 */
import type { Assignment, DescribedGroup, Member as DescribedMember, TaskIds } from '../protocol/messages/streamsGroupDescribeResponse';
import { sortedUnique } from './consumerGroupInfo';
import {
  compareTopicPartitions, type Member, type StreamsGroupInfo, type StreamsGroupMemberInfo, type StreamsSubtopologyInfo, type StreamsTaskAssignment, type StreamsTasks,
  type TopicPartition,
} from './types';

function tasks(list: readonly TaskIds[]): StreamsTasks[] {
  return list
    .map((t) => ({ subtopologyId: t.subtopologyId, partitions: [...t.partitions].sort((a, b) => a - b) }))
    .sort((a, b) => (a.subtopologyId < b.subtopologyId ? -1 : a.subtopologyId > b.subtopologyId ? 1 : 0));
}

function taskAssignment(a: Assignment): StreamsTaskAssignment {
  return { active: tasks(a.activeTasks), standby: tasks(a.standbyTasks), warmup: tasks(a.warmupTasks) };
}

function memberInfo(m: DescribedMember): StreamsGroupMemberInfo {
  return {
    memberId: m.memberId,
    memberEpoch: m.memberEpoch,
    instanceId: m.instanceId,
    rackId: m.rackId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    topologyEpoch: m.topologyEpoch,
    processId: m.processId,
    userEndpoint: m.userEndpoint ? { host: m.userEndpoint.host, port: m.userEndpoint.port } : null,
    clientTags: Object.fromEntries(m.clientTags.map((t) => [t.key, t.value])),
    assignment: taskAssignment(m.assignment),
    targetAssignment: taskAssignment(m.targetAssignment),
    isClassic: m.isClassic,
  };
}

function subtopologies(group: DescribedGroup): StreamsSubtopologyInfo[] {
  return (group.topology?.subtopologies ?? []).map((s) => ({
    subtopologyId: s.subtopologyId,
    sourceTopics: sortedUnique(s.sourceTopics),
    repartitionSinkTopics: sortedUnique(s.repartitionSinkTopics),
    repartitionSourceTopics: sortedUnique(s.repartitionSourceTopics.map((t) => t.name)),
    stateChangelogTopics: sortedUnique(s.stateChangelogTopics.map((t) => t.name)),
  }));
}

/** The model's view of one described streams group (its error code is 0). */
export function streamsGroupInfo(group: DescribedGroup): StreamsGroupInfo {
  return {
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    assignorName: group.assignorName ?? null,
    topology: group.topology ? { epoch: group.topology.epoch, subtopologies: subtopologies(group) } : null,
    members: group.members.map(memberInfo),
  };
}

/**
 * The partitions a member's tasks read: for each task (subtopology, partition), that partition of
 * every source topic of the subtopology (its input and repartition topics). Tasks of a subtopology
 * the topology does not list give nothing.
 */
export function taskPartitions(list: readonly StreamsTasks[], topology: readonly StreamsSubtopologyInfo[]): TopicPartition[] {
  const sources = new Map(topology.map((s) => [s.subtopologyId, sortedUnique([...s.sourceTopics, ...s.repartitionSourceTopics])]));
  return list.flatMap((t) => (sources.get(t.subtopologyId) ?? []).flatMap((topic) => t.partitions.map((partition) => ({ topic, partition })))).sort(compareTopicPartitions);
}

/** The members as the tree reads them: active tasks as the partitions they read. */
export function streamsGroupTreeMembers(info: StreamsGroupInfo): Member[] {
  const topology = info.topology?.subtopologies ?? [];
  const subscription = sortedUnique(topology.flatMap((s) => [...s.sourceTopics, ...s.repartitionSourceTopics]));
  return info.members.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.instanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscription,
    assignment: taskPartitions(m.assignment.active, topology),
    targetAssignment: taskPartitions(m.targetAssignment.active, topology),
    memberEpoch: m.memberEpoch,
    rackId: m.rackId,
  }));
}
