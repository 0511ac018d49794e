/**
 * Committed offsets on the coordinator (Kafka's OffsetMetadataManager): OffsetCommit,
 * TxnOffsetCommit, OffsetFetch, OffsetDelete, expiry, and the transaction marker that makes a
 * transaction's offsets visible. It validates through the `Group` interface, so any group type can
 * hold offsets.
 */
import type { TopicPartition } from '../../../model/types';
import type { VirtualClock } from '../../common/clock';
import type { CoordinatorConfig } from './coordinatorConfig';
import { newOffsetCommitRecord, newOffsetCommitTombstoneRecord, type CoordinatorRecord } from './coordinatorRecords';
import type { KafkaErrorCode } from '../../common/errors';
import type { Group } from './group';
import type { GroupEvents } from './groupEvents';
import type { GroupMetadataManager } from './groupMetadataManager';
import type {
  OffsetCommitRequest,
  OffsetCommitResponse,
  OffsetDeleteRequest,
  OffsetDeleteResponse,
  OffsetFetchPartition,
  OffsetFetchRequest,
  OffsetFetchResponse,
  Respond,
  TxnOffsetCommitRequest,
} from '../../common/requests';
import { PendingTransactionalOffsets, type PendingOffset } from './transactionalOffsets';
import type { TransactionResult } from '../../log/transactionIndex';

/** Whether a topic partition exists, for OffsetCommit validation. */
export type PartitionExists = (topic: string, partition: number) => boolean;

function everyPartition(request: OffsetCommitRequest, errorCode: KafkaErrorCode): OffsetCommitResponse {
  return { topics: request.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ partition: p.partition, errorCode })) })) };
}

export class OffsetMetadataManager {
  /** TxnOffsetCommit offsets waiting for their transaction's marker. */
  readonly pendingOffsets = new PendingTransactionalOffsets();
  /** Next record offset in `__consumer_offsets`, shared by plain and transactional commits. */
  private nextRecordOffset = 0;

  constructor(
    private readonly clock: VirtualClock,
    private readonly config: CoordinatorConfig,
    private readonly events: GroupEvents,
    private readonly groups: GroupMetadataManager,
    private readonly partitionExists: PartitionExists,
  ) {}

  commitOffset(request: OffsetCommitRequest, reply: Respond<OffsetCommitResponse>): void {
    this.commit(request, null, reply, (group, topic, partition, value) => {
      const previous = group.committed(topic, partition);
      group.commit(topic, partition, value);
      return !previous || previous.offset !== value.offset || previous.metadata !== value.metadata;
    });
  }

  /** sendOffsetsToTransaction: the offsets stay pending for the producer until its transaction ends. */
  commitTransactionalOffset(request: TxnOffsetCommitRequest, reply: Respond<OffsetCommitResponse>): void {
    const staged: TopicPartition[] = [];
    this.commit(request, request.producerId, reply, (group, topic, partition, value) => {
      this.pendingOffsets.add(group.groupId, request.producerId, topic, partition, value);
      staged.push({ topic, partition });
      return false;
    });
    const group = this.groups.group(request.groupId);
    if (staged.length > 0 && group) {
      this.events.emit(group, 'transaction-offsets', {
        member: group.members.get(request.memberId),
        cause: `${staged.length} offset(s) staged by transactional producer ${request.producerId} (${request.transactionalId}), pending until its marker`,
        transaction: { producerId: request.producerId, producerEpoch: request.producerEpoch ?? -1, transactionalId: request.transactionalId, partitions: staged },
      });
    }
  }

  /**
   * The transaction marker reaching the group (WriteTxnMarkers): COMMIT materializes the producer's
   * pending offsets unless a later plain commit has a higher record offset; ABORT drops them.
   */
  replayEndTransactionMarker(groupId: string, producerId: number, result: TransactionResult): void {
    // The marker goes to the group's partition whether or not the group is still there.
    this.events.records.endTransaction(groupId, producerId, result);
    const { staged, materialized } = this.pendingOffsets.take(groupId, producerId, result);
    const group = this.groups.group(groupId);
    if (!group || group.state === 'Dead') {
      return;
    }
    if (staged > 0) {
      this.events.emit(group, result === 'COMMIT' ? 'transaction-committed' : 'transaction-aborted', {
        cause: `${staged} offset(s) ${result === 'COMMIT' ? 'committed' : 'dropped'}: producer ${producerId} wrote its ${result} marker`,
        transaction: { producerId, producerEpoch: -1, partitions: [] },
      });
    }
    for (const { topic, partition, value } of materialized) {
      const existing = group.committed(topic, partition);
      if (!existing || (existing.recordOffset ?? -1) <= value.recordOffset) {
        group.commit(topic, partition, value);
      }
    }
  }

