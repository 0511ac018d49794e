/**
 * The consumer, org.apache.kafka.clients.consumer: the simulated KafkaConsumer's poll loop, fetch and
 * commits (consumer.ts) and its ConsumerConfig (consumerConfig.ts). The group protocols it runs are in internals/.
 */
export { SimulatedConsumer } from './consumer';
