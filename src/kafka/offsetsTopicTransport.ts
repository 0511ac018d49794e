/** OffsetsTopicTransport over KafkaSource's kafkajs connections: Metadata, ListOffsets and Fetch as typed requests. */
import { sendRequest, type KafkajsBroker } from './kafkajsBridge';
import { describeErrorCode, KafkaErrorCode, UNKNOWN_TOPIC_OR_PARTITION } from './kafkaErrors';
import { isAccessErrorCode, OFFSETS_TOPIC, OffsetsTopicAccessError, type EarliestOffset, type OffsetsTopicTransport } from './offsetsTopicReader';
import { fetchRequest, type FetchLimits, type FetchPosition, type FetchResult } from './requests/fetchRequest';
import { EARLIEST_TIMESTAMP, listOffsetsRequest, READ_UNCOMMITTED, type MetadataResult } from './requests/offsetRequests';

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
}
