/**
 * The simulated clients, as in Kafka's clients module (org.apache.kafka.clients): the consumer
 * (consumer/, with the group protocols in consumer/internals/) and the producer (producer/, with
 * transactions in producer/internals/). They reach the group coordinator only through
 * GroupCoordinatorClient (what a client's NetworkClient carries), and never import the coordinator.
 */
export type { GroupCoordinatorClient } from './groupCoordinatorClient';
export { SimulatedConsumer } from './consumer/consumer';
export { SimulatedProducer } from './producer/producer';
