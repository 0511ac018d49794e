/**
 * What the modern (KIP-848) group types share, org.apache.kafka.coordinator.group.modern: the target
 * assignment builder and the topic metadata image. The consumer group is in consumer/; share and
 * streams groups will sit beside it.
 */
export { buildTargetAssignment, type TargetAssignmentInput, type TargetAssignmentResult } from './targetAssignmentBuilder';
