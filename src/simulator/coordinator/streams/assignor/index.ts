/** Kafka 4.4's streams-group task assignors (group.streams.assignors); 4.4 ships only the sticky one. */
export { assignStickyTasks, STICKY_ASSIGNOR_NAME } from './stickyTaskAssignor';
export * from './types';
