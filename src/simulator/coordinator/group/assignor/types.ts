/**
 * The inputs and output of Kafka's server-side assignors for KIP-848 consumer groups, as plain data: the
 * `GroupSpec`, `MemberSubscription`, `MemberAssignment` and `SubscribedTopicDescriber` interfaces of
 * org.apache.kafka.coordinator.group.api.assignor (Kafka 4.4), with topic ids as Kafka's base64 Uuid text.
 */

/** The assignors a consumer group can name in `group.consumer.assignors` (Kafka 4.4's built-in ones). */
export type ConsumerGroupAssignorName = 'uniform' | 'range';

/** The share-group assignors (KIP-932): Kafka 4.4's `group.share.assignors` has only SimpleAssignor. */
export type ShareGroupAssignorName = 'simple';

export type ServerAssignorName = ConsumerGroupAssignorName | ShareGroupAssignorName;

/**
 * SubscriptionType: HOMOGENEOUS when every member subscribes to the same topics (the coordinator decides it from
 * its per-topic subscriber counts, see `subscriptionTypeOf`), HETEROGENEOUS otherwise.
 */
export type SubscriptionType = 'HOMOGENEOUS' | 'HETEROGENEOUS';

/** One topic of a member's current assignment. */
export interface AssignedTopic {
  topicId: string;
  /** In the order Kafka's set iterates them (the uniform and simple assignors keep the first ones when a member has too many). */
  partitions: number[];
}

/** MemberSubscriptionAndAssignmentImpl: what a member subscribes to and its current target assignment. */
export interface MemberSpec {
  memberId: string;
  instanceId?: string;
  rackId?: string;
  /** The subscribed topic ids, in the order the member's subscription set iterates them. */
  subscribedTopicIds: string[];
  /** The member's current target assignment, topics and partitions in the order Kafka's map and sets iterate them. */
  assignment?: AssignedTopic[];
}

/**
 * GroupSpecImpl. `members` are in the order the coordinator puts them into its member HashMap, and `memberIds()`
 * iterates that HashMap as Java does (see `memberIdOrder`), which is what decides ties.
 */
export interface GroupSpec {
  members: MemberSpec[];
  subscriptionType: SubscriptionType;
  /**
   * GroupSpecImpl's topicPartitionAllowedMap, share groups only: the partitions whose share state the group has
   * initialized, the only ones isPartitionAssignable lets SimpleAssignor hand out. Kafka 4.4's coordinator always
   * passes one for a share group (GroupMetadataManager: the initialized topics of its ShareGroupStatePartitionMetadata,
   * empty before any are), so an empty list assigns nothing. Absent (Optional.empty, as for consumer groups): every
   * partition is assignable.
   */
  topicPartitionAllowedMap?: AssignedTopic[];
}

/** What the SubscribedTopicDescriber tells about one topic. */
export interface TopicMetadata {
  topicId: string;
  numPartitions: number;
  /** Racks of each partition's replicas (index = partition); Kafka 4.4's uniform and range assignors do not use them. */
  partitionRacks?: string[][];
}

/** A member's assignment while an assignor builds it: topic id to partitions, in Kafka's iteration order. */
export type WorkingAssignment = Map<string, Set<number>>;

/** GroupAssignment: each member's target partitions per topic id, partitions ascending. Every member is present. */
export type GroupAssignment = Map<string, Map<string, number[]>>;

/** PartitionAssignorException: the assignor cannot compute an assignment (Kafka's message). */
export class PartitionAssignorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartitionAssignorError';
  }
}
