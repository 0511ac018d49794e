/**
 * What every room of the simulator shares, as Kafka's clients and broker share org.apache.kafka.common:
 * the virtual clock (common.utils.Time and Timer), a seeded random, the Errors names and ApiException
 * (common.protocol.Errors, common.errors), the decoded group requests and responses (common.requests),
 * RE2/J topic regexes, Java's hash order, the event log, and the simulator's control vocabulary.
 * It imports nothing of the simulator.
 */
export { VirtualClock, type ScheduledTask } from './clock';
export { SeededRandom } from './random';
export { KafkaApiError, type KafkaErrorCode } from './errors';
export { EventLog } from './eventLog';
export type { ConsumerSpec, ProducerSpec, SimulatorControl } from './control';
