/**
 * The broker's coordinators (Kafka's group-coordinator module, org.apache.kafka.coordinator). Only the
 * group coordinator today (group/); the share and streams coordinators' groups join it there.
 * It never imports the clients: they reach it through clients/groupCoordinatorClient.ts.
 */
export { GroupCoordinator } from './group/groupCoordinator';
