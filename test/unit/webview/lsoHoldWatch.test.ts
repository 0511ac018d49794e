import { strict as assert } from 'node:assert';
import type { GroupDetail } from '../../../src/model/types';
import { LSO_CHECK_INTERVAL_MS, LsoHoldWatch } from '../../../src/webview/lsoHoldWatch';

const heldDetail = {
  groupId: 'g',
  state: 'Stable',
  members: [],
  offsets: [{
    topic: 't', partition: 0, committedOffset: 100, logStartOffset: 0, logEndOffset: 110, lastStableOffset: 100, lag: 10,
    lsoHolder: { observedAtMs: 0, producer: { producerId: 7, producerEpoch: 1, lastSequence: 0, lastTimestamp: 0, coordinatorEpoch: 0, currentTxnStartOffset: 100 } },
  }],
} as unknown as GroupDetail;

class FakeSource {
  calls = 0;
  failWith: unknown = null;
  constructor(private readonly clock: { now: number }) {}
  describeGroup(): Promise<GroupDetail> {
    this.calls++;
    return this.failWith === null ? Promise.resolve(heldDetail) : Promise.reject(this.failWith);
  }
  now(): number {
    return this.clock.now + 1_000_000; // the source's own clock, not the wall clock
  }
}

describe('webview/LsoHoldWatch', () => {
  it('reads the group at most once per interval, timing holds on the source\'s clock', async () => {
    const clock = { now: 0 };
    const source = new FakeSource(clock);
    const watch = new LsoHoldWatch('g', () => assert.fail('no failure'), () => clock.now);
    await watch.check(source);
    await watch.check(source);
    assert.equal(source.calls, 1);
    assert.deepEqual(watch.events().map((e) => [e.kind, e.time]), [['lso-held', 1_000_000]]);
    clock.now += LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    assert.equal(source.calls, 2);
  });

  it('backs off after failures, doubling, logs each new failure once, and starts over after a success', async () => {
    const clock = { now: 0 };
    const source = new FakeSource(clock);
    const warnings: string[] = [];
    const watch = new LsoHoldWatch('g', (m) => warnings.push(m), () => clock.now);
    source.failWith = Object.assign(new Error('Timed out talking to 127.0.0.1:9092'), { kind: 'timeout' });
    await watch.check(source);
    // Backoff 5 s on top of the 5 s interval: not at 5 s, at 10 s; then 10 s more: not at 10 + 10, at 10 + 15.
    clock.now = LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    assert.equal(source.calls, 1);
    clock.now = 2 * LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    assert.equal(source.calls, 2);
    clock.now += 2 * LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    assert.equal(source.calls, 2);
    clock.now += LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    assert.equal(source.calls, 3);
    assert.equal(warnings.length, 1, 'the same failure is logged once');
    assert.match(warnings[0], /^Timeline g: could not read the group for transactions holding its LSO: Timed out talking to 127\.0\.0\.1:9092$/);
    source.failWith = null;
    clock.now += 5 * LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    clock.now += LSO_CHECK_INTERVAL_MS;
    await watch.check(source);
    assert.equal(source.calls, 5, 'a success ends the backoff');
  });

  it('never reads again on its own after a login or ACL failure', async () => {
    for (const kind of ['authentication', 'authorization']) {
      const clock = { now: 0 };
      const source = new FakeSource(clock);
      const warnings: string[] = [];
      const watch = new LsoHoldWatch('g', (m) => warnings.push(m), () => clock.now);
      source.failWith = Object.assign(new Error('SASL authentication failed'), { kind });
      await watch.check(source);
      for (let i = 0; i < 5; i++) {
        clock.now += 10 * 60 * 1000;
        await watch.check(source);
      }
      assert.equal(source.calls, 1, kind);
      assert.match(warnings[0], /not retried: reopen the panel once it is mended/);
    }
  });

  it('keeps a snapshot that carries a load error out of the holds, as a failure', async () => {
    const clock = { now: 0 };
    const warnings: string[] = [];
    const watch = new LsoHoldWatch('g', (m) => warnings.push(m), () => clock.now);
    await watch.check({ describeGroup: () => Promise.resolve({ ...heldDetail, error: 'GROUP_AUTHORIZATION_FAILED' }) });
    assert.deepEqual(watch.events(), []);
    assert.match(warnings[0], /GROUP_AUTHORIZATION_FAILED/);
  });
});
