/**
 * Compares two views of a group's membership (two generations, or two polls) and says who joined,
 * who left, which static members came back under a new member id, and which partitions each
 * member lost and gained. Both real-cluster observers build their events on this.
 */
import { topicPartitionKey, type MemberAssignmentChange, type RebalanceEvent, type TopicPartition } from '../model/types';

export interface MemberView {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  assignment: TopicPartition[];
}

export interface StaticRejoin {
  previous: MemberView;
  current: MemberView;
}

export interface MembershipDiff {
  joined: MemberView[];
  left: MemberView[];
  staticRejoins: StaticRejoin[];
  /** One entry per member whose assignment changed, members that left included (everything revoked). */
  assignments: MemberAssignmentChange[];
}

export function diffMembership(previous: readonly MemberView[], current: readonly MemberView[]): MembershipDiff {
  const previousById = new Map(previous.map((m) => [m.memberId, m]));
  const currentIds = new Set(current.map((m) => m.memberId));
  const previousByInstance = new Map(
    previous.filter((m) => m.groupInstanceId !== null && !currentIds.has(m.memberId)).map((m) => [m.groupInstanceId, m]),
  );

  const joined: MemberView[] = [];
  const staticRejoins: StaticRejoin[] = [];
  const assignments: MemberAssignmentChange[] = [];
  const replaced = new Set<string>();

  for (const member of current) {
    let before = previousById.get(member.memberId);
    if (!before) {
      const replacedMember = member.groupInstanceId === null ? undefined : previousByInstance.get(member.groupInstanceId);
      if (replacedMember) {
        staticRejoins.push({ previous: replacedMember, current: member });
        replaced.add(replacedMember.memberId);
        before = replacedMember;
      } else {
        joined.push(member);
      }
    }
    pushChange(assignments, member, before?.assignment ?? [], member.assignment);
  }

  const left = previous.filter((m) => !currentIds.has(m.memberId) && !replaced.has(m.memberId));
  for (const member of left) {
    pushChange(assignments, member, member.assignment, []);
  }
  return { joined, left, staticRejoins, assignments };
}

/** The fields every event of one observed transition shares. */
export type EventBase = Pick<RebalanceEvent, 'groupId' | 'time' | 'generation'> & Partial<Pick<RebalanceEvent, 'inferred'>>;

/** Membership events for a diff, in the order they would happen: leaves, joins, static rejoins, then the assignment. */
export function membershipEvents(diff: MembershipDiff, base: EventBase, causes: MembershipCauses): RebalanceEvent[] {
  const events: RebalanceEvent[] = [];
  for (const member of diff.left) {
    events.push({ ...base, kind: 'member-left', ...memberFields(member), cause: causes.left });
  }
  for (const member of diff.joined) {
    events.push({ ...base, kind: 'member-joined', ...memberFields(member), cause: causes.joined });
  }
  for (const { previous, current } of diff.staticRejoins) {
    events.push({
      ...base,
      kind: 'static-rejoin',
      ...memberFields(current),
      cause: `static member ${current.groupInstanceId} rejoined, replacing member ${previous.memberId}`,
    });
  }
  if (diff.assignments.length > 0) {
    events.push({ ...base, kind: 'assignment-changed', assignments: diff.assignments, cause: causes.assignment });
  }
  return events;
}

export interface MembershipCauses {
  joined: string;
  left: string;
  assignment: string;
}


function memberFields(member: MemberView): Pick<RebalanceEvent, 'memberId' | 'groupInstanceId' | 'clientId'> {
  return { memberId: member.memberId, groupInstanceId: member.groupInstanceId, clientId: member.clientId };
}

function pushChange(
  into: MemberAssignmentChange[],
  member: MemberView,
  before: readonly TopicPartition[],
  after: readonly TopicPartition[],
): void {
  const revoked = subtract(before, after);
  const assigned = subtract(after, before);
  if (revoked.length > 0 || assigned.length > 0) {
    into.push({ memberId: member.memberId, groupInstanceId: member.groupInstanceId, revoked, assigned });
  }
}

function subtract(from: readonly TopicPartition[], remove: readonly TopicPartition[]): TopicPartition[] {
  const removed = new Set(remove.map(topicPartitionKey));
  return from.filter((tp) => !removed.has(topicPartitionKey(tp))).map((tp) => ({ topic: tp.topic, partition: tp.partition }));
}
