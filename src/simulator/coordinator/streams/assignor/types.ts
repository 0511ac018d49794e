/**
 * The inputs and output of Kafka's streams-group task assignors (KIP-1071) as plain data: the `GroupSpec`,
 * `MemberAssignmentMetadata`, `MemberAssignmentState`, `AssignmentConfigs`, `TopologyDescriber`, `MemberAssignment`
 * and `GroupAssignment` interfaces of org.apache.kafka.coordinator.group.api.streams.assignor (Kafka 4.4).
 */

/** One subtopology's partitions of a member's tasks (Kafka's Map<String, Set<Integer>> entry). */
export interface SubtopologyTasks {
  subtopologyId: string;
  partitions: number[];
}

/** One entry of MemberAssignmentState.taskOffsets(): the offset sum a member reports for a task's local state. */
export interface TaskOffset {
  subtopologyId: string;
  partition: number;
  offsetSum: number;
}

/** MemberMetadataAndStateImpl: who a member is and what it holds (its current target assignment and local state). */
export interface StreamsMemberSpec {
  memberId: string;
  instanceId?: string;
  rackId?: string;
  /** The Streams client (KafkaStreams instance) the member thread belongs to. */
  processId: string;
  clientTags?: Record<string, string>;
  activeTasks?: SubtopologyTasks[];
  standbyTasks?: SubtopologyTasks[];
  /** Kafka 4.4's StickyTaskAssignor does not read these (it assigns no warm-up tasks); kept to model the interface. */
  warmupTasks?: SubtopologyTasks[];
  taskOffsets?: TaskOffset[];
  /** Not read by Kafka 4.4's StickyTaskAssignor either. */
  taskEndOffsets?: TaskOffset[];
}

/** AssignmentConfigs (AssignmentConfigsImpl). */
export interface AssignmentConfigs {
  /** num.standby.replicas */
  numStandbyReplicas: number;
  /** rack.aware.assignment.tags; Kafka 4.4's StickyTaskAssignor does not read them. */
  rackAwareAssignmentTags?: string[];
}

/** GroupSpecImpl. `members` are in the order `memberIds()` iterates them, which decides ties. */
export interface StreamsGroupSpec {
  members: StreamsMemberSpec[];
  configs: AssignmentConfigs;
}

/** What the TopologyDescriber tells about one subtopology; the array order is `subtopologies()`'s. */
export interface SubtopologyDescription {
  subtopologyId: string;
  /** maxNumInputPartitions: the number of tasks of the subtopology. */
  numTasks: number;
  stateful: boolean;
}

/** MemberAssignment: a member's active and standby tasks per subtopology, partitions ascending. */
export interface StreamsMemberAssignment {
  activeTasks: Map<string, number[]>;
  standbyTasks: Map<string, number[]>;
}

/** GroupAssignment: every member's assignment. */
export type StreamsGroupAssignment = Map<string, StreamsMemberAssignment>;

/** TaskAssignorException: the assignor cannot compute an assignment (Kafka's message). */
export class TaskAssignorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskAssignorError';
  }
}
