/** A transactional client's requests through the generated codecs, as a Kafka 4.x producer sends them. */
import { strict as assert } from 'node:assert';
import { InitProducerIdRequest } from '../../../../src/protocol/messages/initProducerIdRequest';
import { InitProducerIdResponse } from '../../../../src/protocol/messages/initProducerIdResponse';
import { ProduceRequest } from '../../../../src/protocol/messages/produceRequest';
import { ProduceResponse } from '../../../../src/protocol/messages/produceResponse';
import { encodeRecordBatch } from '../../../../src/protocol/recordBatch';
import { codecExchange, leaderPort, type ServerUnderTest } from './serverTestKit';

export interface ProducerIdAndEpoch {
  producerId: bigint;
  producerEpoch: number;
}

/** InitProducerId v5 for a transactional id, at the transaction coordinator's `port`. */
export async function initTransactionalProducer(port: number, transactionalId: string, transactionTimeoutMs = 60000): Promise<ProducerIdAndEpoch> {
  const response = await codecExchange(port, InitProducerIdRequest, InitProducerIdResponse, 5, { transactionalId, transactionTimeoutMs, producerId: -1n, producerEpoch: -1 });
  assert.equal(response.errorCode, 0, `InitProducerId ${transactionalId}`);
  return { producerId: response.producerId, producerEpoch: response.producerEpoch };
}

/** One transactional batch of `records` records to `topic`-`partition` at its leader; returns the partition's error code. */
export async function produceTransactional(
  t: ServerUnderTest,
  version: number,
  transactionalId: string,
  producer: ProducerIdAndEpoch,
  topic: string,
  partition: number,
  records: number,
  baseSequence = 0,
): Promise<number> {
  const batch = encodeRecordBatch({
    baseOffset: 0n, baseTimestamp: 1_700_000_000_000n, producerId: producer.producerId, producerEpoch: producer.producerEpoch, baseSequence, transactional: true,
    records: Array.from({ length: records }, (_, i) => ({ value: Buffer.from(`r${i}`) })),
  });
  const response = await codecExchange(leaderPort(t, topic, partition), ProduceRequest, ProduceResponse, version, {
    transactionalId, acks: -1, timeoutMs: 5000,
    topicData: [{ name: topic, topicId: t.sim.cluster.requireTopic(topic).topicId, partitionData: [{ index: partition, records: batch }] }],
  });
  return response.responses[0].partitionResponses[0].errorCode;
}
