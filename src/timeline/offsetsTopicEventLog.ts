/**
 * The rebalance event log of real clusters, built from raw `__consumer_offsets` records as a
 * consumer of that topic receives them (key, value, timestamp). Offset commits are skipped;
 * group-metadata records (classic groups) become events per record, and the KIP-848 consumer-group
 * records of one record batch (one coordinator operation, written atomically) become events together
 * through the same derivation the simulator uses (consumerGroupEvents.ts says what they give: joins,
 * leaves, epoch bumps, targets, each member's epoch steps and convergence time). Pure: the Kafka side
 * only feeds it.
 *
 * Share and streams groups' records go through the same derivation, mapped onto the consumer
 * group's records (shareGroupRecords.ts, streamsGroupRecords.ts); what each type lets us reconstruct:
 * - consumer groups (3, 5 to 8, 16): joins, leaves (not why), group-epoch bumps, each target
 *   assignment with its per-member plan, each member's epoch steps with what it gained and lost, the
 *   partitions it still has to revoke or waits for, and its time to converge;
 * - share groups (10 to 14; 15 is share-state bookkeeping, no event): the same joins, leaves, epoch
 *   bumps, targets and member epoch steps, but no revocation (ShareGroupCurrentMemberAssignmentValue
 *   has no pending partitions: a share partition may be consumed by many members at once), so a
 *   convergence time is the epoch step itself, and the group is only Empty or Stable; no instance
 *   ids; delivery state lives in __share_group_state, not here;
 * - streams groups (17, 19 to 22; 23, the topology, makes no event): joins (with the process id),
 *   leaves, epoch bumps, targets and member epoch steps in *active tasks*, shown as partitions of a
 *   pseudo-topic per subtopology (`subtopology 0`, partition 3 = task 0_3), with active tasks pending
 *   revocation as in consumer groups; standby and warm-up tasks are not shown.
 * Events from records are never marked inferred; deletion (the group's metadata tombstone) is Dead.
 *
 * Plain offset commits make no event, but those a transaction writes (TxnOffsetCommit: a transactional
 * batch of offset-commit records) do: `transaction-offsets` when staged, then `transaction-committed`
 * or `transaction-aborted` when the producer's marker (a control batch) reaches the partition, which
 * is when the coordinator makes them the group's offsets or drops them.
 */
import type { RebalanceEvent, TopicPartition } from '../model/types';
import { ConsumerGroupTimelines, type ModernGroupType, type TopicNames } from './consumerGroupEvents';
import { topicIdsOf, type ConsumerGroupRecord } from './consumerGroupRecords';
import { GroupMetadataEventBuilder } from './groupMetadataEvents';
import { decodeOffsetsTopicRecord, type OffsetsTopicRecord } from './groupMetadataRecord';
import { asConsumerGroupRecord as shareAsConsumerGroupRecord } from './shareGroupRecords';
import { asConsumerGroupRecord as streamsAsConsumerGroupRecord } from './streamsGroupRecords';

/** A KIP-848 record of any group type as the one derivation reads it; null when it means no event. */
function modernGroupRecord(record: OffsetsTopicRecord): { groupType: ModernGroupType; group: string; record: ConsumerGroupRecord | null } | undefined {
  switch (record.type) {
    case 'consumer-group':
      return { groupType: 'consumer', group: record.group, record: record.record };
    case 'share-group':
      return { groupType: 'share', group: record.group, record: shareAsConsumerGroupRecord(record.record) };
    case 'streams-group':
      return { groupType: 'streams', group: record.group, record: streamsAsConsumerGroupRecord(record.record) };
    default:
      return undefined;
  }
}

/** The producer of a transactional batch, and the `__consumer_offsets` partition it was read from. */
export interface TransactionalBatch {
  partition: number;
  producerId: number;
  producerEpoch: number;
}

interface PendingBatch {
  groupType: ModernGroupType;
  records: ConsumerGroupRecord[];
  time: number;
  upgrade: boolean;
}

