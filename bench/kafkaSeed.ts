/**
 * Seeding the Kafka bench's groups fast, with our own client and bounded concurrency: topics with
 * records, classic groups by an admin OffsetCommit (as `--reset-offsets --execute` would), KIP-848
 * consumer groups by one ConsumerGroupHeartbeat join and leave over committed offsets (an Empty
 * `consumer` group that kafka-consumer-groups.sh describes), share groups by AlterShareGroupOffsets.
 */
import { randomUUID } from 'crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { BrokerHandle } from '../scripts/kafka/broker';
import type { KafkaSource } from '../src/kafka/kafkaSource';
import { sendRequest } from '../src/kafka/kafkajsBridge';
import { apiCall, requestSpec } from '../src/kafka/requests/apiCall';
import { mapWithConcurrency } from '../src/kafka/coordinatorBatches';
import { ApiKeys } from '../src/protocol/messages/apis';
import { ConsumerGroupHeartbeatRequest, type ConsumerGroupHeartbeatRequestData } from '../src/protocol/messages/consumerGroupHeartbeatRequest';
import { ConsumerGroupHeartbeatResponse } from '../src/protocol/messages/consumerGroupHeartbeatResponse';
import { describeError } from '../src/protocol/errorCodes';

export const PARTITIONS = 6;
export const RECORDS_PER_PARTITION = 50;
/** Seeding requests in flight at once. */
const SEED_CONCURRENCY = 32;

/** `streams`: offsets committed as for `classic` (an Empty classic group, which a streams member's first heartbeat turns into a streams group). */
export type SeededType = 'classic' | 'consumer' | 'share' | 'streams';

export interface SeededGroup {
  groupId: string;
  type: SeededType;
  topic: string;
  /** The lag the group should show: records past its offsets (share groups: none counted). */
  lag: number;
}

/** Creates the topics and fills each partition with RECORDS_PER_PARTITION records. */
export async function createTopics(broker: BrokerHandle, topics: readonly string[]): Promise<void> {
  const kafka = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: PARTITIONS })), waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  for (const topic of topics) {
    for (let partition = 0; partition < PARTITIONS; partition++) {
      await producer.send({ topic, messages: Array.from({ length: RECORDS_PER_PARTITION }, (_, i) => ({ partition, value: String(i) })) });
    }
  }
  await producer.disconnect();
}

/** The group's offsets: a lag that depends on its number, so groups differ. */
function offsetsOf(index: number, topic: string): Array<{ topic: string; partition: number; offset: number }> {
  return Array.from({ length: PARTITIONS }, (_, partition) => ({ topic, partition, offset: (index + partition) % RECORDS_PER_PARTITION }));
}

function heartbeat(data: ConsumerGroupHeartbeatRequestData) {
  return requestSpec(ApiKeys.ConsumerGroupHeartbeat, 0, 1, (version) => apiCall(ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, version, data, (answer) => answer));
}

/** One member joins the group with the `consumer` protocol and leaves: the group stays, Empty, with its offsets. */
async function joinAndLeave(source: KafkaSource, groupId: string, topic: string): Promise<void> {
  const broker = await source.connection.coordinatorBroker(groupId, await source.connection.topology());
  const memberId = randomUUID();
  const base: ConsumerGroupHeartbeatRequestData = { groupId, memberId, memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 60000, subscribedTopicNames: [topic], serverAssignor: null, topicPartitions: [] };
  const joined = await sendRequest(broker, heartbeat(base));
  if (joined.errorCode !== 0) {
    throw new Error(`ConsumerGroupHeartbeat join of ${groupId}: ${joined.errorMessage ?? describeError(joined.errorCode)}`);
  }
  const left = await sendRequest(broker, heartbeat({ ...base, memberId: joined.memberId ?? memberId, memberEpoch: -1, rebalanceTimeoutMs: -1, subscribedTopicNames: null, topicPartitions: null }));
  if (left.errorCode !== 0) {
    throw new Error(`ConsumerGroupHeartbeat leave of ${groupId}: ${left.errorMessage ?? describeError(left.errorCode)}`);
  }
}

/** Seeds the groups, SEED_CONCURRENCY at a time; the first failure stops the rest and is thrown. */
export async function seedGroups(source: KafkaSource, groups: readonly SeededGroup[]): Promise<void> {
  let failure: unknown;
  await mapWithConcurrency(groups, SEED_CONCURRENCY, async (group) => {
    if (failure === undefined) {
      await seedOne(source, group).catch((e: unknown) => {
        failure ??= e;
      });
    }
  });
  if (failure !== undefined) {
    throw failure;
  }
}

async function seedOne(source: KafkaSource, group: SeededGroup): Promise<void> {
  {
    const index = Number(group.groupId.slice(group.groupId.lastIndexOf('-') + 1));
    const offsets = offsetsOf(index, group.topic);
    const results = group.type === 'share' ? await source.admin.share.alterShareGroupOffsets(group.groupId, offsets) : await source.commitOffsets(group.groupId, offsets);
    const failed = results.find((r) => r.error);
    if (failed) {
      throw new Error(`seeding ${group.groupId} failed: ${failed.error}`);
    }
    if (group.type === 'consumer') {
      await joinAndLeave(source, group.groupId, group.topic);
    }
  }
}

/** `count` groups named `<prefix>-<type>-<n>`, types taken in turn from `types`, topics in turn from `topics`. */
export function plannedGroups(prefix: string, count: number, types: readonly SeededType[], topics: readonly string[]): SeededGroup[] {
  return Array.from({ length: count }, (_, i) => {
    const type = types[i % types.length];
    const topic = topics[i % topics.length];
    const lag = type === 'share' ? 0 : offsetsOf(i, topic).reduce((sum, o) => sum + RECORDS_PER_PARTITION - o.offset, 0);
    return { groupId: `${prefix}-${type}-${i}`, type, topic, lag };
  });
}
