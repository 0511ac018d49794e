/**
 * The producer, org.apache.kafka.clients.producer: the simulated KafkaProducer appending records at a
 * steady rate (producer.ts). Transactions are in internals/.
 */
export { SimulatedProducer, produceRecords } from './producer';
