/**
 * KIP-848 consumer groups, org.apache.kafka.coordinator.group.modern.consumer (Kafka 4.4): ConsumerGroup,
 * ConsumerGroupMember and CurrentAssignmentBuilder, with the consumer-group half of GroupMetadataManager
 * (ConsumerGroupHeartbeat, its timeouts, classic members of a consumer group) as a self-contained engine.
 * The seam is ConsumerGroupHeartbeatHandler (see its options); the rest is exported for tests and wiring.
 */
export { ConsumerGroupHeartbeatHandler } from './consumerGroupHeartbeatHandler';
export {
  canComputeNextTargetAssignment, consumerGroupRebalanceTimeoutKey, consumerGroupRegexResolutionKey, consumerGroupSessionTimeoutKey,
  type ConsumerGroupHeartbeatHandlerOptions, type HeartbeatContext,
} from './heartbeatSeam';
export { ConsumerGroup, type ConsumerGroupState, type ResolvedRegularExpression } from './consumerGroup';
export type { ConsumerGroupMember } from './consumerGroupMember';
export type { ConsumerGroupEventSink } from './consumerGroupEvents';
export type { PartitionAssignor } from './groupChanges';
export type { ConsumerGroupRecord, ConsumerGroupRecordSink } from './records';
export { reconcileMember, type ReconcileInput } from './currentAssignmentBuilder';
export { compileTopicRegex, resolveTopicRegex } from '../../../../common/topicRegex';
export { InMemoryTopicImage } from '../topicImage';
export {
  DEFAULT_CONSUMER_GROUP_CONFIG, isDowngradeEnabled, isUpgradeEnabled, KafkaApiError, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH, MemberState,
  CONSUMER_GROUP_MIGRATION_POLICIES, type ConsumerGroupConfig, type ConsumerGroupMigrationPolicy, type CoordinatorTimer, type PartitionEpochs, type TopicInfo, type TopicMetadataImage, type TopicPartitionSets,
} from './types';
