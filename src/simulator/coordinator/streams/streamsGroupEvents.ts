/**
 * The engine's side of a streams group's timeline: each batch it writes goes, mapped onto the consumer
 * group's records (timeline/streamsGroupRecords), through the one derivation of events from records that
 * the real-cluster reader of __consumer_offsets uses too, so both sources draw the same timeline.
 */
import type { RebalanceEvent } from '../../../model/types';
import { ConsumerGroupTimelines, type OperationCause } from '../../../timeline/consumerGroupEvents';
import { asConsumerGroupRecord, type StreamsGroupRecord } from '../../../timeline/streamsGroupRecords';

export class StreamsGroupEventRecorder {
  /** A streams group's "topics" are its subtopologies, named by the mapping itself: no id to resolve. */
  private readonly timelines = new ConsumerGroupTimelines(() => undefined);

  constructor(private readonly sink: (event: RebalanceEvent) => void, private readonly now: () => number) {}

  record(groupId: string, records: readonly StreamsGroupRecord[], cause: OperationCause): void {
    const mapped = records.flatMap((record) => {
      const consumerRecord = asConsumerGroupRecord(record);
      return consumerRecord === null ? [] : [consumerRecord];
    });
    for (const event of this.timelines.applyBatch(groupId, mapped, this.now(), cause, 'streams')) {
      this.sink(event);
    }
  }
}
