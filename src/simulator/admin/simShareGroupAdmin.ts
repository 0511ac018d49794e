/**
 * The share-group offset operations over the simulator (kafka-share-groups.sh's, as ShareGroupAdmin names them):
 * start offsets from the share coordinator's state, AlterShareGroupOffsets and DeleteShareGroupOffsets through
 * the engine's own requests, so the reset flow's preview, re-check, Execute and Undo behave as on a broker.
 */
import type { CommittedOffset, PartitionResult, ShareGroupAdmin, ShareOffsetDeletion, ShareStartOffset } from '../../model/groupAdmin';
import type { GroupState } from '../../model/types';
import { errorCodeOf, kafkaError } from '../../protocol/errorCodes';
import { KafkaApiError } from '../common/errors';
import type { Respond } from '../common/requests';
import type { AlterShareOffsetsTopicResult, DeleteShareOffsetsTopicResult } from '../coordinator/share/shareGroupOffsetRecords';
import type { Simulation } from '../simulation';
import { coordinatorRequest } from './coordinatorRequest';
import { describeShareGroupOffsets } from './shareGroupOffsets';

const refusal = (error: KafkaApiError): string => `${error.errorName}: ${error.message}`;
/** An Errors name with Kafka's message for it, as the broker's answer reads. */
const described = (name: string): string => `${name}: ${kafkaError(errorCodeOf(name))?.message ?? ''}`;

export class SimShareGroupAdmin implements ShareGroupAdmin {
  constructor(private readonly simulation: Simulation) {}

  private request<T>(send: (respond: Respond<T>) => void): T {
    return coordinatorRequest(this.simulation, send);
  }

  async shareGroupState(groupId: string): Promise<GroupState | 'missing'> {
    return this.simulation.coordinator.shareGroup(groupId)?.state ?? 'missing';
  }

  async shareStartOffsets(groupId: string): Promise<ShareStartOffset[]> {
    return describeShareGroupOffsets(this.simulation, groupId, null).flatMap((topic) =>
      topic.partitions.map((p) => ({ topic: topic.topicName, partition: p.partitionIndex, startOffset: p.startOffset >= 0 ? p.startOffset : null })));
  }

  async alterShareGroupOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> {
    if (offsets.length === 0) {
      return [];
    }
    const byTopic = new Map<string, { partitionIndex: number; startOffset: number }[]>();
    for (const { topic, partition, offset } of offsets) {
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), { partitionIndex: partition, startOffset: offset }]);
    }
    const topics = [...byTopic].map(([topicName, partitions]) => ({ topicName, partitions }));
    const result = this.request((respond: Respond<AlterShareOffsetsTopicResult[] | KafkaApiError>) => this.simulation.coordinator.alterShareGroupOffsets(groupId, topics, respond));
    if (result instanceof KafkaApiError) {
      return offsets.map(({ topic, partition }) => ({ topic, partition, error: refusal(result) }));
    }
    const errors = new Map(result.flatMap((t) => t.partitions.map((p) => [`${t.topicName}\u0000${p.partitionIndex}`, p.error] as const)));
    return offsets.map(({ topic, partition }) => {
      const error = errors.get(`${topic}\u0000${partition}`) ?? 'The coordinator did not answer for this partition';
      return error === 'NONE' ? { topic, partition } : { topic, partition, error: described(error) };
    });
  }

  async deleteShareGroupOffsets(groupId: string, topics: readonly string[]): Promise<ShareOffsetDeletion> {
    if (topics.length === 0) {
      throw new Error('deleteShareGroupOffsets needs at least one topic');
    }
    const result = this.request((respond: Respond<DeleteShareOffsetsTopicResult[] | KafkaApiError>) => this.simulation.coordinator.deleteShareGroupOffsets(groupId, topics, respond));
    if (result instanceof KafkaApiError) {
      return { error: refusal(result), topics: topics.map((topic) => ({ topic, error: refusal(result) })) };
    }
    const errors = new Map(result.map((t) => [t.topicName, t.error === 'NONE' ? null : `${t.error}: ${t.errorMessage ?? ''}`]));
    return { topics: topics.map((topic) => {
      const error = errors.get(topic);
      return error === null ? { topic } : { topic, error: error ?? 'The coordinator did not answer for this topic' };
    }) };
  }
}
