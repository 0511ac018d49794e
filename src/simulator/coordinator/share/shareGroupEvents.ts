/**
 * The engine's side of a share group's timeline: each batch it writes goes, mapped onto the consumer group's
 * records (timeline/shareGroupRecords), through the one derivation of events from records that the real-cluster
 * reader of __consumer_offsets uses too, so both sources draw the same timeline. The share-state partition
 * metadata (record 15) maps to nothing: it is delivery state, not membership.
 */
import type { RebalanceEvent } from '../../../model/types';
import { ConsumerGroupTimelines, type OperationCause } from '../../../timeline/consumerGroupEvents';
import { asConsumerGroupRecord, type ShareGroupRecord } from '../../../timeline/shareGroupRecords';
import type { TopicMetadataImage } from '../group/modern/consumer/types';

export class ShareGroupEventRecorder {
  private readonly timelines: ConsumerGroupTimelines;

  constructor(private readonly sink: (event: RebalanceEvent) => void, private readonly now: () => number, metadataImage: TopicMetadataImage) {
    this.timelines = new ConsumerGroupTimelines((topicId) => metadataImage.topicById(topicId)?.name);
  }

  record(groupId: string, records: readonly ShareGroupRecord[], cause: OperationCause): void {
    const mapped = records.flatMap((record) => {
      const consumerRecord = asConsumerGroupRecord(record);
      return consumerRecord === null ? [] : [consumerRecord];
    });
    if (mapped.length === 0) {
      return;
    }
    for (const event of this.timelines.applyBatch(groupId, mapped, this.now(), cause, 'share')) {
      this.sink(event);
    }
  }
}
