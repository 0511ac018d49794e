/**
 * The rebalance event log of real clusters, built from raw `__consumer_offsets` records as a
 * consumer of that topic receives them (key, value, timestamp). Offset commits are skipped;
 * group-metadata records (classic groups) become events per record, and the KIP-848 consumer-group
 * records of one record batch (one coordinator operation, written atomically) become events together
 * through the same derivation the simulator uses (consumerGroupEvents.ts says what they give: joins,
 * leaves, epoch bumps, targets, each member's epoch steps and convergence time). Pure: the Kafka side
 * only feeds it.
 *
 * Share and streams groups are not read yet; what their records would allow (Kafka 4.1 to 4.4):
 * - share groups (types 10 to 15): the same membership, group epochs, targets (12, 13) and member
 *   epochs (14) as consumer groups, but no revocation (ShareGroupCurrentMemberAssignmentValue has no
 *   pending partitions: a share partition can be consumed by many members at once), so a convergence
 *   time is only the epoch step; delivery state lives in __share_group_state, not here;
 * - streams groups (types 17, 19 to 23): members, group epochs, the topology (23) and target and
 *   current *task* assignments (active, standby, warm-up tasks per subtopology) with tasks pending
 *   revocation, so the same reconciliation per member in tasks instead of partitions.
 * KafkaSource sends those groups' timelines to DescribeGroups polling instead (events marked inferred).
 */
import type { RebalanceEvent } from '../model/types';
import { ConsumerGroupTimelines, type TopicNames } from './consumerGroupEvents';
import { topicIdsOf, type ConsumerGroupRecord } from './consumerGroupRecords';
import { GroupMetadataEventBuilder } from './groupMetadataEvents';
import { decodeOffsetsTopicRecord } from './groupMetadataRecord';

export class OffsetsTopicEventLog {
  private readonly builder = new GroupMetadataEventBuilder();
  private readonly consumerGroups: ConsumerGroupTimelines;
  private readonly byGroup = new Map<string, RebalanceEvent[]>();
  /** Consumer-group records of the batch being read, per group in log order; `upgrade` after the classic group's tombstone. */
  private pending = new Map<string, { records: ConsumerGroupRecord[]; time: number; upgrade: boolean }>();
  /**
   * Classic groups' tombstones of the batch being read: Dead at its end, unless consumer-group records of
   * the group follow in it (an online upgrade, convertToConsumerGroup: the group lives on).
   */
  private pendingTombstones = new Map<string, number>();

  /** @param topicName names the topic ids of KIP-848 records; an unknown id is shown as it is. */
  constructor(private readonly topicName: TopicNames = () => undefined) {
    this.consumerGroups = new ConsumerGroupTimelines(topicName);
  }

  /** Topic ids the batch being read names that topicName cannot name yet (ask the cluster before endBatch). */
  unnamedTopicIds(): string[] {
    const ids = [...this.pending.values()].flatMap((batch) => batch.records.flatMap(topicIdsOf));
    return [...new Set(ids)].filter((id) => this.topicName(id) === undefined);
  }

  /**
   * Feeds one record, in partition order; returns the events it adds. A record with no key, or one
   * that does not decode, throws with the reason (the caller logs it and goes on with the next).
   * Consumer-group records wait for endBatch, which the caller calls after each record batch.
   */
  ingest(key: Uint8Array | null, value: Uint8Array | null, timestamp: number): RebalanceEvent[] {
    if (key === null) {
      throw new Error('__consumer_offsets record without a key');
    }
    const record = decodeOffsetsTopicRecord(key, value);
    if (record.type === 'consumer-group') {
      const upgrade = this.pendingTombstones.delete(record.group);
      if (upgrade) {
        this.builder.forget(record.group);
      }
      const batch = this.pending.get(record.group) ?? { records: [], time: timestamp, upgrade };
      batch.records.push(record.record);
      batch.time = Math.max(batch.time, timestamp);
      this.pending.set(record.group, batch);
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

  /** Ends a record batch: turns its classic tombstones and consumer-group records into events and returns them. */
  endBatch(): RebalanceEvent[] {
    const tombstones = this.pendingTombstones;
    this.pendingTombstones = new Map();
    const pending = this.pending;
    this.pending = new Map();
    return [
      ...[...tombstones].flatMap(([group, timestamp]) => this.append(group, this.builder.apply({ group, value: null, timestamp }))),
      ...[...pending].flatMap(([group, batch]) => this.append(group, batch.upgrade
        ? this.consumerGroups.applyUpgradeBatch(group, batch.records, batch.time)
        : this.consumerGroups.applyBatch(group, batch.records, batch.time))),
    ];
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
