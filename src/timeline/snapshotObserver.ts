/**
 * The fallback observer for real clusters: compares successive DescribeGroups snapshots of a group
 * and infers what happened between them. Everything it reports is marked `inferred: true` and
 * timed at the poll that noticed it; a rebalance that starts and ends between two polls shows
 * only as a generation step.
 */
import type { GroupDetail, GroupState, Member, RebalanceEvent } from '../model/types';
import { diffMembership, membershipEvents, type MemberView } from './membershipDiff';

const REBALANCING: ReadonlySet<GroupState> = new Set<GroupState>(['PreparingRebalance', 'CompletingRebalance', 'Assigning', 'Reconciling']);
/** States in which DescribeGroups reports the generation's final assignment. */
const SETTLED: ReadonlySet<GroupState> = new Set<GroupState>(['Stable', 'Empty']);

interface ObservedGroup {
  detail: GroupDetail;
  /** Members as of the last settled snapshot: assignments are compared against these. */
  settledMembers: MemberView[];
}

export class SnapshotObserver {
  private readonly groups = new Map<string, ObservedGroup>();
  private readonly log = new Map<string, RebalanceEvent[]>();

  /** Records one snapshot taken at `time` and returns the events it reveals. Snapshots that carry a load error are ignored. */
  observe(detail: GroupDetail, time: number): RebalanceEvent[] {
    if (detail.error !== undefined) {
      return [];
    }
    const previous = this.groups.get(detail.groupId);
    const events = inferEvents(previous, detail, time);
    this.groups.set(detail.groupId, {
      detail,
      settledMembers: SETTLED.has(detail.state) ? detail.members.map(memberView) : (previous?.settledMembers ?? []),
    });
    if (events.length > 0) {
      const log = this.log.get(detail.groupId) ?? [];
      log.push(...events);
      this.log.set(detail.groupId, log);
    }
    return events;
  }

  /** Every event inferred so far for a group, oldest first. */
  events(groupId: string): RebalanceEvent[] {
    return [...(this.log.get(groupId) ?? [])];
  }

  /** Drops what is known about a group (it disappeared, or the view closed). */
  forget(groupId: string): void {
    this.groups.delete(groupId);
    this.log.delete(groupId);
  }
}

function inferEvents(previous: ObservedGroup | undefined, next: GroupDetail, time: number): RebalanceEvent[] {
  // -1: the generation is not known (a real cluster's DescribeGroups carries none).
  const base = { groupId: next.groupId, time, generation: next.generation ?? -1, inferred: true };
  const before = previous?.detail;
  const events: RebalanceEvent[] = [];

  const generationStepped = before !== undefined && next.generation !== before.generation;
  const enteredRebalance = REBALANCING.has(next.state) && (before === undefined || !REBALANCING.has(before.state));
  const rebalancedBetweenPolls =
    generationStepped && !REBALANCING.has(before.state) && !REBALANCING.has(next.state);
  if (before && (enteredRebalance || rebalancedBetweenPolls)) {
    events.push({
      ...base,
      kind: 'rebalance-started',
      stateBefore: before.state,
      stateAfter: enteredRebalance ? next.state : 'PreparingRebalance',
      cause: enteredRebalance
        ? `DescribeGroups reports ${next.state}`
        : `generation went from ${before.generation} to ${next.generation} between polls`,
    });
  }

  const membership = diffMembership(before?.members.map(memberView) ?? [], next.members.map(memberView));
  const assignments = SETTLED.has(next.state)
    ? diffMembership(previous?.settledMembers ?? [], next.members.map(memberView)).assignments
    : [];
  events.push(
    ...membershipEvents({ ...membership, assignments }, base, {
      joined: before ? 'listed by DescribeGroups, absent from the previous poll' : 'listed when first observed',
      left: 'no longer listed by DescribeGroups (left, expired or timed out)',
      assignment: `assignment of generation ${next.generation} as DescribeGroups reports it`,
    }),
  );

  if (before === undefined || before.state !== next.state || rebalancedBetweenPolls) {
    const alreadyAnnounced = enteredRebalance && before !== undefined;
    if (!alreadyAnnounced) {
      events.push({
        ...base,
        kind: 'state-changed',
        stateBefore: rebalancedBetweenPolls ? 'CompletingRebalance' : before?.state,
        stateAfter: next.state,
        cause: before ? `DescribeGroups reports ${next.state}` : `${next.state} when first observed`,
      });
    }
  }
  return events;
}

function memberView(member: Member): MemberView {
  return {
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    assignment: member.assignment,
  };
}
