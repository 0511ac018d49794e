/**
 * The transactional producer, org.apache.kafka.clients.producer.internals.TransactionManager with the
 * transaction coordinator it needs: begin, produce, sendOffsetsToTransaction (TxnOffsetCommit), commit or abort.
 */
export { TransactionalProducer } from './transactionalProducer';
