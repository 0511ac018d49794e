import { strict as assert } from 'assert';
import { RefreshScheduler, type RefreshReason, type SchedulerTimers } from '../../../src/views/refreshScheduler';

/** Timers driven by hand: `advance(ms)` runs what falls due, in order. */
class ManualTimers implements SchedulerTimers {
  now = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; every?: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  setInterval(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.now + ms, every: ms, callback });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  pending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.due <= end).sort((a, b) => a[1].due - b[1].due)[0];
      if (!due) {
        break;
      }
      const [id, timer] = due;
      this.now = timer.due;
      if (timer.every) {
        timer.due += timer.every;
      } else {
        this.timers.delete(id);
      }
      timer.callback();
    }
    this.now = end;
  }
}

describe('views/RefreshScheduler', () => {
  let timers: ManualTimers;
  let reasons: RefreshReason[];
  let scheduler: RefreshScheduler;

  beforeEach(() => {
    timers = new ManualTimers();
    reasons = [];
    scheduler = new RefreshScheduler((reason) => reasons.push(reason), timers, 500);
  });

  it('polls at the configured interval only while the view is visible', () => {
    scheduler.setIntervalSeconds(5);
    timers.advance(20_000);
    assert.deepEqual(reasons, [], 'hidden view: no polling');
    scheduler.setVisible(true);
    timers.advance(15_000);
    assert.deepEqual(reasons, ['interval', 'interval', 'interval']);
    scheduler.setVisible(false);
    timers.advance(20_000);
    assert.equal(reasons.length, 3);
  });

  it('stops polling at interval 0 and rejects negative intervals', () => {
    scheduler.setVisible(true);
    scheduler.setIntervalSeconds(1);
    timers.advance(1000);
    scheduler.setIntervalSeconds(0);
    timers.advance(10_000);
    assert.deepEqual(reasons, ['interval']);
    assert.throws(() => scheduler.setIntervalSeconds(-1), /0 \(off\) or a positive number/);
  });

  it('coalesces a burst of source pushes into one refresh per window', () => {
    scheduler.setVisible(true);
    for (let i = 0; i < 10; i++) {
      scheduler.requestSourceChange();
      timers.advance(40);
    }
    assert.deepEqual(reasons, [], 'the window opened by the first push is still open at 400 ms');
    timers.advance(100);
    assert.deepEqual(reasons, ['source-change']);
    timers.advance(5000);
    assert.deepEqual(reasons, ['source-change'], 'no push, no refresh');
    scheduler.requestSourceChange();
    timers.advance(500);
    assert.deepEqual(reasons, ['source-change', 'source-change']);
  });

  it('refreshes even under a continuous stream of pushes (a window is not reset by later pushes)', () => {
    scheduler.setVisible(true);
    for (let i = 0; i < 100; i++) {
      scheduler.requestSourceChange();
      timers.advance(100);
    }
    assert.equal(reasons.length, 20);
  });

  it('remembers pushes while hidden and refreshes once when the view shows', () => {
    scheduler.requestSourceChange();
    scheduler.requestSourceChange();
    timers.advance(5000);
    assert.deepEqual(reasons, []);
    scheduler.setVisible(true);
    assert.deepEqual(reasons, ['became-visible']);
    scheduler.setVisible(false);
    scheduler.setVisible(true);
    assert.deepEqual(reasons, ['became-visible'], 'nothing new happened while hidden');
  });

  it('moves a pending push to "stale" when the view hides before the window ends', () => {
    scheduler.setVisible(true);
    scheduler.requestSourceChange();
    scheduler.setVisible(false);
    timers.advance(1000);
    assert.deepEqual(reasons, []);
    scheduler.setVisible(true);
    assert.deepEqual(reasons, ['became-visible']);
  });

  it('clears every timer on dispose', () => {
    scheduler.setVisible(true);
    scheduler.setIntervalSeconds(5);
    scheduler.requestSourceChange();
    assert.equal(timers.pending(), 2);
    scheduler.dispose();
    assert.equal(timers.pending(), 0);
    scheduler.requestSourceChange();
    timers.advance(60_000);
    assert.deepEqual(reasons, []);
  });
});
