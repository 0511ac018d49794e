/**
 * One coordinator shard (Kafka's GroupCoordinatorShard): the group and offset managers of the
 * `__consumer_offsets` partitions the broker leads, the requests that need both (DeleteGroups, the
 * transaction marker), and the housekeeping timer that expires offsets and removes empty groups.
 */
import type { ScheduledTask, VirtualClock } from '../../common/clock';
import type { CoordinatorConfig } from './coordinatorConfig';
import type { CoordinatorRecordWriter } from './coordinatorRecords';
import type { EventLog } from '../../common/eventLog';
import { GroupEvents } from './groupEvents';
import { GroupMetadataManager, type ConsumerGroupSeams } from './groupMetadataManager';
import { OffsetMetadataManager, type PartitionExists } from './offsetMetadataManager';
import type { DeleteGroupsRequest, DeleteGroupsResponse } from '../../common/requests';
import type { SeededRandom } from '../../common/random';
import type { TransactionResult } from '../../log/transactionIndex';

export class GroupCoordinatorShard {
  readonly groupMetadataManager: GroupMetadataManager;
  readonly offsetMetadataManager: OffsetMetadataManager;
  private cleanupTask: ScheduledTask | null = null;

  constructor(
    private readonly clock: VirtualClock,
    random: SeededRandom,
    events: EventLog,
    partitionExists: PartitionExists,
    private readonly config: CoordinatorConfig,
    consumerGroupSeams: ConsumerGroupSeams,
    records?: CoordinatorRecordWriter,
  ) {
    const groupEvents = new GroupEvents(clock, events, records);
    this.groupMetadataManager = new GroupMetadataManager(clock, random, config, groupEvents, consumerGroupSeams);
    this.offsetMetadataManager = new OffsetMetadataManager(clock, config, groupEvents, this.groupMetadataManager, partitionExists);
    this.scheduleCleanup();
  }

  dispose(): void {
    this.clock.cancel(this.cleanupTask);
  }

  /** GroupCoordinatorShard.deleteGroups: each group is validated, loses its offsets, then goes. */
  deleteGroups(request: DeleteGroupsRequest): DeleteGroupsResponse {
    const results = request.groupsNames.map((groupId) => {
      const errorCode = this.groupMetadataManager.validateDeleteGroup(groupId);
      if (errorCode === 'NONE') {
        this.deleteGroup(groupId, 'deleted by a DeleteGroups request');
      }
      return { groupId, errorCode };
    });
    return { results };
  }

  /** GroupCoordinatorShard.replayEndTransactionMarker */
  replayEndTransactionMarker(groupId: string, producerId: number, result: TransactionResult): void {
    this.offsetMetadataManager.replayEndTransactionMarker(groupId, producerId, result);
  }

  /** The groups with offsets of `producerId`'s open transaction, which its markers must reach. */
  groupsInTransaction(producerId: number): string[] {
    return this.offsetMetadataManager.pendingOffsets.groupsOf(producerId);
  }

  private deleteGroup(groupId: string, cause: string): void {
    const group = this.groupMetadataManager.group(groupId);
    if (group) {
      this.offsetMetadataManager.deleteAllOffsets(group);
      this.groupMetadataManager.deleteGroup(groupId, cause);
    }
  }

  private scheduleCleanup(): void {
    this.cleanupTask = this.clock.schedule(this.config.offsetsRetentionCheckIntervalMs, () => {
      this.cleanupGroupMetadata();
      this.scheduleCleanup();
    });
  }

  /** Offset expiry and removal of empty groups without offsets (GroupCoordinatorShard.cleanupGroupMetadata). */
  private cleanupGroupMetadata(): void {
    const now = this.clock.now;
    for (const group of this.groupMetadataManager.allGroups()) {
      // A group with an open transaction's offsets stays (OffsetMetadataManager.cleanupExpiredOffsets).
      if (this.offsetMetadataManager.cleanupExpiredOffsets(group, now) && group.isEmpty()) {
        this.deleteGroup(group.groupId, 'every offset expired and the group is empty');
      }
    }
  }
}