  private commit(
    request: OffsetCommitRequest,
    /** The transactional producer of a TxnOffsetCommit, null for OffsetCommit. */
    producerId: number | null,
    reply: Respond<OffsetCommitResponse>,
    store: (group: Group, topic: string, partition: number, value: PendingOffset) => boolean,
  ): void {
    // Admin tools and manual assignment commit with generation -1: that creates a "simple" group.
    const existing = this.groups.group(request.groupId);
    const group = existing ?? this.groups.getOrMaybeCreateClassicGroup(request.groupId, request.generationId < 0);
    if (typeof group === 'string') {
      reply(everyPartition(request, group));
      return;
    }
    const named = request.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partition })));
    const error = group.validateOffsetCommit(request.memberId, request.groupInstanceId, request.generationId, producerId !== null, named);
    if (error !== 'NONE') {
      reply(everyPartition(request, error));
      return;
    }
    const now = this.clock.now;
    const records: CoordinatorRecord[] = [];
    let changed = 0;
    const response: OffsetCommitResponse = { topics: [] };
    for (const topic of request.topics) {
      const partitions: OffsetCommitResponse['topics'][number]['partitions'] = [];
      for (const p of topic.partitions) {
        const metadata = p.metadata ?? '';
        let errorCode: KafkaErrorCode = 'NONE';
        if (metadata.length > this.config.offsetMetadataMaxBytes) {
          errorCode = 'OFFSET_METADATA_TOO_LARGE';
        } else if (!Number.isSafeInteger(p.offset)) {
          // Offsets are JS numbers, exact to 2^53 - 1 (centuries of a million records a second); one
          // past that would be stored rounded and could not be answered to OffsetFetch, so it is refused.
          errorCode = 'OFFSET_OUT_OF_RANGE';
        } else if (!this.partitionExists(topic.name, p.partition)) {
          errorCode = 'UNKNOWN_TOPIC_OR_PARTITION';
        } else {
          const value = { offset: p.offset, leaderEpoch: p.leaderEpoch ?? -1, metadata, commitTimestamp: now, recordOffset: this.nextRecordOffset++ };
          records.push(newOffsetCommitRecord(group.groupId, topic.name, p.partition, value));
          if (store(group, topic.name, p.partition, value)) {
            changed++;
          }
        }
        partitions.push({ partition: p.partition, errorCode });
      }
      response.topics.push({ name: topic.name, partitions });
    }
    this.events.write(group.groupId, records, producerId ?? undefined);
    this.groups.rescheduleClassicGroupMemberHeartbeat(group, request.memberId);
    if (changed > 0) {
      this.events.emit(group, 'offsets-committed', {
        member: group.members.get(request.memberId),
        cause:
          request.generationId < 0
            ? `${changed} offset(s) committed with generation -1 (admin or manual assignment)`
            : `${changed} offset(s) committed by ${request.memberId} in generation ${request.generationId}`,
      });
    }
    reply(response);
  }

  fetchOffsets(request: OffsetFetchRequest): OffsetFetchResponse {
    const group = this.groups.group(request.groupId);
    const missing = (partition: number): OffsetFetchPartition => ({ partition, committedOffset: -1, committedLeaderEpoch: -1, metadata: '', errorCode: 'NONE' });
    const response: OffsetFetchResponse = { errorCode: 'NONE', topics: [] };
    if (!group || group.state === 'Dead') {
      response.topics = (request.topics ?? []).map((t) => ({ name: t.name, partitions: t.partitions.map(missing) }));
      return response;
    }
    const fetched = (topic: string, partition: number): OffsetFetchPartition => {
      // With requireStable a partition whose offset waits for a transaction marker must be fetched again.
      if (request.requireStable && this.pendingOffsets.isPending(group.groupId, topic, partition)) {
        return { ...missing(partition), errorCode: 'UNSTABLE_OFFSET_COMMIT' };
      }
      const c = group.committed(topic, partition);
      return c ? { partition, committedOffset: c.offset, committedLeaderEpoch: c.leaderEpoch, metadata: c.metadata, errorCode: 'NONE' } : missing(partition);
    };
    const requested = request.topics ?? [...group.offsets].map(([name, partitions]) => ({ name, partitions: [...partitions.keys()] }));
    response.topics = requested.map((t) => ({ name: t.name, partitions: t.partitions.map((partition) => fetched(t.name, partition)) }));
    return response;
  }

  deleteOffsets(request: OffsetDeleteRequest): OffsetDeleteResponse {
    const group = this.groups.group(request.groupId);
    const error = group ? group.validateOffsetDelete() : 'GROUP_ID_NOT_FOUND';
    if (!group || error !== 'NONE') {
      return { errorCode: error, topics: [] };
    }
    let deleted = 0;
    const tombstones: CoordinatorRecord[] = [];
    const topics = request.topics.map((t) => {
      const subscribed = group.isSubscribedToTopic(t.name);
      return {
        name: t.name,
        partitions: t.partitions.map((partition): { partition: number; errorCode: KafkaErrorCode } => {
          if (subscribed) {
            return { partition, errorCode: 'GROUP_SUBSCRIBED_TO_TOPIC' };
          }
          if (group.deleteOffset(t.name, partition)) {
            tombstones.push(newOffsetCommitTombstoneRecord(group.groupId, t.name, partition));
            deleted++;
          }
          return { partition, errorCode: 'NONE' };
        }),
      };
    });
    this.events.write(group.groupId, tombstones);
    if (deleted > 0) {
      this.events.emit(group, 'offsets-reset', { cause: `${deleted} committed offset(s) deleted` });
    }
    return { errorCode: 'NONE', topics };
  }

  /**
   * onPartitionsDeleted: a topic was deleted, so every group's committed offsets of it go (with their
   * tombstones), as Kafka's OffsetMetadataManager drops them when the metadata loses the partitions.
   */
  onTopicDeleted(topic: string): void {
    for (const group of this.groups.allGroups()) {
      const partitions = [...(group.offsets.get(topic)?.keys() ?? [])];
      if (partitions.length === 0) {
        continue;
      }
      partitions.forEach((partition) => group.deleteOffset(topic, partition));
      this.events.write(group.groupId, partitions.map((partition) => newOffsetCommitTombstoneRecord(group.groupId, topic, partition)));
      this.events.emit(group, 'offsets-reset', { cause: `${partitions.length} committed offset(s) deleted with topic ${topic}` });
    }
  }

  /** The group is being deleted: its offsets and its open transactions' offsets go with it. */
  deleteAllOffsets(group: Group): void {
    const committed = [...group.offsets].flatMap(([topic, partitions]) => [...partitions.keys()].map((partition) => ({ topic, partition })));
    const pending = this.pendingOffsets.list(group.groupId).filter((tp) => !group.committed(tp.topic, tp.partition));
    const partitions = new Map([...committed, ...pending].map((tp) => [`${tp.topic}\u0000${tp.partition}`, tp]));
    this.events.write(group.groupId, [...partitions.values()].map((tp) => newOffsetCommitTombstoneRecord(group.groupId, tp.topic, tp.partition)));
    group.offsets.clear();
    this.pendingOffsets.deleteGroup(group.groupId);
  }

  /**
   * Expires the group's offsets whose retention has passed (OffsetMetadataManager.cleanupExpiredOffsets);
   * true when none is left and no open transaction holds any, so an empty group may go.
   */
  cleanupExpiredOffsets(group: Group, now: number): boolean {
    const condition = group.offsetExpirationCondition();
    if (condition) {
      const expired: CoordinatorRecord[] = [];
      const retention = this.config.offsetsRetentionMs;
      for (const [topic, partitions] of [...group.offsets]) {
        if (!condition.appliesTo(topic)) {
          continue;
        }
        for (const [partition, committed] of [...partitions]) {
          if (now - condition.baseTimestamp(committed) >= retention) {
            group.deleteOffset(topic, partition);
            expired.push(newOffsetCommitTombstoneRecord(group.groupId, topic, partition));
          }
        }
      }
      this.events.write(group.groupId, expired);
    }
    return !group.hasOffsets() && !this.pendingOffsets.hasGroup(group.groupId);
  }
}
