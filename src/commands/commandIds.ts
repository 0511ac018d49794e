/** Command ids, in one place so package.json contributions and registrations cannot drift (a test checks both). */
import { RETRY_COMMAND_ID } from '../views/groupTreeModel';

export const COMMANDS = {
  refresh: 'kafkaGroupLens.refresh',
  retry: RETRY_COMMAND_ID,
  addConsumerGroup: 'kafkaGroupLens.sim.addConsumerGroup',
  produceRecords: 'kafkaGroupLens.sim.produceRecords',
  stopProducer: 'kafkaGroupLens.sim.stopProducer',
  createTopic: 'kafkaGroupLens.sim.createTopic',
  addConsumer: 'kafkaGroupLens.sim.addConsumer',
  stopConsumer: 'kafkaGroupLens.sim.stopConsumer',
  crashConsumer: 'kafkaGroupLens.sim.crashConsumer',
  pausePolling: 'kafkaGroupLens.sim.pausePolling',
  restartConsumer: 'kafkaGroupLens.sim.restartConsumer',
  exposeSimulator: 'kafkaGroupLens.sim.exposeOnPort',
  stopExposingSimulator: 'kafkaGroupLens.sim.stopExposing',
  addCluster: 'kafkaGroupLens.addCluster',
  editCluster: 'kafkaGroupLens.editCluster',
  removeCluster: 'kafkaGroupLens.removeCluster',
  testCluster: 'kafkaGroupLens.testCluster',
  resetOffsets: 'kafkaGroupLens.resetOffsets',
  importResetPlan: 'kafkaGroupLens.importResetPlan',
  undoLastReset: 'kafkaGroupLens.undoLastReset',
  deleteGroup: 'kafkaGroupLens.deleteGroup',
  deleteOffsets: 'kafkaGroupLens.deleteOffsets',
  removeStaticMember: 'kafkaGroupLens.removeStaticMember',
  removeStaticMembers: 'kafkaGroupLens.removeStaticMembers',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** Context key set while a simulator source is registered; palette entries of cluster-level simulator commands use it. */
export const SIMULATOR_ACTIVE_CONTEXT = 'kafkaGroupLens.simulatorActive';
