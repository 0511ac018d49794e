/**
 * The group coordinator's writes onto the cluster's `__consumer_offsets` (Kafka's CoordinatorRuntime
 * PartitionWriter with the GroupCoordinatorRecordSerde): which partition a group's records go to, and
 * how the log encodes them and keys them for compaction.
 */
import type { VirtualClock } from '../../common/clock';
import type { CoordinatorRecordLog } from '../../log/coordinatorRecordLog';
import { encodeCoordinatorRecord, recordKeyId, type CoordinatorRecord, type CoordinatorRecordWriter } from './coordinatorRecords';
import type { RecordSerde } from '../../log/storedBatches';
import type { TransactionResult } from '../../log/transactionIndex';

/** GroupCoordinatorRecordSerde: the log's view of a group coordinator record. */
export const GROUP_COORDINATOR_RECORD_SERDE: RecordSerde<CoordinatorRecord> = { keyId: recordKeyId, encode: encodeCoordinatorRecord };

/** The coordinator's writer onto the cluster's `__consumer_offsets`: each group's records go to its partition, stamped with the virtual time. */
export class OffsetsTopicWriter implements CoordinatorRecordWriter {
  constructor(
    private readonly clock: Pick<VirtualClock, 'now'>,
    private readonly partitionOf: (groupId: string) => CoordinatorRecordLog,
  ) {}

  write(groupId: string, records: readonly CoordinatorRecord[], producerId?: number): void {
    this.partitionOf(groupId).append(records, this.clock.now, producerId ?? null);
  }

  endTransaction(groupId: string, producerId: number, result: TransactionResult): void {
    this.partitionOf(groupId).endTransaction(producerId, result, this.clock.now);
  }
}
