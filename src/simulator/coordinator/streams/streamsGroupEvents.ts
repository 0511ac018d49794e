/**
 * The engine's side of a streams group's timeline: each batch it writes goes, mapped onto the consumer
 * group's records (timeline/streamsGroupRecords), through the one derivation of events from records that
 * the real-cluster reader of __consumer_offsets uses too, so both sources draw the same timeline.
 */
import type { RebalanceEvent } from '../../../model/types';
import { MappedGroupEventRecorder } from '../../../timeline/mappedGroupEvents';
import { asConsumerGroupRecord, type StreamsGroupRecord } from '../../../timeline/streamsGroupRecords';

export class StreamsGroupEventRecorder extends MappedGroupEventRecorder<StreamsGroupRecord> {
  constructor(sink: (event: RebalanceEvent) => void, now: () => number) {
    // A streams group's "topics" are its subtopologies, named by the mapping itself: no id to resolve.
    super('streams', asConsumerGroupRecord, () => undefined, sink, now);
  }
}
