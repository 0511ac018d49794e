import { strict as assert } from 'node:assert';
import type { LiveTimers } from '../../../../src/simulator/live';
import { createDemoSimSource, SimSource, type BuiltInScenarioName, type NotifyTimers } from '../../../../src/simulator/editor/simSource';
import { Simulation } from '../../../../src/simulator/simulation';

/** Manual timers: tests move wall time by hand. */
class FakeTimers implements NotifyTimers, LiveTimers {
  wall = 0;
  private seq = 0;
  private readonly timeouts = new Map<number, { at: number; run: () => void }>();
  private readonly intervals = new Map<number, { every: number; next: number; run: () => void }>();
  now(): number {
    return this.wall;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timeouts.set(id, { at: this.wall + ms, run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timeouts.delete(handle as number);
  }
  setInterval(run: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.intervals.set(id, { every: ms, next: this.wall + ms, run });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.intervals.delete(handle as number);
  }
  get active(): number {
    return this.timeouts.size + this.intervals.size;
  }
  /** Moves wall time in 10 ms steps, firing what is due. */
  pass(ms: number): void {
    const end = this.wall + ms;
    while (this.wall < end) {
      this.wall = Math.min(end, this.wall + 10);
      for (const [id, t] of [...this.timeouts]) {
        if (t.at <= this.wall) {
          this.timeouts.delete(id);
          t.run();
        }
      }
      for (const i of this.intervals.values()) {
        while (i.next <= this.wall) {
          i.next += i.every;
          i.run();
        }
      }
    }
  }
}

/** A simulation with topic "t" (1 partition, `records` records) and group `groupId` committed at `offset` with generation -1, as a real client commits. */
function committedGroup(groupId: string, records: number, offset: number): Simulation {
  const sim = new Simulation({ seed: 3 });
  sim.createTopic('t', 1);
  sim.cluster.requireTopic('t').partitions[0].append(records, sim.now);
  const request = { groupId, generationId: -1, memberId: '', groupInstanceId: null, topics: [{ name: 't', partitions: [{ partition: 0, offset, leaderEpoch: -1, metadata: '' }] }] };
  sim.coordinator.offsetCommit(request, () => undefined);
  sim.advance(1);
  return sim;
}

describe('SimSource', () => {
  it('shows lag as end minus committed, negative for a commit above the end, as KafkaSource and the CLI do', async () => {
    const source = new SimSource(committedGroup('ahead', 10, 15));
    try {
      const detail = await source.describeGroup('ahead');
      assert.equal(detail.offsets[0].committedOffset, 15);
      assert.equal(detail.offsets[0].lag, -5);
      assert.equal(detail.totalLag, -5);
      assert.equal((await source.listGroups()).find((g) => g.groupId === 'ahead')?.totalLag, -5);
    } finally {
      await source.dispose();
    }
  });

  it('gives lag in time and the span of produced time still to consume from the partition log\'s time index', async () => {
    const sim = committedGroup('behind', 2, 1); // offsets 0 and 1 at the start time
    const start = sim.now - 1;
    const log = sim.cluster.requireTopic('t').partitions[0];
    log.append(3, start + 40_000);
    log.append(1, start + 90_000);
    sim.advance(120_000);
    const source = new SimSource(sim);
    try {
      const row = (await source.listGroupDetails()).find((d) => d.groupId === 'behind')?.offsets[0];
      assert.equal(row?.lagInTimeMs, sim.now - start);
      assert.equal(row?.lagInTimeSpanMs, 90_000);
    } finally {
      await source.dispose();
    }
  });

  it('applies readCommittedGroups to groups with no simulated consumers (real clients of the exposed server)', async () => {
    const sim = committedGroup('payments-real', 10, 4);
    // An open transaction holds the last stable offset at 10 while the high watermark moves to 13.
    sim.cluster.requireTopic('t').partitions[0].appendTransactional(7, 3, sim.now);
    const source = new SimSource(sim, { isolationLevelFor: (groupId) => (groupId.startsWith('payments-') ? 'read_committed' : 'read_uncommitted') });
    try {
      const detail = await source.describeGroup('payments-real');
      assert.equal(detail.isolationLevel, 'read_committed');
      assert.equal(detail.offsets[0].lag, 9);
      assert.equal(detail.offsets[0].lastStableOffset, 10);
      assert.equal(detail.offsets[0].lastStableLag, 6);
      source.setIsolationLevelLookup(undefined);
      const plain = await source.describeGroup('payments-real');
      assert.equal(plain.isolationLevel, undefined);
      assert.equal(plain.offsets[0].lastStableLag, undefined);
    } finally {
      await source.dispose();
    }
  });

  it('lists and describes the demo groups like a real cluster would', async () => {
    const source = createDemoSimSource({ seed: 5 });
    try {
      assert.equal(source.kind, 'simulator');
      source.advance(15000);
      const groups = await source.listGroups();
      const orders = groups.find((g) => g.groupId === 'orders-processor')!;
      assert.equal(orders.state, 'Stable');
      assert.equal(orders.assignor, 'range');
      assert.equal(orders.memberCount, 3);
      assert.deepEqual(orders.coordinator, (await source.describeCluster()).brokers.find((b) => b.nodeId === orders.coordinator?.nodeId));
      const detail = await source.describeGroup('orders-processor');
      assert.equal(detail.offsets.length, 6);
      assert.ok(detail.members.every((m) => m.subscription.join() === 'orders' && m.assignment.length === 2 && m.clientHost === '/127.0.0.1'));
      assert.ok(detail.leaderId && detail.members.some((m) => m.memberId === detail.leaderId));
      assert.equal(detail.totalLag, detail.offsets.reduce((n, o) => n + (o.lag ?? 0), 0));
      const missing = await source.describeGroup('no-such-group');
      assert.equal(missing.state, 'Dead');
      assert.ok(source.rebalanceEvents('orders-processor').some((e) => e.kind === 'sync-completed'));
    } finally {
      await source.dispose();
    }
  });

  it('runs the exactly-once scenario on request, and names the scenarios it knows when asked for another', async () => {
    const source = createDemoSimSource({ scenario: 'exactly-once' });
    try {
      assert.equal(source.label, 'Simulator (exactly-once)');
      source.advance(35000);
      assert.deepEqual((await source.listGroups()).map((g) => g.groupId).sort(), ['ledger', 'payments-enricher']);
      const ledger = await source.describeGroup('ledger');
      assert.equal(ledger.isolationLevel, 'read_committed');
      // The third transaction is still open: its records lie between the LSO and the high watermark.
      assert.ok(
        ledger.offsets.some((o) => o.lastStableOffset != null && o.logEndOffset != null && o.lastStableOffset < o.logEndOffset),
        JSON.stringify(ledger.offsets),
      );
    } finally {
      await source.dispose();
    }
    assert.equal(createDemoSimSource().label, 'Simulator (demo)');
    assert.throws(() => createDemoSimSource({ scenario: 'chaos' as BuiltInScenarioName }), /Unknown simulator scenario "chaos"; expected one of: demo, exactly-once, protocols, streams, transactions/);
  });

  it('exposes the control surface with clear errors', async () => {
    const source = createDemoSimSource();
    try {
      const info = source.control.addConsumer({ groupId: 'new-group', topics: ['orders'] });
      assert.equal(info.status, 'running');
      source.advance(5000);
      assert.ok(source.control.listConsumers('new-group')[0].memberId);
      assert.ok((await source.listGroups()).some((g) => g.groupId === 'new-group'));
      assert.throws(() => source.control.stopConsumer('missing'), /Unknown consumer handle "missing"/);
      assert.throws(() => source.control.startProducer({ topic: 'nope', recordsPerSecond: 1 }), /Unknown topic "nope"/);
      assert.throws(() => source.control.createTopic('orders', 3), /already exists/);
      source.control.createTopic('fresh', 3);
      assert.deepEqual(source.control.listTopics().find((t) => t.name === 'fresh'), { name: 'fresh', partitions: 3 });
    } finally {
      await source.dispose();
    }
  });

  it('throttles change notifications', async () => {
    const timers = new FakeTimers();
    const sim = new Simulation({ seed: 1 });
    sim.createTopic('t', 2);
    const source = new SimSource(sim, { notifyTimers: timers, notifyThrottleMs: 1000 });
    let calls = 0;
    source.onDidChange(() => calls++);
    source.control.addConsumer({ groupId: 'g', topics: ['t'] });
    source.advance(10000);
    source.advance(10000);
    timers.pass(10);
    assert.equal(calls, 1);
    source.advance(10000);
    timers.pass(500);
    assert.equal(calls, 1);
    timers.pass(600);
    assert.equal(calls, 2);
    await source.dispose();
    assert.equal(timers.active, 0);
    await assert.rejects(source.listGroups(), /has been disposed/);
  });

  it('runs paced against the wall clock and stops on dispose', async () => {
    const timers = new FakeTimers();
    const sim = new Simulation({ seed: 1, startTime: 1_000_000 });
    sim.createTopic('t', 2);
    const source = new SimSource(sim, { live: { speed: 10, timers }, notifyTimers: timers });
    assert.equal(source.timeBase, 'epoch', 'a paced simulation reports wall-clock times');
    assert.equal(new SimSource(new Simulation({ seed: 1 })).timeBase, 'virtual');
    source.control.addConsumer({ groupId: 'g', topics: ['t'] });
    timers.pass(1000);
    assert.equal(sim.now, 1_010_000);
    assert.equal((await source.describeGroup('g')).state, 'Stable');
    await source.dispose();
    timers.pass(1000);
    assert.equal(sim.now, 1_010_000);
    assert.equal(timers.active, 0);
  });
});
