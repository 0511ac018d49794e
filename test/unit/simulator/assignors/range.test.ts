import assert from 'node:assert/strict';
import { assign } from '../../../../src/simulator/assignors/index';
import { SeededRandom } from '../../../../src/simulator/common/random';
import { assertAssignment, mixedTopicsInput, verifyValidity } from './assignmentChecks';
import { randomGroup } from './randomGroups';

describe('range assignor (Kafka RangeAssignorTest)', () => {
  it('assigns per topic, first subscribers getting the extra partition (testMultipleConsumersMixedTopics)', () => {
    assertAssignment(assign('range', mixedTopicsInput()), { consumer1: ['t1-0'], consumer2: ['t1-1', 't2-0', 't2-1'], consumer3: ['t1-2'] });
  });

  it('gives contiguous ranges of each topic (testTwoConsumersTwoTopicsSixPartitions)', () => {
    const result = assign('range', {
      partitionsPerTopic: { t1: 3, t2: 3 },
      members: [{ memberId: 'consumer1', topics: ['t1', 't2'] }, { memberId: 'consumer2', topics: ['t1', 't2'] }],
    });
    assertAssignment(result, { consumer1: ['t1-0', 't1-1', 't2-0', 't2-1'], consumer2: ['t1-2', 't2-2'] });
  });

  it('orders static members by instance id, not member id (testTwoStaticConsumersTwoTopicsSixPartitions)', () => {
    const result = assign('range', {
      partitionsPerTopic: { t1: 3, t2: 3 },
      members: [
        { memberId: 'consumer-b', groupInstanceId: 'instance1', topics: ['t1', 't2'] },
        { memberId: 'consumer-a', groupInstanceId: 'instance2', topics: ['t1', 't2'] },
      ],
    });
    assertAssignment(result, { 'consumer-b': ['t1-0', 't1-1', 't2-0', 't2-1'], 'consumer-a': ['t1-2', 't2-2'] });
  });

  it('puts a static member before a dynamic one (testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions)', () => {
    const result = assign('range', {
      partitionsPerTopic: { t1: 3, t2: 3 },
      members: [
        { memberId: 'consumer-a', topics: ['t1', 't2'] },
        { memberId: 'consumer-b', groupInstanceId: 'instance1', topics: ['t1', 't2'] },
      ],
    });
    assertAssignment(result, { 'consumer-b': ['t1-0', 't1-1', 't2-0', 't2-1'], 'consumer-a': ['t1-2', 't2-2'] });
  });

  it('keeps static assignments when a dynamic member is replaced (testStaticMemberRangeAssignmentPersistent)', () => {
    const statics = [1, 2, 3].map((i) => ({ memberId: `consumer${i}`, groupInstanceId: `instance${i}`, topics: ['t1', 't2'] }));
    const partitionsPerTopic = { t1: 5, t2: 4 };
    const expectedStatic = { consumer1: ['t1-0', 't1-1', 't2-0'], consumer2: ['t1-2', 't2-1'], consumer3: ['t1-3', 't2-2'] };
    const before = assign('range', { partitionsPerTopic, members: [...statics, { memberId: 'consumer4', topics: ['t1', 't2'] }] });
    assertAssignment(before, { ...expectedStatic, consumer4: ['t1-4', 't2-3'] });
    const after = assign('range', { partitionsPerTopic, members: [...statics, { memberId: 'consumer5', topics: ['t1', 't2'] }] });
    assertAssignment(after, { ...expectedStatic, consumer5: ['t1-4', 't2-3'] });
  });

  it('skips subscribed topics missing from the metadata and lists members with nothing', () => {
    const result = assign('range', {
      partitionsPerTopic: { t1: 1, other: 4 },
      members: [{ memberId: 'a', topics: ['t1', 'gone'] }, { memberId: 'b', topics: ['t1'] }, { memberId: 'c', topics: [] }],
    });
    assertAssignment(result, { a: ['t1-0'], b: [], c: [] });
  });

  it('assigns every subscribed partition once, only to subscribers (seeded random groups)', () => {
    const random = new SeededRandom(101);
    for (let i = 0; i < 200; i++) {
      const input = randomGroup(random, { maxTopics: 6, maxPartitions: 9, maxMembers: 8, staticShare: 0.3 });
      const result = assign('range', input);
      verifyValidity(input, result, true);
      for (const [topic, count] of Object.entries(input.partitionsPerTopic)) {
        const sizes = input.members.filter((m) => m.topics.includes(topic))
          .map((m) => result[m.memberId].filter((p) => p.topic === topic).length);
        if (sizes.length > 0) {
          assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `topic ${topic} (${count}) is split evenly per topic`);
        }
      }
    }
  });
});
