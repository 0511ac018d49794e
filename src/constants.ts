/**
 * Every id the extension shares with package.json's `contributes`: command ids, view and webview ids, context
 * keys and setting keys. In one place so registrations, `when` clauses and settings cannot drift from the
 * manifest (test/unit/constants.test.ts checks each list against package.json both ways). No imports: every
 * layer of the extension may read it.
 */

/** The extension's prefix: the activity-bar container id and the section of its settings. */
export const EXTENSION_SECTION = 'kafkaGroupLens';

export const COMMANDS = {
  refresh: 'kafkaGroupLens.refresh',
  retry: 'kafkaGroupLens.retry',
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
  resetPartitionOffsets: 'kafkaGroupLens.resetPartitionOffsets',
  importResetPlan: 'kafkaGroupLens.importResetPlan',
  undoLastReset: 'kafkaGroupLens.undoLastReset',
  deleteGroup: 'kafkaGroupLens.deleteGroup',
  deleteOffsets: 'kafkaGroupLens.deleteOffsets',
  removeStaticMember: 'kafkaGroupLens.removeStaticMember',
  removeStaticMembers: 'kafkaGroupLens.removeStaticMembers',
  findHangingTransactions: 'kafkaGroupLens.findHangingTransactions',
  abortTransaction: 'kafkaGroupLens.abortTransaction',
  openTimeline: 'kafkaGroupLens.openTimeline',
  openDashboard: 'kafkaGroupLens.openDashboard',
  filterGroups: 'kafkaGroupLens.filterGroups',
  clearGroupFilter: 'kafkaGroupLens.clearGroupFilter',
  sortGroups: 'kafkaGroupLens.sortGroups',
  findGroup: 'kafkaGroupLens.findGroup',
  revealWorstGroup: 'kafkaGroupLens.revealWorstGroup',
  copyGroupId: 'kafkaGroupLens.copyGroupId',
  copyMemberId: 'kafkaGroupLens.copyMemberId',
  copyOffsets: 'kafkaGroupLens.copyOffsets',
  copyPartitionOffsets: 'kafkaGroupLens.copyPartitionOffsets',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** Tree views, by the id package.json's `views` gives them. */
export const VIEWS = {
  groups: 'kafkaGroupLens.groups',
} as const;

/** Webview panel types; a restorable panel's type also names its `onWebviewPanel:` activation event. */
export const WEBVIEW_PANELS = {
  timeline: 'kafkaGroupLens.timeline',
  dashboard: 'kafkaGroupLens.groupDashboard',
} as const;

/** Context keys the extension sets (`setContext`) for `when` clauses. */
export const CONTEXT_KEYS = {
  /** Set while a simulator source is registered; palette entries of cluster-level simulator commands use it. */
  simulatorActive: 'kafkaGroupLens.simulatorActive',
  /** Set while the view's group filter hides groups; shows Clear Filter on the view's title bar. */
  groupFilterActive: 'kafkaGroupLens.groupFilterActive',
  /** Set while any cluster (the simulator or a real one) is registered; the agent's cluster tools need one. */
  hasClusters: 'kafkaGroupLens.hasClusters',
} as const;

/** Setting keys, in full (`workspace.getConfiguration().get(SETTINGS.x)`). */
export const SETTINGS = {
  refreshIntervalSeconds: 'kafkaGroupLens.refreshIntervalSeconds',
  simulatorEnabled: 'kafkaGroupLens.simulator.enabled',
  simulatorSpeed: 'kafkaGroupLens.simulator.speed',
  simulatorScenario: 'kafkaGroupLens.simulator.scenario',
  clusters: 'kafkaGroupLens.clusters',
  readCommittedGroups: 'kafkaGroupLens.readCommittedGroups',
  healthWindowMinutes: 'kafkaGroupLens.health.windowMinutes',
  healthStoppedAfterMinutes: 'kafkaGroupLens.health.stoppedAfterMinutes',
  healthLagInTimeWarningSeconds: 'kafkaGroupLens.health.lagInTimeWarningSeconds',
  healthSampleMemoryMiB: 'kafkaGroupLens.health.sampleMemoryMiB',
} as const;
