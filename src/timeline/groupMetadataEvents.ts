/**
 * Turns the group-metadata records of `__consumer_offsets`, in log order, into RebalanceEvents.
 *
 * The coordinator writes a group's record when a generation's assignment is persisted (the
 * leader's SyncGroup; the group then becomes Stable), when a join phase ends with no members (the
 * group becomes Empty), when a static member is replaced without a rebalance, a tombstone
 * when the group is deleted, and an empty generation 0 when JoinGroup creates the group (no
 * event: a new group is Empty). So each generation appears once, and comparing it with the previous
 * one tells who joined, who left and which partitions moved. Compaction may have removed older
 * generations: the first record seen for a group is compared with an empty group.
 */
import type { GroupState, RebalanceEvent } from '../model/types';
import { decodeAssignment as decodeConsumerAssignment } from '../protocol/consumerProtocol';
import type { GroupMetadataValue } from './groupMetadataRecord';
import { diffMembership, membershipEvents, type MemberView } from './membershipDiff';
import { errorMessage } from '../protocol/errors';

export interface TimedGroupMetadataRecord {
  group: string;
  /** null: tombstone. */
  value: GroupMetadataValue | null;
  /** The record's timestamp (epoch ms, the broker's append time). */
  timestamp: number;
}

interface KnownGeneration {
  generation: number;
  state: GroupState;
  members: MemberView[];
}

/** Keeps the last generation seen per group; feed it records in log order. */
export class GroupMetadataEventBuilder {
  private readonly known = new Map<string, KnownGeneration>();

  /** The generation of the group's last record read (its last persisted assignment), if any. */
  generation(groupId: string): number | undefined {
    return this.known.get(groupId)?.generation;
  }

  /**
   * Takes a group's generation without an event: the classic group a consumer group turned into
   * (convertToClassicGroup writes it with the consumer group's tombstones; the members were already there).
   */
  load(group: string, value: GroupMetadataValue): void {
    this.known.set(group, { generation: value.generation, state: value.members.length > 0 ? 'Stable' : 'Empty', members: value.members.map((m) => memberView(group, value, m)) });
  }

  /** Drops a group without an event: the classic group that became a consumer group (convertToConsumerGroup). */
  forget(group: string): void {
    this.known.delete(group);
  }

  apply(record: TimedGroupMetadataRecord): RebalanceEvent[] {
    const previous = this.known.get(record.group);
    if (record.value === null) {
      return this.applyTombstone(record, previous);
    }
    const value = record.value;
    const members = value.members.map((m) => memberView(record.group, value, m));
    const state: GroupState = members.length > 0 ? 'Stable' : 'Empty';
    this.known.set(record.group, { generation: value.generation, state, members });

    if (previous === undefined && value.generation === 0 && members.length === 0) {
      // JoinGroup's record of the group it creates (newEmptyGroupMetadataRecord): a new group is
      // Empty, so nothing changed; the engine's timeline has no event for it either.
      return [];
    }
    const sameGeneration = previous !== undefined && previous.generation === value.generation;
    const diff = diffMembership(previous?.members ?? [], members);
    // A generation's membership was fixed when its join phase completed, which the record's
    // currentStateTimestamp gives (v2+) when it precedes the append; a replay of the same
    // generation (static replacement) happened at the append itself.
    const joinTime =
      !sameGeneration && value.currentStateTimestamp !== null && value.currentStateTimestamp <= record.timestamp
        ? value.currentStateTimestamp
        : record.timestamp;
    const events = membershipEvents(
      diff,
      { groupId: record.group, time: joinTime, generation: value.generation },
      {
        joined: previous ? `member of generation ${value.generation}, not of ${previous.generation}` : `member of generation ${value.generation} when first observed`,
        left: `not a member of generation ${value.generation} (left, expired or removed)`,
        assignment: `assignment of generation ${value.generation} persisted (protocol ${value.protocol ?? 'none'})`,
      },
    );
    if (!sameGeneration || previous.state !== state) {
      events.push({
        groupId: record.group,
        time: record.timestamp,
        kind: 'state-changed',
        generation: value.generation,
        stateBefore: previous?.state,
        stateAfter: state,
        memberId: value.leader ?? undefined,
        cause:
          state === 'Stable'
            ? `generation ${value.generation} stable with ${members.length} member(s), leader ${value.leader ?? 'none'}`
            : `generation ${value.generation} has no members`,
      });
    }
    return events;
  }

  private applyTombstone(record: TimedGroupMetadataRecord, previous: KnownGeneration | undefined): RebalanceEvent[] {
    this.known.delete(record.group);
    return [
      {
        groupId: record.group,
        time: record.timestamp,
        kind: 'state-changed',
        generation: previous?.generation ?? 0,
        stateBefore: previous?.state,
        stateAfter: 'Dead',
        cause: 'group deleted (tombstone in __consumer_offsets)',
      },
    ];
  }
}

/** Events for a whole sequence of records, in order. */
export function eventsFromGroupMetadataRecords(records: readonly TimedGroupMetadataRecord[]): RebalanceEvent[] {
  const builder = new GroupMetadataEventBuilder();
  return records.flatMap((record) => builder.apply(record));
}

function memberView(group: string, value: GroupMetadataValue, member: GroupMetadataValue['members'][number]): MemberView {
  return {
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    // Other protocol types (connect, ...) carry assignments we cannot read.
    assignment: value.protocolType === 'consumer' ? decodeAssignment(group, value.generation, member) : [],
  };
}

function decodeAssignment(group: string, generation: number, member: GroupMetadataValue['members'][number]): MemberView['assignment'] {
  try {
    return decodeConsumerAssignment(member.assignment).partitions;
  } catch (error) {
    const reason = errorMessage(error);
    throw new Error(`group ${JSON.stringify(group)} generation ${generation} member ${member.memberId}: ${reason}`);
  }
}
