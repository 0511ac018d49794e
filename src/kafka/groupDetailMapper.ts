/**
 * Pure assembly of the model's GroupDetail from decoded broker answers: members (classic with the
 * consumer protocol decoded, or KIP-848), and one offsets row per owned or committed partition with
 * lag computed the way `kafka-consumer-groups.sh --describe` prints it (LOG-END-OFFSET = high
 * watermark, LAG = high watermark - committed).
 */
import { compareTopicPartitions, GROUP_STATES, topicPartitionKey, type BrokerRef, type GroupDetail, type GroupState, type GroupSummary, type Member, type PartitionOffsets, type TopicPartition } from '../model/types';
import { decodeAssignment, decodeSubscription } from '../protocol/consumerProtocol';
import { errorMessage } from '../protocol/errors';
import type { IsolationLevel } from './isolationLevels';
import { modernGroupType } from './groupTypes';
import type { DescribedGroup, ListedGroup } from './requests/groupRequests';
import type { CommittedOffset } from './requests/offsetRequests';

export function toGroupState(state: string): GroupState {
  const match = GROUP_STATES.find((s) => s !== 'Unknown' && s.toLowerCase() === state.toLowerCase());
  return match ?? 'Unknown';
}

/** ListGroups v5 type plus protocol type to the model's group type. */
export function toGroupType(listedType: string | null, protocolType: string): GroupSummary['groupType'] {
  if (listedType === 'consumer') {
    return 'consumer';
  }
  if (listedType === null || listedType === 'classic') {
    return protocolType === '' ? 'simple' : 'classic';
  }
  return 'unknown';
}

export interface ClassicMembers {
  members: Member[];
  /** Members whose bytes could not be decoded, with the reason. */
  decodeErrors: string[];
}

export function classicMembers(group: DescribedGroup): ClassicMembers {
  const decodeErrors: string[] = [];
  const members = group.members.map((m): Member => {
    const member: Member = {
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      subscription: [],
      assignment: [],
    };
    if (group.protocolType !== 'consumer') {
      return member;
    }
    try {
      if (m.memberMetadata.length > 0) {
        const subscription = decodeSubscription(m.memberMetadata);
        member.subscription = subscription.topics;
      }
      member.assignment = decodeAssignment(m.memberAssignment).partitions;
    } catch (e) {
      decodeErrors.push(`member ${m.memberId}: ${errorMessage(e)}`);
    }
    return member;
  });
  return { members, decodeErrors };
}

export interface PartitionEnds {
  logStartOffset: number | null;
  highWatermark: number | null;
  lastStableOffset: number | null;
}

/** The key of a topic partition in the maps of the load pipeline. */
export const partitionKey = topicPartitionKey;

/**
 * What a read_committed consumer still has to read: LSO - committed, floored at 0 (a commit can pass
 * the LSO when it was made with read_uncommitted), null when either is unknown.
 */
export function lastStableLag(committedOffset: number | null, lastStableOffset: number | null): number | null {
  return committedOffset !== null && lastStableOffset !== null ? Math.max(0, lastStableOffset - committedOffset) : null;
}

/**
 * Rows in the CLI's order: members with more partitions first, each member's partitions by topic
 * and partition, then committed partitions no member owns. Rows of read_committed groups also get
 * their lag to the last stable offset.
 */
export function offsetRows(
  members: readonly Member[],
  committed: readonly CommittedOffset[],
  ends: ReadonlyMap<string, PartitionEnds>,
  isolationLevel: IsolationLevel = 'read_uncommitted',
): PartitionOffsets[] {
  const committedByKey = new Map(committed.filter((c) => c.offset >= 0).map((c) => [partitionKey(c), c]));
  const rows: PartitionOffsets[] = [];
  const seen = new Set<string>();
  const row = (tp: TopicPartition, ownerMemberId: string | null): PartitionOffsets => {
    const key = partitionKey(tp);
    const commit = committedByKey.get(key);
    const end = ends.get(key);
    const committedOffset = commit ? commit.offset : null;
    const logEndOffset = end?.highWatermark ?? null;
    const result: PartitionOffsets = {
      topic: tp.topic,
      partition: tp.partition,
      committedOffset,
      logStartOffset: end?.logStartOffset ?? null,
      logEndOffset,
      lastStableOffset: end?.lastStableOffset ?? null,
      lag: committedOffset !== null && logEndOffset !== null ? logEndOffset - committedOffset : null, // unclamped, as the CLI prints it
      ownerMemberId,
    };
    if (isolationLevel === 'read_committed') {
      result.lastStableLag = lastStableLag(committedOffset, result.lastStableOffset ?? null);
    }
    if (commit?.metadata) {
      result.commitMetadata = commit.metadata;
    }
    return result;
  };
  const owners = [...members].filter((m) => m.assignment.length > 0).sort((a, b) => b.assignment.length - a.assignment.length);
  for (const member of owners) {
    for (const tp of [...member.assignment].sort(compareTopicPartitions)) {
      seen.add(partitionKey(tp));
      rows.push(row(tp, member.memberId));
    }
  }
  const unowned = [...committedByKey.values()].filter((c) => !seen.has(partitionKey(c))).sort(compareTopicPartitions);
  for (const c of unowned) {
    rows.push(row(c, null));
  }
  return rows;
}

export function totalLag(rows: readonly PartitionOffsets[]): number | null {
  const known = rows.filter((r) => r.lag !== null);
  return known.length === 0 ? null : known.reduce((sum, r) => sum + (r.lag ?? 0), 0);
}

/** Drops the detail fields, for list views. */
export function toSummary(detail: GroupDetail): GroupSummary {
  const { leaderId: _leaderId, members: _members, offsets: _offsets, isolationLevel: _isolationLevel, ...summary } = detail;
  return summary;
}

/** A group as ListGroups lists it, before its details are loaded: type and state (v4+/v5+), nothing else. */
export function listedSummary(group: ListedGroup, coordinator: BrokerRef | null): GroupSummary {
  return {
    groupId: group.groupId,
    state: toGroupState(group.groupState ?? ''),
    protocolType: group.protocolType,
    groupType: modernGroupType(group.groupType) ?? toGroupType(group.groupType, group.protocolType),
    assignor: '',
    coordinator,
    memberCount: 0,
    totalLag: null,
    detailsPending: true,
  };
}