export class OffsetsTopicEventLog {
  private readonly builder = new GroupMetadataEventBuilder();
  private readonly consumerGroups: ConsumerGroupTimelines;
  private readonly byGroup = new Map<string, RebalanceEvent[]>();
  /** Consumer-group records of the batch being read, per group in log order; `upgrade` after the classic group's tombstone. */
  private pending = new Map<string, PendingBatch>();
  /**
   * Classic groups' tombstones of the batch being read: Dead at its end, unless consumer-group records of
   * the group follow in it (an online upgrade, convertToConsumerGroup: the group lives on).
   */
  private pendingTombstones = new Map<string, number>();
  /** The transactional batch being read, if it is one, and the offsets it stages per group. */
  private txnBatch: { batch: TransactionalBatch; time: number; staged: Map<string, TopicPartition[]> } | null = null;
  /** Groups with offsets staged and no marker yet, per `partition:producerId`. */
  private readonly openTransactions = new Map<string, Map<string, number>>();

  /** @param topicName names the topic ids of KIP-848 records; an unknown id is shown as it is. */
  constructor(private readonly topicName: TopicNames = () => undefined) {
    this.consumerGroups = new ConsumerGroupTimelines(topicName);
  }

  /** Topic ids the batch being read names that topicName cannot name yet (ask the cluster before endBatch). */
  unnamedTopicIds(): string[] {
    // A streams group's "topics" are its subtopologies (streamsGroupRecords.ts): no id to ask for.
    const ids = [...this.pending.values()].filter((batch) => batch.groupType !== 'streams').flatMap((batch) => batch.records.flatMap(topicIdsOf));
    return [...new Set(ids)].filter((id) => this.topicName(id) === undefined);
  }

  /**
   * Feeds one record, in partition order; returns the events it adds. A record with no key, or one
   * that does not decode, throws with the reason (the caller logs it and goes on with the next).
   * Consumer-group records wait for endBatch, which the caller calls after each record batch.
   */
  ingest(key: Uint8Array | null, value: Uint8Array | null, timestamp: number, transactional?: TransactionalBatch): RebalanceEvent[] {
    if (key === null) {
      throw new Error('__consumer_offsets record without a key');
    }
    const record = decodeOffsetsTopicRecord(key, value);
    if (record.type === 'offset-commit') {
      if (transactional !== undefined) {
        this.stage(transactional, record.group, { topic: record.topic, partition: record.partition }, timestamp);
      }
      return [];
    }
    const modern = modernGroupRecord(record);
    if (modern !== undefined) {
      if (modern.record === null) {
        return [];
      }
      const group = modern.group;
      // Only a consumer group converts from and to a classic group.
      const upgrade = modern.groupType === 'consumer' && this.pendingTombstones.delete(group);
      if (upgrade) {
        this.builder.forget(group);
      }
      const batch = this.pending.get(group) ?? { groupType: modern.groupType, records: [], time: timestamp, upgrade };
      batch.records.push(modern.record);
      batch.time = Math.max(batch.time, timestamp);
      this.pending.set(group, batch);
      return [];
    }
    if (record.type !== 'group-metadata') {
      return [];
    }
    if (record.value === null) {
      this.pendingTombstones.set(record.group, timestamp);
      return [];
    }
    const consumerRecords = this.pending.get(record.group);
    if (consumerRecords !== undefined) {
      // An online downgrade (convertToClassicGroup): the consumer group's tombstones, then the classic group.
      this.pending.delete(record.group);
      this.builder.load(record.group, record.value);
      return this.append(record.group, this.consumerGroups.applyDowngradeBatch(record.group, record.value.members, Math.max(consumerRecords.time, timestamp)));
    }
    return this.append(record.group, this.builder.apply({ group: record.group, value: record.value, timestamp }));
  }

