import { compareJavaStrings } from './memberOrder';
import type { PartitionSpace } from './partitionSpace';
import type { StickyClaims } from './stickyClaims';

/** A sticky builder's result on partition ids: per member (input index) its partitions, plus the moves it made. */
export interface StickyBuild {
  assignment: number[][];
  /**
   * partition id → new owner, for partitions taken from a previous owner (AbstractStickyAssignor's
   * partitionsTransferringOwnership); null when the builder leaves it to be computed from the claims (general case).
   */
  transferring: Map<number, number> | null;
}

/** Sorts ids by (partition, topic), the order in which a member keeps its owned partitions. */
function byPartitionThenTopic(space: PartitionSpace, ids: number[]): number[] {
  return ids.sort((a, b) => space.partitionOf(a) - space.partitionOf(b) || space.topicOf(a) - space.topicOf(b));
}

/**
 * Port of AbstractStickyAssignor.ConstrainedAssignmentBuilder (all members subscribe to the same topics), without
 * the rack-aware steps (no racks are modelled): members keep owned partitions up to minQuota, or maxQuota while
 * fewer than total%members members are over minQuota; the rest go round-robin to the members still under quota,
 * sorted by member id. `visitOrder` is the leader's HashMap order of members, which decides who may keep maxQuota.
 */
export function buildConstrained(
  space: PartitionSpace,
  memberIds: readonly string[],
  visitOrder: readonly number[],
  claims: StickyClaims,
): StickyBuild {
  const memberCount = memberIds.length;
  const total = space.size;
  const minQuota = Math.floor(total / memberCount);
  const maxQuota = Math.ceil(total / memberCount);
  const expectedOverMinQuota = total % memberCount;
  let currentOverMinQuota = 0;

  const assignment: number[][] = memberIds.map(() => []);
  const assigned = new Uint8Array(total);
  const maybeRevokedFrom = new Int32Array(total).fill(-1);
  const transferring = new Map<number, number>();
  let underMinQuota: number[] = [];
  let exactlyMinQuota: number[] = [];

  for (const m of visitOrder) {
    const owned = byPartitionThenTopic(space, claims.owned[m].filter((id) => claims.multiplyClaimed[id] === 0));
    let keep: number;
    if (owned.length < minQuota) {
      keep = owned.length;
      underMinQuota.push(m);
    } else if (owned.length >= maxQuota && currentOverMinQuota < expectedOverMinQuota) {
      currentOverMinQuota++;
      if (currentOverMinQuota === expectedOverMinQuota) {
        exactlyMinQuota = [];
      }
      keep = maxQuota;
    } else {
      keep = minQuota;
      if (currentOverMinQuota < expectedOverMinQuota) {
        exactlyMinQuota.push(m);
      }
    }
    for (let i = 0; i < owned.length; i++) {
      if (i < keep) {
        assignment[m].push(owned[i]);
        assigned[owned[i]] = 1;
      } else {
        maybeRevokedFrom[owned[i]] = m;
      }
    }
  }

  const byMemberId = (a: number, b: number): number => compareJavaStrings(memberIds[a], memberIds[b]);
  underMinQuota = underMinQuota.sort(byMemberId);
  exactlyMinQuota = exactlyMinQuota.sort(byMemberId);

  const assignNew = (id: number, m: number): number => {
    assignment[m].push(id);
    const revokedFrom = maybeRevokedFrom[id];
    if ((revokedFrom >= 0 && revokedFrom !== m) || claims.multiplyClaimed[id] === 1) {
      transferring.set(id, m);
    }
    return assignment[m].length;
  };

  // assignRoundRobin: a LinkedList iterator over the members under minQuota that restarts when exhausted; once
  // that list is empty, members at exactly minQuota are polled from the head of theirs.
  let cursor = 0;
  let exactlyHead = 0;
  for (let id = 0; id < total; id++) {
    if (assigned[id] === 1) {
      continue;
    }
    let m: number;
    let fromIterator = true;
    if (cursor < underMinQuota.length) {
      m = underMinQuota[cursor++];
    } else if (underMinQuota.length === 0 && exactlyHead >= exactlyMinQuota.length) {
      throw new Error('Sticky assignor: no more unfilled consumers to be assigned (Kafka raises IllegalStateException here)');
    } else if (underMinQuota.length === 0) {
      m = exactlyMinQuota[exactlyHead++];
      fromIterator = false;
    } else {
      cursor = 0;
      m = underMinQuota[cursor++];
    }
    const count = assignNew(id, m);
    if (count === minQuota) {
      if (!fromIterator) {
        throw new Error('Sticky assignor: a member at minQuota reached minQuota again (Kafka raises IllegalStateException here)');
      }
      cursor--;
      underMinQuota.splice(cursor, 1);
      exactlyMinQuota.push(m);
    } else if (count === maxQuota) {
      currentOverMinQuota++;
    }
  }

  // verifyUnfilledMembers
  if (underMinQuota.length > 0) {
    if (currentOverMinQuota !== expectedOverMinQuota) {
      throw new Error('Sticky assignor: the expected number of members over minQuota was not reached, but no partitions are left');
    }
    for (const m of underMinQuota) {
      if (assignment[m].length !== minQuota) {
        throw new Error(`Sticky assignor: consumer ${memberIds[m]} does not reach minQuota and no partitions are left`);
      }
    }
  }
  return { assignment, transferring };
}
