/**
 * What OffsetsTopicReader needs from a cluster (OffsetsTopicTransport), and its implementation over
 * KafkaSource's kafkajs connections: Metadata, ListOffsets and Fetch as typed requests.
 */
import { OFFSETS_TOPIC } from '../protocol/offsetsPartition';
import { sendRequest, type KafkajsBroker } from './kafkajsBridge';
import { CLUSTER_AUTHORIZATION_FAILED, describeErrorCode, KafkaErrorCode, TOPIC_AUTHORIZATION_FAILED, UNKNOWN_TOPIC_OR_PARTITION } from './kafkaErrors';
import { fetchRequest, type FetchLimits, type FetchPosition, type FetchResult } from './requests/fetchRequest';
import { EARLIEST_TIMESTAMP, listOffsetsRequest, READ_UNCOMMITTED, ZERO_UUID, type MetadataResult } from './requests/offsetRequests';
import { ApiKeys } from '../protocol/messages/apis';
import { MetadataRequest } from '../protocol/messages/metadataRequest';
import { MetadataResponse } from '../protocol/messages/metadataResponse';
import { apiCall, requestSpec, type RequestSpec } from './requests/apiCall';

export interface EarliestOffset {
  partition: number;
  errorCode: number;
  offset: number;
}

/** What the reader needs from a cluster connection. */
export interface OffsetsTopicTransport {
  /**
   * Leader node id per partition (index = partition, -1 when it has none), or null while the topic
   * does not exist. Throws OffsetsTopicAccessError when the user may not describe the topic.
   */
  partitionLeaders(): Promise<number[] | null>;
  /** Log start offsets of partitions led by `leader`. */
  earliestOffsets(leader: number, partitions: readonly number[]): Promise<EarliestOffset[]>;
  fetch(leader: number, positions: readonly FetchPosition[], limits: FetchLimits): Promise<FetchResult>;
  /**
   * Names of topics by id (KIP-848 records name topics by id); ids the cluster does not know are
   * left out. Optional: without it the timeline shows the ids.
   */
  topicNames?(leader: number, topicIds: readonly string[]): Promise<Map<string, string>>;
}

/** Metadata asking for topics by id alone (v12+, KIP-516), never creating any: id → name of those that exist. */
export function topicNamesRequest(topicIds: readonly string[]): RequestSpec<Map<string, string>> {
  return requestSpec(ApiKeys.Metadata, 12, 13, (version) =>
    apiCall(MetadataRequest, MetadataResponse, version, { topics: topicIds.map((topicId) => ({ topicId, name: null })), allowAutoTopicCreation: false }, (answer) => {
      if ((answer.errorCode ?? 0) !== 0) {
        throw new KafkaErrorCode(answer.errorCode ?? 0, 'Metadata');
      }
      return new Map(answer.topics.flatMap((t) =>
        t.errorCode === 0 && t.name !== null && t.topicId !== undefined && t.topicId !== ZERO_UUID ? [[t.topicId, t.name] as const] : []));
    }),
  );
}

/** The user may not read `__consumer_offsets` (ACLs): only polling can show rebalances then. */
export class OffsetsTopicAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OffsetsTopicAccessError';
  }
}

const ACCESS_ERROR_CODES: ReadonlySet<number> = new Set([TOPIC_AUTHORIZATION_FAILED, CLUSTER_AUTHORIZATION_FAILED]);

/** Error codes that mean the user may not read the topic, so retrying is pointless. */
export function isAccessErrorCode(errorCode: number): boolean {
  return ACCESS_ERROR_CODES.has(errorCode);
}

export class ClusterOffsetsTopicTransport implements OffsetsTopicTransport {
  /** The topic's id from the Metadata that gave the leaders (Fetch v13+ names topics by id); null before or without one. */
  private topicId: string | null = null;

  /**
   * @param metadata Metadata that includes `__consumer_offsets` (and leaves kafkajs knowing every broker).
   * @param broker The connected broker with a node id.
   */
  constructor(
    private readonly metadata: () => Promise<MetadataResult>,
    private readonly broker: (nodeId: number) => Promise<KafkajsBroker>,
  ) {}

  async partitionLeaders(): Promise<number[] | null> {
    const topic = (await this.metadata()).topics.find((t) => t.topic === OFFSETS_TOPIC);
    if (!topic || topic.errorCode === UNKNOWN_TOPIC_OR_PARTITION) {
      return null;
    }
    if (isAccessErrorCode(topic.errorCode)) {
      throw new OffsetsTopicAccessError(`Metadata of ${OFFSETS_TOPIC}: ${describeErrorCode(topic.errorCode)}`);
    }
    if (topic.errorCode !== 0) {
      throw new KafkaErrorCode(topic.errorCode, `Metadata of ${OFFSETS_TOPIC}`);
    }
    this.topicId = topic.topicId;
    const leaders = new Array<number>(topic.partitions.length).fill(-1);
    for (const p of topic.partitions) {
      if (p.partition < 0 || p.partition >= leaders.length) {
        throw new Error(`Metadata of ${OFFSETS_TOPIC} lists partition ${p.partition} of ${leaders.length}`);
      }
      leaders[p.partition] = p.leader;
    }
    return leaders;
  }

  async earliestOffsets(leader: number, partitions: readonly number[]): Promise<EarliestOffset[]> {
    const broker = await this.broker(leader);
    const answers = await sendRequest(broker, listOffsetsRequest(READ_UNCOMMITTED, EARLIEST_TIMESTAMP, partitions.map((partition) => ({ topic: OFFSETS_TOPIC, partition }))));
    return answers.map(({ partition, errorCode, offset }) => ({ partition, errorCode, offset }));
  }

  async fetch(leader: number, positions: readonly FetchPosition[], limits: FetchLimits): Promise<FetchResult> {
    const broker = await this.broker(leader);
    return sendRequest(broker, fetchRequest({ topic: OFFSETS_TOPIC, topicId: this.topicId }, positions, limits));
  }

  async topicNames(leader: number, topicIds: readonly string[]): Promise<Map<string, string>> {
    return sendRequest(await this.broker(leader), topicNamesRequest(topicIds));
  }
}
