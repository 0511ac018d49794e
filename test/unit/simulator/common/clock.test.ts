import { strict as assert } from 'node:assert';
import { Deadline, VirtualClock } from '../../../../src/simulator/common/clock';
import { errorMessage } from '../../../../src/protocol/errors';

describe('VirtualClock', () => {
  it('runs events by time, then by scheduling order', () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    clock.schedule(20, () => seen.push('c@20'));
    clock.schedule(10, () => seen.push('a@10'));
    clock.schedule(10, () => {
      seen.push('b@10');
      clock.schedule(0, () => seen.push('d@10'));
    });
    const cancelled = clock.schedule(15, () => seen.push('never'));
    clock.cancel(cancelled);
    clock.advance(15);
    assert.deepEqual(seen, ['a@10', 'b@10', 'd@10']);
    assert.equal(clock.now, 15);
    clock.runUntil(20);
    assert.deepEqual(seen, ['a@10', 'b@10', 'd@10', 'c@20']);
    assert.equal(clock.nextEventTime(), null);
  });

  it('propagates a failing event unless an error handler is set; with one it reports and runs the rest', () => {
    const clock = new VirtualClock();
    clock.schedule(5, () => {
      throw new Error('engine bug');
    });
    assert.throws(() => clock.advance(10), /engine bug/);
    const handled = new VirtualClock();
    const errors: string[] = [];
    const seen: number[] = [];
    handled.onEventError = (error) => errors.push(errorMessage(error));
    handled.schedule(5, () => {
      throw new Error('engine bug');
    });
    handled.schedule(6, () => seen.push(6));
    handled.advance(10);
    assert.deepEqual(errors, ['engine bug']);
    assert.deepEqual(seen, [6]);
    assert.equal(handled.now, 10);
  });

  it('sweeps cancelled entries once they are most of the queue, keeping the order of the rest', () => {
    const clock = new VirtualClock();
    const seen: number[] = [];
    const live = [3, 1, 2].map((t) => clock.schedule(t * 1000, () => seen.push(t)));
    for (let i = 0; i < 10_000; i++) {
      clock.cancel(clock.schedule(3_600_000 + i, () => seen.push(-1)));
    }
    assert.ok(clock.queuedCount < 2100, `${clock.queuedCount} entries queued for 3 live tasks`);
    clock.cancel(live[0]);
    clock.advance(4_000_000);
    assert.deepEqual(seen, [1, 2]);
  });

  it('keeps order for many events (heap property)', () => {
    const clock = new VirtualClock();
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t = (i * 7919) % 1000;
      clock.schedule(t, () => times.push(t));
    }
    clock.advance(1000);
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
    assert.equal(times.length, 500);
  });

  it('refuses to go backwards', () => {
    const clock = new VirtualClock(100);
    assert.throws(() => clock.runUntil(50), /backwards/);
    assert.throws(() => clock.schedule(-1, () => undefined), /in the past/);
  });
});

describe('Deadline', () => {
  it('fires once at the latest reset deadline and can be cancelled', () => {
    const clock = new VirtualClock();
    const fired: number[] = [];
    const deadline = new Deadline(clock, () => fired.push(clock.now));
    deadline.reset(100);
    clock.advance(50);
    deadline.reset(100);
    clock.advance(99);
    assert.deepEqual(fired, []);
    clock.advance(1);
    assert.deepEqual(fired, [150]);
    deadline.reset(10);
    deadline.cancel();
    clock.advance(100);
    assert.deepEqual(fired, [150]);
    deadline.reset(50);
    deadline.reset(5);
    clock.advance(5);
    assert.deepEqual(fired, [150, 255]);
  });
});
