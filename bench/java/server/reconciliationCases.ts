/**
 * Random inputs for Kafka's CurrentAssignmentBuilder (one reconciliation step of one member), for the
 * cross-check of src/simulator/coordinator/group/modern/consumer/currentAssignmentBuilder.ts against Kafka 4.4.0's class
 * (bench/java/serverCrossCheck.ts --reconciliation). The inputs are ones a coordinator can meet: the
 * member's own partitions are owned at its epoch, other partitions are free or owned by someone else.
 */
import { newConsumerGroupMember } from '../../../src/simulator/coordinator/group/modern/consumer/consumerGroupMember';
import { reconcileMember } from '../../../src/simulator/coordinator/group/modern/consumer/currentAssignmentBuilder';
import { uuidText } from '../../../src/simulator/coordinator/group/assignor/uuid';
import { InMemoryTopicImage } from '../../../src/simulator/coordinator/group/modern/topicImage';
import { KafkaApiError, MemberState, type PartitionEpochs } from '../../../src/simulator/coordinator/group/modern/consumer/types';
import type { SeededRandom } from '../../../src/simulator/common/random';

type Epochs = Record<string, Record<string, number>>;

export interface ReconciliationCase {
  topics: Array<{ id: string; name: string; partitions: number }>;
  member: { state: number; memberEpoch: number; previousMemberEpoch: number; subscribedTopicNames: string[]; assigned: Epochs; pending: Epochs };
  targetEpoch: number;
  target: Record<string, number[]>;
  ownerEpochs: Epochs;
  owned: Array<{ topicId: string; partitions: number[] }> | null;
  hasSubscriptionChanged: boolean;
}

function randomTopicId(random: SeededRandom): string {
  return uuidText(Uint8Array.from({ length: 16 }, () => random.nextInt(256)));
}

function pick<T>(random: SeededRandom, items: readonly T[], chance: number): T[] {
  return items.filter(() => random.next() < chance);
}

export function randomReconciliationCase(random: SeededRandom): ReconciliationCase {
  const topics = Array.from({ length: 1 + random.nextInt(3) }, (_, i) => ({ id: randomTopicId(random), name: `topic-${i}`, partitions: 1 + random.nextInt(6) }));
  const states = [MemberState.STABLE, MemberState.UNREVOKED_PARTITIONS, MemberState.UNRELEASED_PARTITIONS, MemberState.STABLE, MemberState.UNKNOWN];
  const state = states[random.nextInt(random.next() < 0.1 ? 5 : 4)];
  const memberEpoch = 1 + random.nextInt(20);
  const subscribed = pick(random, topics.map((t) => t.name), 0.7);
  if (random.next() < 0.1) {
    subscribed.push('not-a-topic');
  }
  const assigned: Epochs = {};
  const pending: Epochs = {};
  const target: Record<string, number[]> = {};
  const ownerEpochs: Epochs = {};
  const ownedPartitions: Array<{ topicId: string; partitions: number[] }> = [];
  for (const topic of topics) {
    const all = Array.from({ length: topic.partitions }, (_, p) => p);
    const mine = pick(random, all, 0.4);
    const pendingHere = state === MemberState.UNREVOKED_PARTITIONS ? pick(random, all.filter((p) => !mine.includes(p)), 0.3) : [];
    if (mine.length > 0) {
      assigned[topic.id] = Object.fromEntries(mine.map((p) => [String(p), 1 + random.nextInt(memberEpoch)]));
    }
    if (pendingHere.length > 0) {
      pending[topic.id] = Object.fromEntries(pendingHere.map((p) => [String(p), 1 + random.nextInt(memberEpoch)]));
    }
    const targetHere = pick(random, all, 0.5);
    if (targetHere.length > 0) {
      target[topic.id] = targetHere;
    }
    const owners: Record<string, number> = {};
    for (const p of all) {
      if (mine.includes(p) || pendingHere.includes(p)) {
        owners[String(p)] = memberEpoch;
      } else if (random.next() < 0.4) {
        owners[String(p)] = 1 + random.nextInt(memberEpoch + 2);
      }
    }
    ownerEpochs[topic.id] = owners;
    const reported = pick(random, [...mine, ...pendingHere], 0.7);
    if (reported.length > 0) {
      ownedPartitions.push({ topicId: topic.id, partitions: reported.sort((a, b) => a - b) });
    }
  }
  return {
    topics,
    member: { state, memberEpoch, previousMemberEpoch: memberEpoch - random.nextInt(2), subscribedTopicNames: subscribed, assigned, pending },
    targetEpoch: memberEpoch + random.nextInt(3),
    target,
    ownerEpochs,
    owned: random.next() < 0.2 ? null : ownedPartitions,
    hasSubscriptionChanged: random.next() < 0.3,
  };
}

function toEpochs(plain: Epochs): PartitionEpochs {
  return new Map(Object.entries(plain).map(([topicId, partitions]) => [topicId, new Map(Object.entries(partitions).map(([p, e]) => [Number(p), e]))]));
}

function canonical(assignment: PartitionEpochs): string {
  const topics = [...assignment.keys()].sort();
  return `{${topics.map((topicId) => {
    const partitions = [...(assignment.get(topicId) ?? new Map<number, number>())].sort(([a], [b]) => a - b);
    return `${JSON.stringify(topicId)}:{${partitions.map(([p, e]) => `"${p}":${e}`).join(',')}}`;
  }).join(',')}}`;
}

/** Our reconciliation step, printed as the Java harness prints Kafka's. */
export function ourReconciliation(testCase: ReconciliationCase): string {
  const image = new InMemoryTopicImage(testCase.topics.map((t) => ({ topicId: t.id, name: t.name, numPartitions: t.partitions })));
  const member = {
    ...newConsumerGroupMember('member'),
    state: testCase.member.state as MemberState,
    memberEpoch: testCase.member.memberEpoch,
    previousMemberEpoch: testCase.member.previousMemberEpoch,
    subscribedTopicNames: testCase.member.subscribedTopicNames,
    assignedPartitions: toEpochs(testCase.member.assigned),
    partitionsPendingRevocation: toEpochs(testCase.member.pending),
  };
  try {
    const next = reconcileMember(member, {
      metadataImage: image,
      targetAssignmentEpoch: testCase.targetEpoch,
      targetAssignment: new Map(Object.entries(testCase.target).map(([topicId, partitions]) => [topicId, new Set(partitions)])),
      hasSubscriptionChanged: testCase.hasSubscriptionChanged,
      resolvedRegularExpressions: new Map(),
      currentPartitionEpoch: (topicId, partition) => testCase.ownerEpochs[topicId]?.[String(partition)] ?? -1,
      ownedTopicPartitions: testCase.owned,
    });
    return `{"state":${next.state},"memberEpoch":${next.memberEpoch},"previousMemberEpoch":${next.previousMemberEpoch},`
      + `"assigned":${canonical(next.assignedPartitions)},"pending":${canonical(next.partitionsPendingRevocation)}}`;
  } catch (error) {
    return error instanceof KafkaApiError && error.errorName === 'FENCED_MEMBER_EPOCH' ? '{"error":"FencedMemberEpochException"}' : `{"error":${JSON.stringify(String(error))}}`;
  }
}
