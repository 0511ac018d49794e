/**
 * The group coordinator, org.apache.kafka.coordinator.group: the service (GroupCoordinator, Kafka's
 * GroupCoordinatorService) routing each group to its shard, the shard's GroupMetadataManager and
 * OffsetMetadataManager, the config, the records it writes to `__consumer_offsets`
 * (GroupCoordinatorRecordHelpers and their serde), online migration between group types, and the
 * `Group` every group type implements. The group types live below: classic/, modern/consumer/
 * (later modern/share/ and streams/); the server-side assignors in assignor/.
 */
export { GroupCoordinator } from './groupCoordinator';
export { GroupMetadataManager } from './groupMetadataManager';
export { OffsetMetadataManager } from './offsetMetadataManager';
export type { Group } from './group';
