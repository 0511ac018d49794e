import { strict as assert } from 'node:assert';
import { setup } from '../../../consumerHarness';

describe('HeartbeatThread', () => {
  it('leaves the group with Kafka\'s reason when max.poll.interval.ms passes without a poll', () => {
    const { sim, of, add } = setup();
    add({}, 'a');
    add({ maxPollIntervalMs: 20000 }, 'slow');
    sim.advance(10000);
    sim.pausePolling('slow', 60000);
    assert.equal(sim.listConsumers().find((c) => c.handle === 'slow')?.status, 'paused');
    sim.advance(25000);
    const timeout = of('poll-timeout');
    assert.equal(timeout.length, 1);
    const left = of('member-left');
    assert.equal(left.length, 1);
    assert.equal(left[0].cause, 'consumer poll timeout has expired.');
    assert.equal(left[0].memberId, timeout[0].memberId);
    assert.ok(left[0].time >= 30000 && left[0].time <= 30100);
    // When it polls again it joins as a new member.
    sim.advance(60000);
    assert.equal(of('member-joined').length, 3);
  });

  it('sends no LeaveGroup from a static member on poll timeout', () => {
    const { sim, of, add } = setup();
    add({ groupInstanceId: 's-1', maxPollIntervalMs: 20000 }, 's');
    add({}, 'a');
    sim.advance(10000);
    sim.pausePolling('s', 30000);
    sim.advance(25000);
    assert.equal(of('poll-timeout').length, 1);
    assert.equal(of('member-left').length, 0);
  });
});
