/**
 * The engine's side of a share group's timeline: each batch it writes goes, mapped onto the consumer group's
 * records (timeline/shareGroupRecords), through the one derivation of events from records that the real-cluster
 * reader of __consumer_offsets uses too, so both sources draw the same timeline. The share-state partition
 * metadata (record 15) maps to nothing: it is delivery state, not membership.
 */
import type { RebalanceEvent } from '../../../model/types';
import { MappedGroupEventRecorder } from '../../../timeline/mappedGroupEvents';
import { asConsumerGroupRecord, type ShareGroupRecord } from '../../../timeline/shareGroupRecords';
import type { TopicMetadataImage } from '../group/modern/consumer/types';

export class ShareGroupEventRecorder extends MappedGroupEventRecorder<ShareGroupRecord> {
  constructor(sink: (event: RebalanceEvent) => void, now: () => number, metadataImage: TopicMetadataImage) {
    super('share', asConsumerGroupRecord, (topicId) => metadataImage.topicById(topicId)?.name, sink, now);
  }
}
