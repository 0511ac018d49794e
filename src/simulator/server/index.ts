/**
 * The simulator as a Kafka broker on a socket, after Kafka's kafka.server (SocketServer, KafkaApis):
 * framing, request headers, and the APIs the clients and admin tools send, on the generated codecs
 * (src/protocol). cli.ts runs it (`npm run simulator`).
 */
export { SimKafkaServer } from './kafkaServer';
