import { assign, subscriptionTypeOf } from '../src/simulator/coordinator/group/assignor/index';
import type { AssignedTopic, MemberSpec, ServerAssignorName, TopicMetadata } from '../src/simulator/coordinator/group/assignor/types';
import { SeededRandom } from '../src/simulator/common/random';
import {
  asCurrentAssignment,
  randomTopicId,
  shuffled,
  type ServerAssignorCase,
} from '../test/unit/simulator/coordinator/group/assignor/randomGroupSpecs';

/**
 * Large inputs for the server assignors, shared by the Java cross-check and the benchmark: fresh groups, and
 * groups whose members carry the target assignment of an earlier membership (some left, new ones joined).
 */
export interface LargeServerCase {
  title: string;
  build(assignor: ServerAssignorName): Omit<ServerAssignorCase, 'assignor'>;
}

function topicsOf(random: SeededRandom, count: number, partitions: number): TopicMetadata[] {
  return Array.from({ length: count }, () => ({ topicId: randomTopicId(random), numPartitions: partitions }));
}

/** Members (Kafka 4.4's member ids are random Uuids) subscribed to all topics, or each to `perMember` random ones. */
function membersOf(random: SeededRandom, count: number, topics: TopicMetadata[], perMember?: number): MemberSpec[] {
  const all = topics.map((t) => t.topicId);
  return Array.from({ length: count }, () => ({
    memberId: randomTopicId(random),
    subscribedTopicIds: perMember === undefined ? shuffled(random, all) : shuffled(random, all).slice(0, perMember),
  }));
}

/**
 * The members that stay carry what `assignor` gave them when `left` more members were in the group; `joined`
 * new members have nothing yet.
 */
function withPreviousRound(random: SeededRandom, assignor: ServerAssignorName, staying: MemberSpec[], left: MemberSpec[], joined: MemberSpec[], topics: TopicMetadata[]): MemberSpec[] {
  const earlier = shuffled(random, [...staying, ...left]);
  const previous = assign(assignor, { members: earlier, subscriptionType: subscriptionTypeOf(earlier) }, topics);
  return shuffled(random, [
    ...staying.map((m) => ({ ...m, assignment: asCurrentAssignment(random, previous.get(m.memberId)) })),
    ...joined,
  ]);
}

function spec(members: MemberSpec[], topics: TopicMetadata[]): Omit<ServerAssignorCase, 'assignor'> {
  return { groupSpec: { members, subscriptionType: subscriptionTypeOf(members) }, topics };
}

export function largeServerCases(): LargeServerCase[] {
  return [
    {
      title: '1,000 members x 100 topics x 100 partitions, homogeneous, fresh',
      build: () => {
        const random = new SeededRandom(1001);
        const topics = topicsOf(random, 100, 100);
        return spec(membersOf(random, 1000, topics), topics);
      },
    },
    {
      title: '1,000 members x 100 topics x 100 partitions, homogeneous, 100 left and 100 joined',
      build: (assignor) => {
        const random = new SeededRandom(1002);
        const topics = topicsOf(random, 100, 100);
        const members = membersOf(random, 1100, topics);
        return spec(withPreviousRound(random, assignor, members.slice(0, 900), members.slice(900, 1000), members.slice(1000), topics), topics);
      },
    },
    {
      title: '2,000 members over one 10,000-partition topic, fresh',
      build: () => {
        const random = new SeededRandom(2001);
        const topics = topicsOf(random, 1, 10_000);
        return spec(membersOf(random, 2000, topics), topics);
      },
    },
    {
      title: '2,000 members over one 10,000-partition topic, 200 left and 200 joined',
      build: (assignor) => {
        const random = new SeededRandom(2002);
        const topics = topicsOf(random, 1, 10_000);
        const members = membersOf(random, 2200, topics);
        return spec(withPreviousRound(random, assignor, members.slice(0, 1800), members.slice(1800, 2000), members.slice(2000), topics), topics);
      },
    },
    {
      title: '1,000 members each on 50 of 100 topics x 100 partitions, heterogeneous, fresh',
      build: () => {
        const random = new SeededRandom(3001);
        const topics = topicsOf(random, 100, 100);
        return spec(membersOf(random, 1000, topics, 50), topics);
      },
    },
    {
      title: '1,000 members each on 50 of 100 topics x 100 partitions, heterogeneous, 100 left and 100 joined',
      build: (assignor) => {
        const random = new SeededRandom(3002);
        const topics = topicsOf(random, 100, 100);
        const members = membersOf(random, 1100, topics, 50);
        return spec(withPreviousRound(random, assignor, members.slice(0, 900), members.slice(900, 1000), members.slice(1000), topics), topics);
      },
    },
  ];
}

/** A random three quarters of every topic's partitions: the ones whose share state a share group initialized. */
function initializedPartitions(random: SeededRandom, topics: TopicMetadata[]): AssignedTopic[] {
  return topics.map(({ topicId, numPartitions }) => ({
    topicId,
    partitions: Array.from({ length: numPartitions }, (_, p) => p).filter(() => random.nextInt(4) !== 0),
  }));
}

/** Large share groups (`simple`): more members than partitions, so partitions are shared, and partial share state. */
export function largeShareGroupCases(): LargeServerCase[] {
  return [
    {
      title: '2,000 members over one 100-partition topic, fresh',
      build: () => {
        const random = new SeededRandom(4001);
        const topics = topicsOf(random, 1, 100);
        return spec(membersOf(random, 2000, topics), topics);
      },
    },
    {
      title: '500 members x 3 topics x 40 partitions, homogeneous, 50 left and 50 joined, 3/4 initialized',
      build: (assignor) => {
        const random = new SeededRandom(4002);
        const topics = topicsOf(random, 3, 40);
        const members = membersOf(random, 550, topics);
        const result = spec(withPreviousRound(random, assignor, members.slice(0, 450), members.slice(450, 500), members.slice(500), topics), topics);
        return { ...result, groupSpec: { ...result.groupSpec, topicPartitionAllowedMap: initializedPartitions(random, topics) } };
      },
    },
    {
      title: '1,000 members each on 2 of 10 topics x 30 partitions, heterogeneous, 100 left and 100 joined, 3/4 initialized',
      build: (assignor) => {
        const random = new SeededRandom(4003);
        const topics = topicsOf(random, 10, 30);
        const members = membersOf(random, 1100, topics, 2);
        const result = spec(withPreviousRound(random, assignor, members.slice(0, 900), members.slice(900, 1000), members.slice(1000), topics), topics);
        return { ...result, groupSpec: { ...result.groupSpec, topicPartitionAllowedMap: initializedPartitions(random, topics) } };
      },
    },
  ];
}
