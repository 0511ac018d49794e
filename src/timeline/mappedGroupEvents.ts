/**
 * Events from a share or streams group's records as an engine writes them: each batch, mapped onto the
 * consumer group's records (shareGroupRecords.ts, streamsGroupRecords.ts), goes through the one derivation
 * the real-cluster reader of __consumer_offsets uses too, so both sources draw the same timeline.
 */
import type { RebalanceEvent } from '../model/types';
import { ConsumerGroupTimelines, type ModernGroupType, type OperationCause, type TopicNames } from './consumerGroupEvents';
import type { ConsumerGroupRecord } from './consumerGroupRecords';

export class MappedGroupEventRecorder<R> {
  private readonly timelines: ConsumerGroupTimelines;

  constructor(
    private readonly groupType: ModernGroupType,
    /** The consumer-group record of the same meaning; null for one that makes no event. */
    private readonly toConsumerRecord: (record: R) => ConsumerGroupRecord | null,
    topicName: TopicNames,
    private readonly sink: (event: RebalanceEvent) => void,
    private readonly now: () => number,
  ) {
    this.timelines = new ConsumerGroupTimelines(topicName);
  }

  record(groupId: string, records: readonly R[], cause: OperationCause): void {
    const mapped = records.flatMap((record) => {
      const consumerRecord = this.toConsumerRecord(record);
      return consumerRecord === null ? [] : [consumerRecord];
    });
    if (mapped.length === 0) {
      return;
    }
    for (const event of this.timelines.applyBatch(groupId, mapped, this.now(), cause, this.groupType)) {
      this.sink(event);
    }
  }
}
