/**
 * Kafka 4.4's streams TargetAssignmentBuilder: runs the task assignor over every member (with the one of
 * this heartbeat updated) and the configured topology, and writes a target-assignment record for each member
 * whose target changed, then the assignment epoch. A topology that is not ready assigns nothing.
 */
import { javaStringHashCode } from '../../../protocol/offsetsPartition';
import { JavaHashOrder } from '../../common/javaHashOrder';
import { KafkaApiError } from '../../common/errors';
import { assignStickyTasks, TaskAssignorError, type StreamsMemberSpec, type SubtopologyDescription, type SubtopologyTasks } from './assignor';
import {
  newStreamsGroupTargetAssignmentMetadataRecord, newStreamsGroupTargetAssignmentRecord, type StreamsGroupRecord,
} from './records';
import type { MemberTaskOffsets, StreamsGroupMember } from './streamsGroupMember';
import { activeTaskSet, EMPTY_TASKS, tasksEquals, type TaskSet, type TasksTuple } from './tasksTuple';
import { isTopologyReady, type ConfiguredTopology } from './topics/configuredTopology';

export interface TargetAssignmentInput {
  groupId: string;
  groupEpoch: number;
  members: ReadonlyMap<string, StreamsGroupMember>;
  /** The current target assignment, by member id. */
  targetAssignment: ReadonlyMap<string, TasksTuple>;
  taskOffsets: ReadonlyMap<string, MemberTaskOffsets>;
  topology: ConfiguredTopology;
  /** The group's assignment configs (num.standby.replicas, rack.aware.assignment.tags). */
  configs: ReadonlyMap<string, string>;
  now: number;
}

export interface TargetAssignmentResult {
  records: StreamsGroupRecord[];
  targetAssignment: Map<string, TasksTuple>;
}

function subtopologyTasks(tasks: TaskSet): SubtopologyTasks[] {
  return [...tasks].map(([subtopologyId, partitions]) => ({ subtopologyId, partitions: [...partitions] }));
}

/** createMemberMetadataAndState */
function memberSpec(member: StreamsGroupMember, offsets: MemberTaskOffsets | undefined): StreamsMemberSpec {
  const assigned = member.assignedTasks;
  const flat = (byTask: ReadonlyMap<string, ReadonlyMap<number, bigint>> | undefined) => [...(byTask ?? new Map<string, ReadonlyMap<number, bigint>>())]
    .flatMap(([subtopologyId, partitions]) => [...partitions].map(([partition, offset]) => ({ subtopologyId, partition, offsetSum: Number(offset) })));
  return {
    memberId: member.memberId,
    ...(member.instanceId === null ? {} : { instanceId: member.instanceId }),
    ...(member.rackId === null ? {} : { rackId: member.rackId }),
    processId: member.processId,
    clientTags: Object.fromEntries(member.clientTags),
    activeTasks: subtopologyTasks(activeTaskSet(assigned)),
    standbyTasks: subtopologyTasks(assigned.standbyTasks),
    warmupTasks: subtopologyTasks(assigned.warmupTasks),
    taskOffsets: flat(offsets?.taskOffsets),
    taskEndOffsets: flat(offsets?.taskEndOffsets),
  };
}

/** TopologyMetadata: subtopologies in id order, stateful when they have changelog topics. */
function describedSubtopologies(topology: ConfiguredTopology): SubtopologyDescription[] {
  return [...(topology.subtopologies ?? new Map())].map(([subtopologyId, s]) => ({ subtopologyId, numTasks: s.numberOfTasks, stateful: s.stateChangelogTopics.size > 0 }));
}

function tasksOf(assigned: ReadonlyMap<string, number[]>): Map<string, Set<number>> {
  return new Map([...assigned].map(([subtopologyId, partitions]) => [subtopologyId, new Set(partitions)]));
}

/** TargetAssignmentBuilder.build; the assignor's failure is UNKNOWN_SERVER_ERROR with Kafka's message. */
export function buildStreamsTargetAssignment(input: TargetAssignmentInput): TargetAssignmentResult {
  // GroupSpecImpl iterates its members as a HashMap of member ids does.
  const order = new JavaHashOrder<string>();
  [...input.members.keys()].forEach((id) => order.add(id, javaStringHashCode(id)));
  const memberIds = order.keys();
  let assignment: Map<string, TasksTuple>;
  if (isTopologyReady(input.topology)) {
    try {
      const numStandbyReplicas = Number(input.configs.get('num.standby.replicas') ?? '0');
      const result = assignStickyTasks(
        { members: memberIds.map((id) => memberSpec(input.members.get(id) as StreamsGroupMember, input.taskOffsets.get(id))), configs: { numStandbyReplicas } },
        describedSubtopologies(input.topology),
      );
      assignment = new Map([...result].map(([id, tasks]) => [id, { activeTasks: tasksOf(tasks.activeTasks), standbyTasks: tasksOf(tasks.standbyTasks), warmupTasks: new Map() }]));
    } catch (error) {
      if (error instanceof TaskAssignorError) {
        throw new KafkaApiError('UNKNOWN_SERVER_ERROR', `Failed to compute a new target assignment for epoch ${input.groupEpoch}: ${error.message}`);
      }
      throw error;
    }
  } else {
    assignment = new Map();
  }
  const records: StreamsGroupRecord[] = [];
  const targetAssignment = new Map<string, TasksTuple>();
  for (const memberId of memberIds) {
    const next = assignment.get(memberId) ?? EMPTY_TASKS;
    const previous = input.targetAssignment.get(memberId);
    targetAssignment.set(memberId, next);
    if (previous === undefined || !tasksEquals(previous, next)) {
      records.push(newStreamsGroupTargetAssignmentRecord(input.groupId, memberId, next));
    }
  }
  records.push(newStreamsGroupTargetAssignmentMetadataRecord(input.groupId, input.groupEpoch, input.now));
  return { records, targetAssignment };
}
