import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../src/model/types';
import type { AssignorName, ConsumerSpec } from '../../../src/simulator/control';
import { commonRebalanceProtocol } from '../../../src/simulator/consumer';
import { Simulation } from '../../../src/simulator/simulation';

function setup() {
  const sim = new Simulation({ seed: 3 });
  sim.createTopic('orders', 6);
  const events: RebalanceEvent[] = [];
  sim.events.subscribe((e) => events.push(e));
  const of = (kind: RebalanceEvent['kind']) => events.filter((e) => e.kind === kind);
  const generation = () => sim.coordinator.group('g')?.generationId ?? 0;
  const add = (extra: Partial<ConsumerSpec> = {}, handle?: string) => sim.addConsumer({ groupId: 'g', topics: ['orders'], ...extra }, handle);
  return { sim, events, of, generation, add };
}

describe('SimulatedConsumer', () => {
  it('runs EAGER with the default assignors and the coordinator elects "range"', () => {
    assert.equal(commonRebalanceProtocol(['range', 'cooperative-sticky']), 'EAGER');
    assert.equal(commonRebalanceProtocol(['cooperative-sticky']), 'COOPERATIVE');
    const { sim, add } = setup();
    add();
    add();
    sim.advance(10000);
    const group = sim.coordinator.group('g')!;
    assert.equal(group.state, 'Stable');
    assert.equal(group.protocolName, 'range');
    const assigned = [...group.members.values()].map((m) => m.assignment.partitions.length);
    assert.deepEqual(assigned, [3, 3]);
  });

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

  function generationsForJoin(assignors: AssignorName[]): { generations: number; revokedBeforeRejoin: number } {
    const { sim, add, generation, events } = setup();
    add({ assignors }, 'a');
    add({ assignors }, 'b');
    sim.advance(10000);
    const before = generation();
    const mark = events.length;
    add({ assignors }, 'c');
    sim.advance(30000);
    const revoked = events
      .slice(mark)
      .filter((e) => e.kind === 'assignment-changed')
      .reduce((n, e) => n + (e.assignments?.[0].revoked.length ?? 0), 0);
    return { generations: generation() - before, revokedBeforeRejoin: revoked };
  }

  it('takes two rounds with cooperative-sticky where eager takes one', () => {
    const eager = generationsForJoin(['range']);
    const cooperative = generationsForJoin(['cooperative-sticky']);
    assert.equal(eager.generations, 1);
    assert.equal(cooperative.generations, 2);
    // Eager revokes all 6 partitions; cooperative only the 2 that move to the new member.
    assert.equal(eager.revokedBeforeRejoin, 6);
    assert.equal(cooperative.revokedBeforeRejoin, 2);
  });

  it('consumes and auto-commits without per-record work', () => {
    const { sim, add } = setup();
    add({ autoOffsetReset: 'earliest' }, 'a');
    sim.startProducer({ topic: 'orders', recordsPerSecond: 600 });
    sim.advance(60000);
    const group = sim.coordinator.group('g')!;
    let committed = 0;
    for (let p = 0; p < 6; p++) {
      committed += group.committed('orders', p)?.offset ?? 0;
    }
    assert.ok(committed > 600 * 50, `committed ${committed}`);
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

  describe('isolation.level', () => {
    function transactionalLog() {
      const sim = new Simulation({ seed: 3 });
      sim.createTopic('in', 1);
      const producer = sim.initTransactions('tx');
      producer.beginTransaction();
      producer.send('in', 5); // 0-4, COMMIT marker at 5
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send('in', 3); // 6-8 aborted, ABORT marker at 9
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send('in', 2); // 10-11, still open
      const add = (groupId: string, isolationLevel: 'read_committed' | 'read_uncommitted') =>
        sim.addConsumer({ groupId, topics: ['in'], autoOffsetReset: 'earliest', isolationLevel }, groupId);
      const position = (handle: string) => sim.consumer(handle).positions[0]?.position;
      return { sim, producer, add, position };
    }

    it('stops a read_committed consumer at the LSO and moves it past markers and aborted batches', () => {
      const { sim, producer, add, position } = transactionalLog();
      add('committed', 'read_committed');
      add('uncommitted', 'read_uncommitted');
      sim.advance(10000);
      assert.equal(sim.cluster.partition('in', 0)!.lastStableOffset, 10);
      assert.equal(position('committed'), 10, 'waits at the first offset of the open transaction');
      assert.equal(position('uncommitted'), 12);
      producer.commitTransaction();
      sim.advance(1000);
      assert.equal(position('committed'), 13, 'read the two records, then skipped the COMMIT marker');
      assert.equal(position('uncommitted'), 13);
      sim.advance(5000);
      assert.equal(sim.coordinator.group('committed')?.committed('in', 0)?.offset, 13, 'auto-commit stores the position past the marker');
    });

    it('refetches a committed offset that a transaction holds pending (UNSTABLE_OFFSET_COMMIT) until the marker', () => {
      const { sim, producer, add, position } = transactionalLog();
      producer.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 4 }], { groupId: 'g2', generationId: -1, memberId: '', groupInstanceId: null });
      add('g2', 'read_committed');
      sim.advance(10000);
      assert.equal(position('g2'), -1, 'no position while the offset is unstable');
      producer.commitTransaction();
      sim.advance(1000);
      assert.equal(sim.coordinator.group('g2')?.committed('in', 0)?.offset, 4, 'the COMMIT marker materialized the offset');
      assert.equal(position('g2'), 13, 'started from offset 4 and read on');
    });

    it('rejects an unknown isolation level', () => {
      const { sim } = setup();
      assert.throws(
        () => sim.addConsumer({ groupId: 'g', topics: ['orders'], isolationLevel: 'serializable' as 'read_committed' }),
        /isolationLevel must be "read_committed" or "read_uncommitted", got serializable/,
      );
    });
  });
});
