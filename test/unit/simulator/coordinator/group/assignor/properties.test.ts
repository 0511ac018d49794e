import * as assert from 'node:assert/strict';
import { assign, subscriptionTypeOf, type GroupAssignment, type ServerAssignorName } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { SeededRandom } from '../../../../../../src/simulator/common/random';
import { asCurrentAssignment, randomServerCase, type ServerAssignorCase } from './randomGroupSpecs';

/** Seeded property tests of the server assignors: what Kafka's checkValidityAndBalance checks, and stickiness. */

const CASES_PER_KIND = 150;

function sizes(result: GroupAssignment): Map<string, number> {
  return new Map([...result].map(([memberId, topics]) => [memberId, [...topics.values()].reduce((sum, p) => sum + p.length, 0)]));
}

/** Every partition of every subscribed topic goes to exactly one member, and only to a subscriber. */
function assertValid(testCase: ServerAssignorCase, result: GroupAssignment): void {
  const subscriptions = new Map(testCase.groupSpec.members.map((m) => [m.memberId, new Set(m.subscribedTopicIds)]));
  assert.deepEqual(new Set(result.keys()), new Set(subscriptions.keys()), 'every member is in the result');
  const owners = new Map<string, string>();
  for (const [memberId, topics] of result) {
    for (const [topicId, partitions] of topics) {
      assert.ok(subscriptions.get(memberId)?.has(topicId), `${memberId} got ${topicId} without subscribing to it`);
      for (const partition of partitions) {
        const key = `${topicId}-${partition}`;
        assert.equal(owners.get(key), undefined, `${key} assigned twice`);
        owners.set(key, memberId);
      }
    }
  }
  const subscribed = new Set([...subscriptions.values()].flatMap((topics) => [...topics]));
  const expected = testCase.topics.filter((t) => subscribed.has(t.topicId)).reduce((sum, t) => sum + t.numPartitions, 0);
  assert.equal(owners.size, expected, 'every partition of a subscribed topic is assigned');
}

/** Uniform: no partition could move to another subscriber of its topic that has two or more fewer partitions. */
function assertBalanced(testCase: ServerAssignorCase, result: GroupAssignment): void {
  const counts = sizes(result);
  if (testCase.groupSpec.subscriptionType === 'HOMOGENEOUS') {
    const values = [...counts.values()];
    assert.ok(Math.max(...values) - Math.min(...values) <= 1, `homogeneous sizes ${values.join(',')} differ by more than one`);
    return;
  }
  for (const [memberId, topics] of result) {
    for (const topicId of topics.keys()) {
      for (const other of testCase.groupSpec.members) {
        if (other.subscribedTopicIds.includes(topicId)) {
          assert.ok((counts.get(memberId) ?? 0) - (counts.get(other.memberId) ?? 0) <= 1,
            `${memberId} could give a partition of ${topicId} to ${other.memberId}`);
        }
      }
    }
  }
}

function kinds(): Array<{ assignor: ServerAssignorName; homogeneous: boolean; current: 'none' | 'previous' | 'random' }> {
  return (['uniform', 'range'] as const).flatMap((assignor) => [true, false].flatMap((homogeneous) =>
    (['none', 'previous', 'random'] as const).map((current) => ({ assignor, homogeneous, current }))));
}

describe('server assignors: seeded properties', () => {
  for (const kind of kinds()) {
    const label = `${kind.assignor}, ${kind.homogeneous ? 'homogeneous' : 'heterogeneous'}, current assignment: ${kind.current}`;
    it(`assigns every subscribed partition exactly once, to a subscriber (${label})`, () => {
      const random = new SeededRandom(4400 + kinds().indexOf(kind));
      for (let i = 0; i < CASES_PER_KIND; i++) {
        const testCase = randomServerCase(random, kind.assignor, { maxTopics: 8, maxPartitions: 12, maxMembers: 9, ...kind });
        const result = assign(testCase.assignor, testCase.groupSpec, testCase.topics);
        assertValid(testCase, result);
        if (kind.assignor === 'uniform') {
          assertBalanced(testCase, result);
        }
      }
    });
  }

  for (const assignor of ['uniform', 'range'] as const) {
    it(`${assignor}: given its own result as the current assignment, changes nothing`, () => {
      const random = new SeededRandom(4480);
      for (let i = 0; i < CASES_PER_KIND; i++) {
        const testCase = randomServerCase(random, assignor, { maxTopics: 8, maxPartitions: 12, maxMembers: 9, homogeneous: i % 2 === 0, current: 'none' });
        const first = assign(assignor, testCase.groupSpec, testCase.topics);
        const members = testCase.groupSpec.members.map((m) => ({ ...m, assignment: asCurrentAssignment(random, first.get(m.memberId)) }));
        assert.deepEqual(assign(assignor, { members, subscriptionType: testCase.groupSpec.subscriptionType }, testCase.topics), first);
      }
    });
  }

  it('uniform, homogeneous: a member keeps as many of its current partitions as its quota allows', () => {
    const random = new SeededRandom(4490);
    for (let i = 0; i < CASES_PER_KIND; i++) {
      const testCase = randomServerCase(random, 'uniform', { maxTopics: 8, maxPartitions: 12, maxMembers: 9, homogeneous: true, current: 'random' });
      const result = assign('uniform', testCase.groupSpec, testCase.topics);
      const subscribed = new Set(testCase.groupSpec.members[0].subscribedTopicIds);
      const total = testCase.topics.filter((t) => subscribed.has(t.topicId)).reduce((sum, t) => sum + t.numPartitions, 0);
      const quota = Math.floor(total / testCase.groupSpec.members.length);
      for (const member of testCase.groupSpec.members) {
        const owned = (member.assignment ?? []).filter((t) => subscribed.has(t.topicId)).flatMap((t) => t.partitions.map((p) => `${t.topicId}-${p}`));
        const now = new Set([...(result.get(member.memberId) ?? [])].flatMap(([topicId, partitions]) => partitions.map((p) => `${topicId}-${p}`)));
        const kept = owned.filter((key) => now.has(key)).length;
        assert.ok(kept >= Math.min(owned.length, quota), `${member.memberId} kept ${kept} of ${owned.length} with quota ${quota}`);
      }
    }
  });

  it('subscriptionTypeOf: homogeneous only when every member subscribes to every subscribed topic', () => {
    assert.equal(subscriptionTypeOf([]), 'HOMOGENEOUS');
    assert.equal(subscriptionTypeOf([{ subscribedTopicIds: [] }, { subscribedTopicIds: [] }]), 'HOMOGENEOUS');
    assert.equal(subscriptionTypeOf([{ subscribedTopicIds: ['a', 'b'] }, { subscribedTopicIds: ['b', 'a'] }]), 'HOMOGENEOUS');
    assert.equal(subscriptionTypeOf([{ subscribedTopicIds: ['a', 'b'] }, { subscribedTopicIds: ['a'] }]), 'HETEROGENEOUS');
    assert.equal(subscriptionTypeOf([{ subscribedTopicIds: ['a'] }, { subscribedTopicIds: [] }]), 'HETEROGENEOUS');
  });
});
