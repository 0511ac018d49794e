import type { AssignorMember } from './types';
import type { StickyBuild } from './constrainedAssignment';
import type { PartitionSpace } from './partitionSpace';
import { PartitionMovements } from './partitionMovements';
import { SizeOrderedMembers } from './sizeOrderedMembers';
import { memberGeneration, type StickyClaims } from './stickyClaims';

/** Member ranks in Java String order of their ids, both ways. */
export interface MemberRanks {
  rankOf: Int32Array;
  memberOfRank: Int32Array;
}

/** Which member subscribes to which assigned topic, one bit each. */
class SubscriptionMatrix {
  private readonly bits: Uint32Array;

  constructor(private readonly topicCount: number, topicsOf: readonly number[][]) {
    this.bits = new Uint32Array(Math.ceil((topicsOf.length * topicCount) / 32) || 1);
    topicsOf.forEach((topics, m) => topics.forEach((t) => {
      const bit = m * topicCount + t;
      this.bits[bit >>> 5] |= 1 << (bit & 31);
    }));
  }

  has(member: number, topic: number): boolean {
    const bit = member * this.topicCount + topic;
    return (this.bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
  }
}

/** The ids of `ids` for which `keep` holds, as a new typed array. */
function filterIds(ids: Int32Array, keep: (id: number) => boolean): Int32Array {
  const kept = new Int32Array(ids.length);
  let n = 0;
  for (let i = 0; i < ids.length; i++) {
    if (keep(ids[i])) {
      kept[n++] = ids[i];
    }
  }
  return kept.slice(0, n);
}

/** Sum over member pairs of the difference in partition counts, wrapped to a Java int as Kafka's getBalanceScore is. */
function balanceScore(sizes: number[]): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let score = 0;
  sorted.forEach((size, j) => {
    score += size * (2 * j - (sorted.length - 1));
  });
  return score | 0;
}

/**
 * Port of AbstractStickyAssignor.GeneralAssignmentBuilder (members subscribe to different topics), without the
 * rack-aware steps (no racks are modelled). It keeps valid owned partitions, gives each unassigned partition to
 * the least-loaded eligible member, then moves partitions towards balance, keeping the result only when it scores
 * better. The iteration orders that pick among equals are Kafka's: the leader's HashMap order of members for
 * generation ties, the TreeSet order (count, member id) for the receiving member, partitions by topic popularity.
 * Speed-ups that do not change results: partitions are integer ids, isBalanced() and each topic's smallest
 * eligible count are recomputed only after a move, and isBalanced's scan uses each topic's two largest owners.
 */
