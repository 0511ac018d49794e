/**
 * The simulation as Kafka's Admin client sees it, org.apache.kafka.clients.admin: describe and list
 * consumer groups with their offsets and lag (describeConsumerGroups, listConsumerGroupOffsets), delete
 * groups, alter and delete committed offsets; the editor's GroupAdmin over a simulation.
 */
export { describeSimGroup, listSimGroups } from './groupDetailMapper';
export { SimGroupAdmin } from './simGroupAdmin';
export { SimTransactionAdmin } from './simTransactionAdmin';
