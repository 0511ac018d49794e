/**
 * The rebalance event log of real clusters, built from raw `__consumer_offsets` records as a
 * consumer of that topic receives them (key, value, timestamp). Offset commits and KIP-848 records
 * are skipped; group-metadata records become events per group. Pure: the Kafka side only feeds it.
 */
import type { RebalanceEvent } from '../model/types';
import { GroupMetadataEventBuilder } from './groupMetadataEvents';
import { decodeOffsetsTopicRecord } from './groupMetadataRecord';

export class OffsetsTopicEventLog {
  private readonly builder = new GroupMetadataEventBuilder();
  private readonly byGroup = new Map<string, RebalanceEvent[]>();

  /**
   * Feeds one record, in partition order; returns the events it adds. A record with no key, or one
   * that does not decode, throws with the reason (the caller logs it and goes on with the next).
   */
  ingest(key: Uint8Array | null, value: Uint8Array | null, timestamp: number): RebalanceEvent[] {
    if (key === null) {
      throw new Error('__consumer_offsets record without a key');
    }
    const record = decodeOffsetsTopicRecord(key, value);
    if (record.type !== 'group-metadata') {
      return [];
    }
    const events = this.builder.apply({ group: record.group, value: record.value, timestamp });
    if (events.length > 0) {
      const log = this.byGroup.get(record.group) ?? [];
      log.push(...events);
      this.byGroup.set(record.group, log);
    }
    return events;
  }

  /** The generation in the group's last group-metadata record read, if any (none after a tombstone). */
  generation(groupId: string): number | undefined {
    return this.builder.generation(groupId);
  }

  /** Events of one group so far, oldest first (the same objects on every call). */
  events(groupId: string): RebalanceEvent[] {
    return [...(this.byGroup.get(groupId) ?? [])];
  }
}
