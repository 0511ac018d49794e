import { assign, subscriptionTypeOf } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import type {
  AssignedTopic,
  GroupAssignment,
  GroupSpec,
  MemberSpec,
  ServerAssignorName,
  TopicMetadata,
} from '../../../../../../src/simulator/coordinator/group/assignor/types';
import { uuidText } from '../../../../../../src/simulator/coordinator/group/assignor/uuid';
import { type SeededRandom } from '../../../../../../src/simulator/common/random';

/** Random group specs for the server assignors' property tests and the cross-check against Kafka's Java classes. */

export interface ServerAssignorCase {
  assignor: ServerAssignorName;
  groupSpec: GroupSpec;
  topics: TopicMetadata[];
}

/** A random topic id as Uuid.randomUuid() makes them (never starting with '-', which the CLI would read as an option). */
export function randomTopicId(random: SeededRandom): string {
  for (;;) {
    const bytes = new Uint8Array(16);
    for (let i = 0; i < 16; i++) {
      bytes[i] = random.nextInt(256);
    }
    const text = uuidText(bytes);
    if (!text.includes('-')) {
      return text;
    }
  }
}

export function shuffled<T>(random: SeededRandom, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.nextInt(i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function randomSubset<T>(random: SeededRandom, items: readonly T[], minSize: number): T[] {
  const size = minSize + random.nextInt(items.length - minSize + 1);
  return shuffled(random, items).slice(0, size);
}

function memberId(random: SeededRandom, index: number): string {
  switch (random.nextInt(3)) {
    case 0:
      return `member-${index}`;
    case 1:
      return randomTopicId(random);
    default:
      return random.uuid();
  }
}

/** A GroupAssignment as a member's current assignment, topics and partitions in a random iteration order. */
export function asCurrentAssignment(random: SeededRandom, topics: Map<string, number[]> | undefined): AssignedTopic[] {
  return shuffled(random, [...(topics ?? [])]).map(([topicId, partitions]) => ({ topicId, partitions: shuffled(random, partitions) }));
}

export interface RandomSpecOptions {
  maxTopics: number;
  maxPartitions: number;
  maxMembers: number;
  homogeneous: boolean;
  /**
   * none: no current assignment; previous: the assignor's own result for an earlier membership; random: claims,
   * disjoint ones unless the assignor is a share group's (`simple`), whose members share partitions.
   */
  current: 'none' | 'previous' | 'random';
}

/** Share groups let several members hold a partition, and assign only the partitions with initialized share state. */
function isShareGroupCase(assignor: ServerAssignorName): boolean {
  return assignor === 'simple';
}

function randomMembers(random: SeededRandom, count: number, topicIds: string[], homogeneous: boolean): MemberSpec[] {
  const shared = randomSubset(random, topicIds, 1);
  return Array.from({ length: count }, (_, i) => {
    const member: MemberSpec = {
      memberId: memberId(random, i),
      subscribedTopicIds: homogeneous ? shuffled(random, shared) : randomSubset(random, topicIds, random.nextInt(4) === 0 ? 0 : 1),
    };
    if (random.nextInt(3) === 0) {
      member.instanceId = `instance-${random.nextInt(1000)}`;
    }
    return member;
  });
}

function withoutDuplicateInstances(members: MemberSpec[]): MemberSpec[] {
  const seen = new Set<string>();
  return members.map((member) => {
    if (member.instanceId === undefined || !seen.has(member.instanceId)) {
      seen.add(member.instanceId ?? '');
      return member;
    }
    return { ...member, instanceId: undefined };
  });
}

/**
 * Claims of random partitions (also of topics a member no longer subscribes to, or that were deleted) by random
 * members: one owner at most, or up to four when `shared`.
 */
function randomClaims(random: SeededRandom, members: MemberSpec[], topics: TopicMetadata[], shared: boolean): MemberSpec[] {
  const claims = new Map<string, Map<string, number[]>>(members.map((m) => [m.memberId, new Map()]));
  const claimed = [...topics, { topicId: randomTopicId(random), numPartitions: 3 }];
  for (const topic of claimed) {
    for (let partition = 0; partition < topic.numPartitions; partition++) {
      const owners = shared
        ? shuffled(random, members).slice(0, random.nextInt(5))
        : random.nextInt(3) !== 0 ? [members[random.nextInt(members.length)]] : [];
      for (const ownerMember of owners) {
        const owner = claims.get(ownerMember.memberId) as Map<string, number[]>;
        owner.set(topic.topicId, [...(owner.get(topic.topicId) ?? []), partition]);
      }
    }
  }
  return members.map((member) => ({ ...member, assignment: asCurrentAssignment(random, claims.get(member.memberId)) }));
}

/** The assignor's result for a membership that differs a little (some left, some joined, some resubscribed). */
function previousRound(random: SeededRandom, assignor: ServerAssignorName, members: MemberSpec[], topics: TopicMetadata[], homogeneous: boolean): MemberSpec[] {
  const topicIds = topics.map((t) => t.topicId);
  const earlier = members.filter(() => random.nextInt(4) !== 0)
    .concat(randomMembers(random, random.nextInt(3), topicIds, homogeneous).map((m, i) => ({ ...m, memberId: `left-${i}` })))
    .map((m) => (!homogeneous && random.nextInt(4) === 0 ? { ...m, subscribedTopicIds: randomSubset(random, topicIds, 1) } : m));
  if (earlier.length === 0) {
    return members;
  }
  // An earlier, smaller topic: partitions added since then are unowned now.
  const earlierTopics = topics.map((t) => ({ ...t, numPartitions: random.nextInt(4) === 0 ? random.nextInt(t.numPartitions + 1) : t.numPartitions }));
  const spec = shuffled(random, earlier.map((m) => ({ ...m, assignment: [] })));
  const result: GroupAssignment = assign(assignor, { members: spec, subscriptionType: subscriptionTypeOf(spec) }, earlierTopics);
  return members.map((member) => ({ ...member, assignment: asCurrentAssignment(random, result.get(member.memberId)) }));
}

/**
 * A share group's initialized partitions: none given (every partition assignable) a third of the time, else a
 * random three quarters of each topic's partitions, some topics not at all.
 */
export function randomAllowedPartitions(random: SeededRandom, topics: readonly TopicMetadata[]): AssignedTopic[] | undefined {
  if (random.nextInt(3) === 0) {
    return undefined;
  }
  return topics.filter(() => random.nextInt(5) !== 0).map(({ topicId, numPartitions }) => ({
    topicId,
    partitions: Array.from({ length: numPartitions }, (_, p) => p).filter(() => random.nextInt(4) !== 0),
  }));
}

export function randomServerCase(random: SeededRandom, assignor: ServerAssignorName, options: RandomSpecOptions): ServerAssignorCase {
  const topicCount = 1 + random.nextInt(options.maxTopics);
  const topics: TopicMetadata[] = Array.from({ length: topicCount }, () => ({
    topicId: randomTopicId(random),
    numPartitions: random.nextInt(12) === 0 ? 0 : 1 + random.nextInt(options.maxPartitions),
  }));
  const topicIds = topics.map((t) => t.topicId);
  let members = withoutDuplicateInstances(randomMembers(random, 1 + random.nextInt(options.maxMembers), topicIds, options.homogeneous));
  if (options.current === 'random') {
    members = randomClaims(random, members, topics, isShareGroupCase(assignor));
  } else if (options.current === 'previous') {
    members = previousRound(random, assignor, members, topics, options.homogeneous);
  }
  const groupSpec: GroupSpec = { members, subscriptionType: subscriptionTypeOf(members) };
  if (isShareGroupCase(assignor)) {
    groupSpec.topicPartitionAllowedMap = randomAllowedPartitions(random, topics);
  }
  return { assignor, groupSpec, topics };
}
