import assert from 'node:assert/strict';
import { assign } from '../../../../src/simulator/assignors/index';
import type { AssignInput, AssignorName } from '../../../../src/simulator/assignors/types';

describe('assignor input validation', () => {
  const strategies: AssignorName[] = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];
  const cases: Array<{ what: string; input: AssignInput; message: RegExp }> = [
    {
      what: 'a negative partition count',
      input: { partitionsPerTopic: { t: -1 }, members: [{ memberId: 'a', topics: ['t'] }] },
      message: /Topic "t" has an invalid partition count -1/,
    },
    {
      what: 'a repeated member id',
      input: { partitionsPerTopic: { t: 1 }, members: [{ memberId: 'a', topics: ['t'] }, { memberId: 'a', topics: ['t'] }] },
      message: /Member id "a" appears more than once/,
    },
    {
      what: 'an empty member id',
      input: { partitionsPerTopic: { t: 1 }, members: [{ memberId: '', topics: ['t'] }] },
      message: /non-empty memberId/,
    },
    {
      what: 'a topic listed twice',
      input: { partitionsPerTopic: { t: 1 }, members: [{ memberId: 'a', topics: ['t', 't'] }] },
      message: /Member "a" lists a topic twice/,
    },
    {
      what: 'a claim beyond the topic\'s partitions',
      input: { partitionsPerTopic: { t: 2 }, members: [{ memberId: 'a', topics: ['t'], owned: [{ topic: 't', partition: 2 }] }] },
      message: /claims partition t-2, but topic "t" has 2 partitions/,
    },
    {
      what: 'a partition claimed twice by one member',
      input: {
        partitionsPerTopic: { t: 2 },
        members: [{ memberId: 'a', topics: ['t'], owned: [{ topic: 't', partition: 1 }, { topic: 't', partition: 1 }] }],
      },
      message: /claims partition t-1 twice/,
    },
    {
      what: 'a partition of an unknown topic claimed twice',
      input: {
        partitionsPerTopic: { t: 2 },
        members: [{ memberId: 'a', topics: ['t'], owned: [{ topic: 'gone', partition: 0 }, { topic: 'gone', partition: 0 }] }],
      },
      message: /claims partition gone-0 twice/,
    },
    {
      what: 'a negative partition number',
      input: { partitionsPerTopic: { t: 2 }, members: [{ memberId: 'a', topics: ['t'], owned: [{ topic: 't', partition: -1 }] }] },
      message: /claims an invalid partition/,
    },
    {
      what: 'a fractional generation',
      input: { partitionsPerTopic: { t: 2 }, members: [{ memberId: 'a', topics: ['t'], generation: 1.5 }] },
      message: /non-integer generation 1.5/,
    },
  ];

  for (const { what, input, message } of cases) {
    it(`rejects ${what}`, () => {
      for (const strategy of strategies) {
        assert.throws(() => assign(strategy, input), message);
      }
    });
  }

  it('accepts the same partition claimed by two different members (the sticky assignors resolve it)', () => {
    const owned = [{ topic: 't', partition: 0 }];
    const result = assign('sticky', {
      partitionsPerTopic: { t: 2 },
      members: [{ memberId: 'a', topics: ['t'], owned, generation: 1 }, { memberId: 'b', topics: ['t'], owned, generation: 1 }],
    });
    assert.equal(result.a.length + result.b.length, 2);
  });

  it('rejects an unknown strategy by name', () => {
    assert.throws(() => assign('fair' as AssignorName, { partitionsPerTopic: {}, members: [] }), /Unknown assignor "fair"/);
  });
});
