import type { AssignorMember } from './types';
import type { PartitionSpace } from './partitionSpace';

export const DEFAULT_GENERATION = -1;

/** What AbstractStickyAssignor.allSubscriptionsEqual works out from the members' claims. */
export interface StickyClaims {
  allSubscriptionsEqual: boolean;
  /** Per member (input index): the partitions it still validly owns, in its own claim order. */
  owned: number[][];
  /** 1 for partitions claimed by two members of the same generation (stripped from both). */
  multiplyClaimed: Uint8Array;
  /** Highest generation among the members (the assignor's maxGeneration). */
  maxGeneration: number;
}

export function memberGeneration(member: AssignorMember): number {
  return member.generation ?? DEFAULT_GENERATION;
}

/**
 * Port of AbstractStickyAssignor.allSubscriptionsEqual. Members are visited in the leader's HashMap order
 * (`visitOrder`), which decides who keeps a partition claimed three or more times. A contested partition goes to
 * the higher generation; at equal generation it is taken from both and marked as multiply claimed. Only partitions
 * of assigned topics count. Like Kafka, the subscription comparison starts from the first non-empty topic list.
 */
export function resolveClaims(members: readonly AssignorMember[], visitOrder: readonly number[], space: PartitionSpace): StickyClaims {
  let allSubscriptionsEqual = true;
  const subscribedTopics = new Set<string>();
  const owner = new Int32Array(space.size).fill(-1);
  const holder = new Int32Array(space.size).fill(-1);
  const multiplyClaimed = new Uint8Array(space.size);
  const claimed: number[][] = members.map(() => []);
  let maxGeneration = DEFAULT_GENERATION;

  for (const m of visitOrder) {
    const member = members[m];
    if (subscribedTopics.size === 0) {
      member.topics.forEach((topic) => subscribedTopics.add(topic));
    } else if (allSubscriptionsEqual &&
      !(member.topics.length === subscribedTopics.size && member.topics.every((topic) => subscribedTopics.has(topic)))) {
      allSubscriptionsEqual = false;
    }
    const generation = memberGeneration(member);
    maxGeneration = Math.max(maxGeneration, generation);
    for (const tp of member.owned ?? []) {
      const id = space.idOf(tp);
      if (id < 0) {
        continue;
      }
      const other = owner[id];
      if (other < 0) {
        claimed[m].push(id);
        holder[id] = m;
        owner[id] = m;
        continue;
      }
      const otherGeneration = memberGeneration(members[other]);
      if (generation === otherGeneration) {
        multiplyClaimed[id] = 1;
        holder[id] = -1;
        owner[id] = m;
      } else if (generation > otherGeneration) {
        claimed[m].push(id);
        holder[id] = m;
        owner[id] = m;
      }
    }
  }
  const owned = claimed.map((ids, m) => ids.filter((id) => holder[id] === m));
  return { allSubscriptionsEqual, owned, multiplyClaimed, maxGeneration };
}