export function buildGeneral(
  space: PartitionSpace,
  members: readonly AssignorMember[],
  visitOrder: readonly number[],
  claims: StickyClaims,
  ranks: MemberRanks,
): StickyBuild {
  const memberCount = members.length;
  const topicCount = space.topics.length;
  const total = space.size;

  const topicsOf: number[][] = members.map((member) =>
    member.topics.map((topic) => space.indexOfTopic(topic)).filter((t) => t >= 0));
  const subscribed = new SubscriptionMatrix(topicCount, topicsOf);
  const potentialConsumers: number[][] = Array.from({ length: topicCount }, () => []);
  for (const m of visitOrder) {
    for (const t of topicsOf[m]) {
      potentialConsumers[t].push(m);
    }
  }
  const maxAssignmentSize = topicsOf.map((topics) => topics.reduce((sum, t) => sum + space.partitionCount(t), 0));

  // currentAssignment, with each partition's position in its owner's list for O(1) removal.
  const current: number[][] = claims.owned.map((ids) => [...ids]);
  const position = new Int32Array(total);
  const owner = new Int32Array(total).fill(-1);
  current.forEach((ids, m) => ids.forEach((id, i) => {
    position[id] = i;
    owner[id] = m;
  }));
  const addTo = (m: number, id: number): void => {
    position[id] = current[m].length;
    current[m].push(id);
  };
  const removeFrom = (m: number, id: number): void => {
    const list = current[m];
    const last = list.pop() as number;
    if (last !== id) {
      const i = position[id];
      list[i] = last;
      position[last] = i;
    }
  };

  const sortedTopics = Array.from({ length: topicCount }, (_, t) => t)
    .sort((a, b) => potentialConsumers[a].length - potentialConsumers[b].length || a - b);
  let sortedAllPartitions: Int32Array = new Int32Array(total);
  let filled = 0;
  for (const t of sortedTopics) {
    const first = space.firstId(t);
    const end = first + space.partitionCount(t);
    for (let id = first; id < end; id++) {
      sortedAllPartitions[filled++] = id;
    }
  }
  const sorted = new SizeOrderedMembers(ranks.rankOf, ranks.memberOfRank);
  const movements = new PartitionMovements(space, memberCount);

  // prepopulateCurrentAssignments: for members behind the highest generation, remember the latest earlier owner.
  const prevConsumer = new Int32Array(total).fill(-1);
  const prevGeneration = new Int32Array(total);
  for (const m of visitOrder) {
    const generation = memberGeneration(members[m]);
    if (generation >= claims.maxGeneration) {
      continue;
    }
    for (const tp of members[m].owned ?? []) {
      const id = space.idOf(tp);
      if (id >= 0 && (prevConsumer[id] < 0 || generation > prevGeneration[id])) {
        prevConsumer[id] = m;
        prevGeneration[id] = generation;
      }
    }
  }

  // assignOwnedPartitions: drop owned partitions of topics the member no longer subscribes to.
  let revocationRequired = false;
  const assigned = new Uint8Array(total);
  for (const m of visitOrder) {
    const kept = current[m].filter((id) => subscribed.has(m, space.topicOf(id)));
    if (kept.length !== current[m].length) {
      revocationRequired = true;
      current[m] = kept;
      kept.forEach((id, i) => {
        position[id] = i;
      });
    }
    kept.forEach((id) => {
      assigned[id] = 1;
    });
  }
  let unassigned = filterIds(sortedAllPartitions, (id) => assigned[id] === 0);
  for (let m = 0; m < memberCount; m++) {
    sorted.add(m, current[m].length);
  }

  // One predicate for all scans (no closure per partition): the topic being placed is a captured variable.
  let placingTopic = -1;
  const subscribesToPlacingTopic = (m: number): boolean => subscribed.has(m, placingTopic);
  const firstEligible = (t: number): number => {
    placingTopic = t;
    return sorted.scan(subscribesToPlacingTopic);
  };

  // balance()
  const initializing = current[sorted.last()].length === 0;
  for (const id of unassigned) {
    const t = space.topicOf(id);
    if (potentialConsumers[t].length === 0) {
      continue;
    }
    const m = firstEligible(t);
    sorted.remove(m);
    addTo(m, id);
    owner[id] = m;
    sorted.add(m, current[m].length);
  }

  const topicCanMove = (t: number): boolean => potentialConsumers[t].length >= 2;
  sortedAllPartitions = filterIds(sortedAllPartitions, (id) => topicCanMove(space.topicOf(id)));
  unassigned = filterIds(unassigned, (id) => topicCanMove(space.topicOf(id)));

  const fixed = new Uint8Array(memberCount);
  for (let m = 0; m < memberCount; m++) {
    const canMove = current[m].length < maxAssignmentSize[m] || current[m].some((id) => topicCanMove(space.topicOf(id)));
    if (!canMove) {
      fixed[m] = 1;
      sorted.remove(m);
    }
  }
  const movable = Array.from({ length: memberCount }, (_, m) => m).filter((m) => fixed[m] === 0);
  const preBalance = movable.map((m) => [...current[m]]);
  const preBalanceOwner = owner.slice();

  // Cached per state version: every move bumps it.
  let version = 0;
  let balancedVersion = -1;
  let balancedValue = false;
  const smallestVersion = new Int32Array(topicCount).fill(-1);
  const smallestCount = new Int32Array(topicCount);

  const smallestEligibleCount = (t: number): number => {
    if (smallestVersion[t] !== version) {
      let smallest = Infinity;
      for (const m of potentialConsumers[t]) {
        smallest = Math.min(smallest, current[m].length);
      }
      smallestCount[t] = smallest;
      smallestVersion[t] = version;
    }
    return smallestCount[t];
  };

  const computeBalanced = (): boolean => {
    const min = current[sorted.first()].length;
    const max = current[sorted.last()].length;
    if (min >= max - 1) {
      return true;
    }
    // Per topic, the largest owner count and the largest among the other owners.
    const top = new Float64Array(topicCount).fill(-Infinity);
    const topOwner = new Int32Array(topicCount).fill(-1);
    const second = new Float64Array(topicCount).fill(-Infinity);
    for (let id = 0; id < total; id++) {
      const m = owner[id];
      if (m < 0 || fixed[m] === 1) {
        continue;
      }
      const t = space.topicOf(id);
      const count = current[m].length;
      if (m === topOwner[t]) {
        continue;
      }
      if (count > top[t]) {
        second[t] = top[t];
        top[t] = count;
        topOwner[t] = m;
      } else if (count > second[t]) {
        second[t] = count;
      }
    }
    const movableFound = sorted.scan((m) => {
      const count = current[m].length;
      if (count === maxAssignmentSize[m]) {
        return false;
      }
      return topicsOf[m].some((t) => count + 1 < (topOwner[t] === m ? second[t] : top[t]));
    });
    return movableFound < 0;
  };
  const isBalanced = (): boolean => {
    if (balancedVersion !== version) {
      balancedValue = computeBalanced();
      balancedVersion = version;
    }
    return balancedValue;
  };

  const processPartitionMovement = (id: number, newConsumer: number): void => {
    const oldConsumer = owner[id];
    sorted.remove(oldConsumer);
    sorted.remove(newConsumer);
    movements.movePartition(id, oldConsumer, newConsumer);
    removeFrom(oldConsumer, id);
    addTo(newConsumer, id);
    owner[id] = newConsumer;
    sorted.add(newConsumer, current[newConsumer].length);
    sorted.add(oldConsumer, current[oldConsumer].length);
    version++;
  };
  const reassignPartition = (id: number, newConsumer: number): void => {
    processPartitionMovement(movements.actualPartitionToMove(id, owner[id], newConsumer), newConsumer);
  };

  const performReassignments = (partitions: Int32Array): boolean => {
    let performed = false;
    let modified: boolean;
    do {
      modified = false;
      for (let i = 0; i < partitions.length && !isBalanced(); i++) {
        const id = partitions[i];
        const consumer = owner[id];
        const previous = prevConsumer[id];
        if (previous >= 0) {
          if (fixed[previous] === 1) {
            throw new Error(`Sticky assignor: earlier owner ${members[previous].memberId} of a movable partition takes no part ` +
              'in balancing (Kafka fails here with a NullPointerException)');
          }
          if (current[consumer].length > current[previous].length + 1) {
            reassignPartition(id, previous);
            performed = modified = true;
            continue;
          }
        }
        if (smallestEligibleCount(space.topicOf(id)) + 1 < current[consumer].length) {
          reassignPartition(id, firstEligible(space.topicOf(id)));
          performed = modified = true;
        }
      }
    } while (modified);
    return performed;
  };

  if (!revocationRequired) {
    performReassignments(unassigned);
  }
  const performed = performReassignments(sortedAllPartitions);
  if (!initializing && performed &&
    balanceScore(movable.map((m) => current[m].length)) >= balanceScore(preBalance.map((ids) => ids.length))) {
    owner.set(preBalanceOwner);
    movable.forEach((m, i) => {
      current[m] = preBalance[i];
    });
  }
  return { assignment: current, transferring: null };
}
