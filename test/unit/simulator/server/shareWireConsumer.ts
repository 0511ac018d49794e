/** A share consumer's requests through the generated codecs, as KafkaShareConsumer sends them, for the server tests. */
import assert from 'node:assert/strict';
import { ShareAcknowledgeRequest, type AcknowledgementBatch } from '../../../../src/protocol/messages/shareAcknowledgeRequest';
import { ShareAcknowledgeResponse, type ShareAcknowledgeResponseData } from '../../../../src/protocol/messages/shareAcknowledgeResponse';
import { ShareFetchRequest, type ShareFetchRequestData } from '../../../../src/protocol/messages/shareFetchRequest';
import { ShareFetchResponse, type ShareFetchResponseData } from '../../../../src/protocol/messages/shareFetchResponse';
import { ShareGroupHeartbeatRequest } from '../../../../src/protocol/messages/shareGroupHeartbeatRequest';
import { ShareGroupHeartbeatResponse, type ShareGroupHeartbeatResponseData } from '../../../../src/protocol/messages/shareGroupHeartbeatResponse';
import { codecExchange, coordinatorPort, leaderPort, type ServerUnderTest } from './serverTestKit';
import { WireConnection } from './wireConnection';

/** Joins `groupId` subscribed to `topic` and heartbeats, with a bound, until every partition is assigned to it; returns its member epoch. */
export async function joinShareGroup(env: ServerUnderTest, groupId: string, memberId: string, topic: string): Promise<number> {
  const port = coordinatorPort(env, groupId);
  const partitions = env.sim.cluster.requireTopic(topic).partitions.length;
  let response = await codecExchange(port, ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, { groupId, memberId, memberEpoch: 0, rackId: null, subscribedTopicNames: [topic] });
  const deadline = Date.now() + 10_000;
  while ((response.assignment?.topicPartitions[0]?.partitions.length ?? 0) < partitions) {
    assert.equal(response.errorCode, 0, response.errorMessage ?? '');
    assert.ok(Date.now() < deadline, `${memberId} got no partitions of ${topic} by the deadline`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    response = await shareHeartbeat(env, groupId, memberId, response.memberEpoch);
  }
  return response.memberEpoch;
}

/** One ShareGroupHeartbeat of a member that already joined. */
export function shareHeartbeat(env: ServerUnderTest, groupId: string, memberId: string, memberEpoch: number): Promise<ShareGroupHeartbeatResponseData> {
  return codecExchange(coordinatorPort(env, groupId), ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse, 1, { groupId, memberId, memberEpoch, rackId: null, subscribedTopicNames: null });
}

export type AckBatch = Pick<AcknowledgementBatch, 'acknowledgeTypes'> & { firstOffset: number; lastOffset: number };

/** One member's share session on one broker's connection: epochs counted as the client counts them. */
export class ShareWireConsumer {
  epoch = 0;

  constructor(readonly connection: WireConnection, readonly groupId: string, readonly memberId: string, private readonly version = 2) {}

  /** A ShareFetch of these partitions (and acknowledgements), at the session's epoch; the epoch moves on unless the request failed. */
  async fetch(partitions: { topicId: string; partition: number; acks?: AckBatch[] }[], options: Partial<Pick<ShareFetchRequestData, 'maxWaitMs' | 'maxRecords' | 'maxBytes' | 'batchSize' | 'shareAcquireMode'>> & { epoch?: number } = {}): Promise<ShareFetchResponseData> {
    const epoch = options.epoch ?? this.epoch;
    const byTopic = new Map<string, ShareFetchRequestData['topics'][number]>();
    for (const p of partitions) {
      const topic = byTopic.get(p.topicId) ?? { topicId: p.topicId, partitions: [] };
      topic.partitions.push({ partitionIndex: p.partition, acknowledgementBatches: (p.acks ?? []).map((a) => ({ firstOffset: BigInt(a.firstOffset), lastOffset: BigInt(a.lastOffset), acknowledgeTypes: a.acknowledgeTypes })) });
      byTopic.set(p.topicId, topic);
    }
    const response = await this.connection.request(ShareFetchRequest, ShareFetchResponse, this.version, {
      groupId: this.groupId, memberId: this.memberId, shareSessionEpoch: epoch,
      maxWaitMs: options.maxWaitMs ?? 0, minBytes: 1, maxBytes: options.maxBytes ?? 52_428_800, maxRecords: options.maxRecords ?? 500, batchSize: options.batchSize ?? 500,
      shareAcquireMode: options.shareAcquireMode ?? 0, isRenewAck: false,
      topics: [...byTopic.values()], forgottenTopicsData: [],
    });
    if (response.errorCode === 0 && options.epoch === undefined) {
      this.epoch = epoch === -1 ? 0 : epoch === 2147483647 ? 1 : epoch + 1;
    }
    return response;
  }

  /** A ShareAcknowledge at the session's epoch (-1 closes the session). */
  async acknowledge(partitions: { topicId: string; partition: number; acks: AckBatch[] }[], epoch = this.epoch): Promise<ShareAcknowledgeResponseData> {
    const response = await this.connection.request(ShareAcknowledgeRequest, ShareAcknowledgeResponse, this.version, {
      groupId: this.groupId, memberId: this.memberId, shareSessionEpoch: epoch, isRenewAck: false,
      topics: partitions.map((p) => ({ topicId: p.topicId, partitions: [{ partitionIndex: p.partition, acknowledgementBatches: p.acks.map((a) => ({ firstOffset: BigInt(a.firstOffset), lastOffset: BigInt(a.lastOffset), acknowledgeTypes: a.acknowledgeTypes })) }] })),
    });
    if (response.errorCode === 0 && epoch === this.epoch) {
      this.epoch = epoch === -1 ? 0 : epoch + 1;
    }
    return response;
  }
}

/** The acquired ranges of one partition in a ShareFetch response, as [first, last, deliveryCount]. */
export function acquiredOf(response: ShareFetchResponseData, topicId: string, partition: number): [number, number, number][] {
  const data = response.responses.find((t) => t.topicId === topicId)?.partitions.find((p) => p.partitionIndex === partition);
  return (data?.acquiredRecords ?? []).map((r) => [Number(r.firstOffset), Number(r.lastOffset), r.deliveryCount]);
}

/**
 * A share consumer that keeps fetching every partition of `topic` from its leaders, accepting what it acquired
 * in its next fetch, and heartbeating, until `stop()`; it fails on any error the server answers it with.
 */
export class LiveShareConsumer {
  acquired = 0;
  readonly failures: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly env: ServerUnderTest, private readonly groupId: string, private readonly memberId: string, private readonly topic: string) {}

  async start(): Promise<void> {
    let memberEpoch = await joinShareGroup(this.env, this.groupId, this.memberId, this.topic);
    const topic = this.env.sim.cluster.requireTopic(this.topic);
    const leaders = new Map<number, number[]>();
    topic.leaders.forEach((leader, partition) => leaders.set(leader, [...(leaders.get(leader) ?? []), partition]));
    const sessions = await Promise.all([...leaders].map(async ([, partitions]) => ({
      partitions,
      consumer: new ShareWireConsumer(await WireConnection.open(leaderPort(this.env, this.topic, partitions[0])), this.groupId, this.memberId),
      acks: new Map<number, AckBatch[]>(),
    })));
    let heartbeatAt = Date.now();
    const fetchLoop = async (session: (typeof sessions)[number]): Promise<void> => {
      while (!this.stopped) {
        const response = await session.consumer.fetch(session.partitions.map((partition) => ({ topicId: topic.topicId, partition, acks: session.acks.get(partition) ?? [] })), { maxWaitMs: 100 });
        session.acks.clear();
        if (response.errorCode !== 0) {
          this.failures.push(`ShareFetch: ${response.errorCode} ${response.errorMessage ?? ''}`);
          return;
        }
        for (const partition of response.responses.flatMap((t) => t.partitions)) {
          if (partition.errorCode !== 0 || partition.acknowledgeErrorCode !== 0) {
            this.failures.push(`partition ${partition.partitionIndex}: ${partition.errorCode} ${partition.acknowledgeErrorCode} ${partition.errorMessage ?? partition.acknowledgeErrorMessage ?? ''}`);
          }
          const ranges = acquiredOf(response, topic.topicId, partition.partitionIndex);
          this.acquired += ranges.reduce((n, [first, last]) => n + last - first + 1, 0);
          session.acks.set(partition.partitionIndex, ranges.map(([first, last]) => ({ firstOffset: first, lastOffset: last, acknowledgeTypes: [1] })));
        }
        if (Date.now() - heartbeatAt > 1_000) {
          heartbeatAt = Date.now();
          const beat = await shareHeartbeat(this.env, this.groupId, this.memberId, memberEpoch);
          memberEpoch = beat.errorCode === 0 ? beat.memberEpoch : memberEpoch;
          if (beat.errorCode !== 0) {
            this.failures.push(`ShareGroupHeartbeat: ${beat.errorCode}`);
          }
        }
      }
      session.consumer.connection.close();
    };
    this.running = Promise.all(sessions.map(fetchLoop)).then(() => undefined, (error: Error) => {
      this.failures.push(error.message);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