  /**
   * A transaction marker (a control batch's record) read from the partition: the groups whose offsets
   * the producer staged there get their `transaction-committed` or `transaction-aborted`.
   */
  ingestMarker(batch: TransactionalBatch, type: 'COMMIT' | 'ABORT', timestamp: number): RebalanceEvent[] {
    const key = `${batch.partition}:${batch.producerId}`;
    const groups = this.openTransactions.get(key);
    if (groups === undefined) {
      return [];
    }
    this.openTransactions.delete(key);
    const kind = type === 'COMMIT' ? 'transaction-committed' : 'transaction-aborted';
    return [...groups].flatMap(([group, staged]) =>
      this.append(group, [{
        groupId: group,
        time: timestamp,
        kind,
        generation: this.generation(group) ?? 0,
        cause: `${staged} offset(s) ${type === 'COMMIT' ? 'committed' : 'dropped'}: producer ${batch.producerId} (epoch ${batch.producerEpoch}) wrote its ${type} marker`,
        transaction: { producerId: batch.producerId, producerEpoch: batch.producerEpoch, partitions: [] },
      }]),
    );
  }

  /** Ends a record batch: turns its classic tombstones and consumer-group records into events and returns them. */
  endBatch(): RebalanceEvent[] {
    const staged = this.endTransactionalBatch();
    const tombstones = this.pendingTombstones;
    this.pendingTombstones = new Map();
    const pending = this.pending;
    this.pending = new Map();
    return [
      ...[...tombstones].flatMap(([group, timestamp]) => this.append(group, this.builder.apply({ group, value: null, timestamp }))),
      ...[...pending].flatMap(([group, batch]) => this.append(group, batch.upgrade
        ? this.consumerGroups.applyUpgradeBatch(group, batch.records, batch.time)
        : this.consumerGroups.applyBatch(group, batch.records, batch.time, undefined, batch.groupType))),
      ...staged,
    ];
  }

  private stage(batch: TransactionalBatch, group: string, tp: TopicPartition, timestamp: number): void {
    if (this.txnBatch === null) {
      this.txnBatch = { batch, time: timestamp, staged: new Map() };
    }
    this.txnBatch.time = Math.max(this.txnBatch.time, timestamp);
    const list = this.txnBatch.staged.get(group);
    if (list) {
      list.push(tp);
    } else {
      this.txnBatch.staged.set(group, [tp]);
    }
  }

  /** The `transaction-offsets` of the batch just read, one per group it staged offsets of. */
  private endTransactionalBatch(): RebalanceEvent[] {
    const txn = this.txnBatch;
    this.txnBatch = null;
    if (txn === null) {
      return [];
    }
    const { batch } = txn;
    const key = `${batch.partition}:${batch.producerId}`;
    const open = this.openTransactions.get(key) ?? new Map<string, number>();
    this.openTransactions.set(key, open);
    return [...txn.staged].flatMap(([group, partitions]) => {
      open.set(group, (open.get(group) ?? 0) + partitions.length);
      return this.append(group, [{
        groupId: group,
        time: txn.time,
        kind: 'transaction-offsets',
        generation: this.generation(group) ?? 0,
        cause: `${partitions.length} offset(s) staged by transactional producer ${batch.producerId} (epoch ${batch.producerEpoch}), pending until its marker`,
        transaction: { producerId: batch.producerId, producerEpoch: batch.producerEpoch, partitions },
      }]);
    });
  }

  /**
   * The generation in the group's last group-metadata record read (none after a tombstone), or for
   * a KIP-848 group its group epoch.
   */
  generation(groupId: string): number | undefined {
    return this.builder.generation(groupId) ?? this.consumerGroups.epoch(groupId);
  }

  /** Events of one group so far, oldest first (the same objects on every call). */
  events(groupId: string): RebalanceEvent[] {
    return [...(this.byGroup.get(groupId) ?? [])];
  }

  private append(group: string, events: RebalanceEvent[]): RebalanceEvent[] {
    if (events.length > 0) {
      const log = this.byGroup.get(group) ?? [];
      log.push(...events);
      this.byGroup.set(group, log);
    }
    return events;
  }
}
