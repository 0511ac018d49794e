import assert from 'node:assert/strict';
import { assign } from '../../../../src/simulator/assignors/index';
import { SeededRandom } from '../../../../src/simulator/common/random';
import { assertAssignment, mixedTopicsInput, isFullyBalanced, verifyValidity } from './assignmentChecks';
import { randomGroup } from './randomGroups';

describe('roundrobin assignor (Kafka RoundRobinAssignorTest)', () => {
  it('skips members not subscribed to the next partition\'s topic (testMultipleConsumersMixedTopics)', () => {
    assertAssignment(assign('roundrobin', mixedTopicsInput()), { consumer1: ['t1-0'], consumer2: ['t1-1', 't2-0', 't2-1'], consumer3: ['t1-2'] });
  });

  it('deals partitions of sorted topics in turn (testTwoDynamicConsumersTwoTopicsSixPartitions)', () => {
    const result = assign('roundrobin', {
      partitionsPerTopic: { t2: 3, t1: 3 },
      members: [{ memberId: 'consumer2', topics: ['t2', 't1'] }, { memberId: 'consumer1', topics: ['t1', 't2'] }],
    });
    assertAssignment(result, { consumer1: ['t1-0', 't1-2', 't2-1'], consumer2: ['t1-1', 't2-0', 't2-2'] });
  });

  it('orders static members first (testStaticMemberRoundRobinAssignmentPersistent)', () => {
    const members = [
      { memberId: 'consumer4', topics: ['t1', 't2'] },
      ...[1, 2, 3].map((i) => ({ memberId: `consumer${i}`, groupInstanceId: `instance${i}`, topics: ['t1', 't2'] })),
    ];
    const result = assign('roundrobin', { partitionsPerTopic: { t1: 3, t2: 3 }, members });
    assertAssignment(result, { consumer1: ['t1-0', 't2-1'], consumer2: ['t1-1', 't2-2'], consumer3: ['t1-2'], consumer4: ['t2-0'] });
  });

  it('keeps each instance\'s partitions when member ids change (testStaticMemberRoundRobinAssignmentPersistentAfterMemberIdChanges)', () => {
    const partitionsPerTopic = { t1: 5, t2: 5 };
    const expected = {
      instance1: ['t1-0', 't1-3', 't2-1', 't2-4'],
      instance2: ['t1-1', 't1-4', 't2-2'],
      instance3: ['t1-2', 't2-0', 't2-3'],
    };
    const byInstance = (memberIds: string[]): Record<string, string[]> => {
      const members = memberIds.map((memberId, i) => ({ memberId, groupInstanceId: `instance${i + 1}`, topics: ['t1', 't2'] }));
      const result = assign('roundrobin', { partitionsPerTopic, members });
      return Object.fromEntries(members.map((m) => [m.groupInstanceId, result[m.memberId].map((p) => `${p.topic}-${p.partition}`).sort()]));
    };
    assert.deepEqual(byInstance(['consumer1', 'consumer2', 'consumer3']), expected);
    assert.deepEqual(byInstance(['consumer1', 'consumer5', 'consumer4']), expected);
  });

  it('is valid for random groups and fully balanced when subscriptions are equal (seeded)', () => {
    const random = new SeededRandom(202);
    for (let i = 0; i < 200; i++) {
      const equalSubscriptions = i % 2 === 0;
      const input = randomGroup(random, { maxTopics: 6, maxPartitions: 9, maxMembers: 8, staticShare: 0.3, equalSubscriptions });
      const result = assign('roundrobin', input);
      verifyValidity(input, result, true);
      if (equalSubscriptions) {
        assert.ok(isFullyBalanced(result), 'equal subscriptions give counts within one');
      }
    }
  });
});
