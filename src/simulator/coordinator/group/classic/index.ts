/**
 * Classic groups, org.apache.kafka.coordinator.group.classic: ClassicGroup and ClassicGroupMember,
 * the JoinGroup and SyncGroup paths of GroupMetadataManager (classicGroupJoin, classicGroupSync), the
 * rebalance's timers and completion (classicRebalance), and protocol selection by vote.
 */
export { ClassicGroup } from './classicGroup';
export { ClassicGroupMember } from './classicGroupMember';
export { ClassicGroupJoin } from './classicGroupJoin';
export { ClassicGroupSync } from './classicGroupSync';
