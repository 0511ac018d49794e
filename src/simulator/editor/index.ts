/**
 * The adapter the editor uses (no Kafka counterpart): SimSource, a ClusterSource over a live
 * simulation, with the simulator controls the editor's commands call.
 */
export { SimSource, createDemoSimSource } from './simSource';
