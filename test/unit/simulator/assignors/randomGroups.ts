import type { TopicPartition } from '../../../../src/model/types';
import type { AssignInput, AssignorMember, AssignResult } from '../../../../src/simulator/assignors/types';
import { type SeededRandom } from '../../../../src/simulator/common/random';

/** Random group inputs for property tests and the cross-check against Kafka's Java assignors. */

function pick<T>(random: SeededRandom, items: readonly T[]): T {
  return items[random.nextInt(items.length)];
}

/** A random non-empty subset of `items`, in random order, without repeats. */
function randomSubset<T>(random: SeededRandom, items: readonly T[], maxSize = items.length): T[] {
  const pool = [...items];
  const size = 1 + random.nextInt(Math.min(maxSize, pool.length));
  const chosen: T[] = [];
  for (let i = 0; i < size; i++) {
    chosen.push(pool.splice(random.nextInt(pool.length), 1)[0]);
  }
  return chosen;
}

function memberId(random: SeededRandom, index: number): string {
  switch (random.nextInt(3)) {
    case 0:
      return `consumer${index + 1}`;
    case 1:
      return `consumer-app-${index + 1}-${random.uuid()}`;
    default:
      return random.uuid();
  }
}

export interface RandomGroupOptions {
  maxTopics: number;
  maxPartitions: number;
  maxMembers: number;
  /** Chance that a member is static (has a group.instance.id). */
  staticShare?: number;
  /** When true every member subscribes to the same topics (the constrained sticky path). */
  equalSubscriptions?: boolean;
}

/** A fresh group: random topics and partition counts, members with random non-empty subscriptions, nothing owned. */
export function randomGroup(random: SeededRandom, options: RandomGroupOptions): AssignInput {
  const topicCount = 1 + random.nextInt(options.maxTopics);
  const topics = Array.from({ length: topicCount }, (_, i) => `${pick(random, ['t', 'topic', 'orders.', 'T'])}${i}`);
  const partitionsPerTopic: Record<string, number> = {};
  topics.forEach((topic) => {
    partitionsPerTopic[topic] = 1 + random.nextInt(options.maxPartitions);
  });
  const shared = randomSubset(random, topics);
  const memberCount = 1 + random.nextInt(options.maxMembers);
  const members: AssignorMember[] = Array.from({ length: memberCount }, (_, i) => {
    const member: AssignorMember = {
      memberId: memberId(random, i),
      topics: options.equalSubscriptions ? [...shared] : randomSubset(random, topics),
    };
    if (random.next() < (options.staticShare ?? 0)) {
      member.groupInstanceId = `instance-${random.nextInt(1000)}`;
    }
    return member;
  });
  // Instance ids must be unique within a group.
  const seenInstances = new Set<string>();
  for (const member of members) {
    if (member.groupInstanceId !== undefined && seenInstances.has(member.groupInstanceId)) {
      delete member.groupInstanceId;
    }
    if (member.groupInstanceId !== undefined) {
      seenInstances.add(member.groupInstanceId);
    }
  }
  return { partitionsPerTopic, members };
}

function allPartitions(input: AssignInput): TopicPartition[] {
  return Object.entries(input.partitionsPerTopic).flatMap(([topic, count]) =>
    Array.from({ length: count }, (_, partition) => ({ topic, partition })));
}

/**
 * Adds random, possibly conflicting claims: each member claims a random set of partitions at a random generation,
 * or none — the inputs that stress conflict resolution. Claims include a deleted topic; with
 * `anyTopic` they also include topics the member does not subscribe to. Kafka's general sticky builder can hand
 * such a stale claim back to its old owner (see sticky.test.ts), so the property tests leave `anyTopic` off.
 */
export function withRandomClaims(random: SeededRandom, input: AssignInput, anyTopic: boolean): AssignInput {
  const deleted = { topic: 'deleted-topic', partition: 0 };
  const members = input.members.map((member) => {
    if (random.next() < 0.2) {
      return { ...member };
    }
    const partitions = [...allPartitions(input).filter((p) => anyTopic || member.topics.includes(p.topic)), deleted];
    const owned = random.next() < 0.15 ? [] : randomSubset(random, partitions, Math.max(1, Math.ceil(partitions.length / 2)));
    const generation = pick(random, [undefined, -1, 1, 2, 2, 3]);
    return generation === undefined ? { ...member, owned } : { ...member, owned, generation };
  });
  return { ...input, members };
}

/** The next rebalance: every member reports what `result` gave it, at `generation`. */
export function reportingOwned(input: AssignInput, result: AssignResult, generation: number): AssignInput {
  return {
    ...input,
    members: input.members.map((member) => ({ ...member, owned: result[member.memberId].map((tp) => ({ ...tp })), generation })),
  };
}

/** Removes `count` random members (at least one stays). */
export function withoutRandomMembers(random: SeededRandom, input: AssignInput, count: number): AssignInput {
  const members = [...input.members];
  for (let i = 0; i < count && members.length > 1; i++) {
    members.splice(random.nextInt(members.length), 1);
  }
  return { ...input, members };
}
