import { strict as assert } from 'node:assert';
import type { AssignorName } from '../../../../../src/simulator/common/control';
import { setup } from '../../consumerHarness';

describe('SimulatedConsumer', () => {
  it('is expired by the coordinator after session.timeout.ms when it crashes', () => {
    const { sim, of, add } = setup();
    add({}, 'a');
    add({}, 'b');
    sim.advance(10000);
    const victim = sim.listConsumers().find((c) => c.handle === 'b')!.memberId;
    sim.crashConsumer('b');
    sim.advance(41999);
    assert.equal(of('member-expired').length, 0, 'the last heartbeat was at most 3 s before the crash');
    sim.advance(3001);
    const expired = of('member-expired');
    assert.equal(expired.length, 1);
    assert.equal(expired[0].memberId, victim);
    assert.ok(expired[0].time > 10000 + 42000 && expired[0].time <= 10000 + 45000);
    assert.equal(of('member-left').length, 0, 'a crash sends no LeaveGroup');
    assert.equal(sim.listConsumers().find((c) => c.handle === 'b')?.status, 'crashed');
  });

  it('keeps the assignment of a static member restarted within the session timeout, without a rebalance', () => {
    const { sim, of, add, generation } = setup();
    add({ groupInstanceId: 'i-a', sessionTimeoutMs: 30000 }, 'a');
    add({ groupInstanceId: 'i-b', sessionTimeoutMs: 30000 }, 'b');
    sim.advance(10000);
    const before = generation();
    const assignment = sim.consumer('a').assignment;
    const rebalances = of('rebalance-started').length;
    sim.stopConsumer('a');
    assert.equal(of('member-left').length, 0, 'a static member does not send LeaveGroup on close');
    sim.advance(10000);
    sim.restartConsumer('a');
    sim.advance(10000);
    assert.equal(generation(), before);
    assert.equal(of('rebalance-started').length, rebalances);
    assert.equal(of('static-rejoin').length, 1);
    assert.deepEqual(sim.consumer('a').assignment, assignment);
    assert.equal(sim.coordinator.group('g')?.state, 'Stable');
  });

  it('rebalances when the static member comes back after its session timeout', () => {
    const { sim, of, add, generation } = setup();
    add({ groupInstanceId: 'i-a', sessionTimeoutMs: 10000 }, 'a');
    add({ groupInstanceId: 'i-b', sessionTimeoutMs: 10000 }, 'b');
    sim.advance(10000);
    const before = generation();
    sim.stopConsumer('a');
    sim.advance(15000);
    assert.equal(of('member-expired').length, 1);
    sim.restartConsumer('a');
    sim.advance(15000);
    assert.equal(generation(), before + 2);
    assert.equal(of('static-rejoin').length, 0);
    assert.equal(sim.consumer('a').assignment.length, 3);
  });

  it('reports clear errors for unknown handles and topics', () => {
    const { sim, add } = setup();
    assert.throws(() => sim.crashConsumer('nope'), /Unknown consumer handle "nope"/);
    assert.throws(() => add({ topics: ['missing'] }), /Unknown topic "missing"; known topics: orders/);
    assert.throws(() => add({ assignors: ['fancy' as AssignorName] }), /Unknown assignor "fancy"/);
    add({}, 'a');
    assert.throws(() => sim.restartConsumer('a'), /is running/);
    sim.crashConsumer('a');
    assert.throws(() => sim.pausePolling('a', 10), /it is crashed/);
  });

  it('rejects an unknown isolation level', () => {
    const { sim } = setup();
    assert.throws(
      () => sim.addConsumer({ groupId: 'g', topics: ['orders'], isolationLevel: 'serializable' as 'read_committed' }),
      /isolationLevel must be "read_committed" or "read_uncommitted", got serializable/,
    );
  });
});
