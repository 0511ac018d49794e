/**
 * The consumer's group machinery, org.apache.kafka.clients.consumer.internals: for the classic
 * protocol ClassicKafkaConsumer's ConsumerCoordinator with AbstractCoordinator's HeartbeatThread and
 * Heartbeat timers, and the leader's assignment; for KIP-848 AsyncKafkaConsumer's ConsumerMembershipManager
 * and its heartbeat (heartbeatRequestManager.ts, AbstractHeartbeatRequestManager); shared by both, the committed offsets and the owned
 * partitions (SubscriptionState).
 */
export { ConsumerCoordinator } from './consumerCoordinator';
export { HeartbeatThread } from './heartbeatThread';
export { ClassicGroupClient } from './consumerClassicClient';
export { ConsumerProtocolClient } from './consumerProtocolClient';
