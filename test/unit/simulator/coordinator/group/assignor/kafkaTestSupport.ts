import * as assert from 'node:assert/strict';
import { assign } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { parseUuid } from '../../../../../../src/simulator/coordinator/group/assignor/uuid';
import type { GroupAssignment, MemberSpec, ServerAssignorName, SubscriptionType, TopicMetadata } from '../../../../../../src/simulator/coordinator/group/assignor/types';

/**
 * The topic ids of Kafka's own assignor tests (UniformHomogeneousAssignmentBuilderTest & co.), in canonical text:
 * some of Kafka's have spare bits set in their last character, which Uuid.fromString ignores and so do we.
 */
export const topic1 = parseUuid('T1-A4s3VTwiI5CTbEp6POw').text;
export const topic2 = parseUuid('T2-B4s3VTwiI5YHbPp6YUe').text;
export const topic3 = parseUuid('T3-CU8fVTLCz5YMkLoDQsa').text;
export const topic4 = parseUuid('T4-Tw9fVTLCz5HbPp6YQsa').text;

export type TopicPartitions = { topicId: string; partitions: number[] };
export type PlainAssignment = Record<string, Record<string, number[]>>;

/** mkTopicAssignment: one topic's partitions. */
export function tp(topicId: string, ...partitions: number[]): TopicPartitions {
  return { topicId, partitions };
}

export function member(memberId: string, subscribedTopicIds: string[], assignment: TopicPartitions[] = [], instanceId?: string): MemberSpec {
  return instanceId === undefined ? { memberId, subscribedTopicIds, assignment } : { memberId, subscribedTopicIds, assignment, instanceId };
}

export function topicsWith(...counts: Array<[string, number]>): TopicMetadata[] {
  return counts.map(([topicId, numPartitions]) => ({ topicId, numPartitions }));
}

/** The result as plain objects, members and topics sorted and members without partitions left out, for deepEqual. */
export function plain(result: GroupAssignment): PlainAssignment {
  const out: PlainAssignment = {};
  for (const memberId of [...result.keys()].sort()) {
    const topics = result.get(memberId) as Map<string, number[]>;
    if (topics.size > 0) {
      out[memberId] = Object.fromEntries([...topics.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
    }
  }
  return out;
}

export function run(name: ServerAssignorName, type: SubscriptionType, members: MemberSpec[], topics: TopicMetadata[]): PlainAssignment {
  return plain(assign(name, { members, subscriptionType: type }, topics));
}

/** assertAssignment of Kafka's tests: `expected` lists members and their topics (members with nothing may be omitted). */
export function assertAssignment(actual: PlainAssignment, expected: Record<string, TopicPartitions[]>): void {
  const wanted: PlainAssignment = {};
  for (const memberId of Object.keys(expected).sort()) {
    if (expected[memberId].length > 0) {
      wanted[memberId] = Object.fromEntries(expected[memberId]
        .map((t): [string, number[]] => [t.topicId, [...t.partitions].sort((a, b) => a - b)])
        .sort(([a], [b]) => (a < b ? -1 : 1)));
    }
  }
  assert.deepEqual(actual, wanted);
}
