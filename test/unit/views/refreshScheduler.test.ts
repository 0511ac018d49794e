import { strict as assert } from 'assert';
import { RefreshScheduler, type RefreshReason } from '../../../src/views/refreshScheduler';
import { ManualTimers } from './manualTimers';

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
      scheduler.requestSourceChange('sim');
      timers.advance(40);
    }
    assert.deepEqual(reasons, [], 'the window opened by the first push is still open at 400 ms');
    timers.advance(100);
    assert.deepEqual(reasons, ['source-change']);
    timers.advance(5000);
    assert.deepEqual(reasons, ['source-change'], 'no push, no refresh');
    scheduler.requestSourceChange('sim');
    timers.advance(500);
    assert.deepEqual(reasons, ['source-change', 'source-change']);
  });

  it('refreshes even under a continuous stream of pushes (a window is not reset by later pushes)', () => {
    scheduler.setVisible(true);
    for (let i = 0; i < 100; i++) {
      scheduler.requestSourceChange('sim');
      timers.advance(100);
    }
    assert.equal(reasons.length, 20);
  });

  it('remembers pushes while hidden and refreshes once when the view shows', () => {
    scheduler.requestSourceChange('sim');
    scheduler.requestSourceChange('sim');
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
    scheduler.requestSourceChange('sim');
    scheduler.setVisible(false);
    timers.advance(1000);
    assert.deepEqual(reasons, []);
    scheduler.setVisible(true);
    assert.deepEqual(reasons, ['became-visible']);
  });

  it('reloads only the sources that pushed, and every source on the interval', () => {
    const calls: Array<[RefreshReason, readonly string[] | undefined]> = [];
    scheduler = new RefreshScheduler((reason, sourceIds) => calls.push([reason, sourceIds]), timers, 500);
    scheduler.setVisible(true);
    scheduler.setIntervalSeconds(5);
    scheduler.requestSourceChange('simulator');
    scheduler.requestSourceChange('simulator');
    timers.advance(500);
    assert.deepEqual(calls, [['source-change', ['simulator']]]);
    scheduler.requestSourceChange('simulator');
    scheduler.requestSourceChange('prod');
    timers.advance(500);
    assert.deepEqual(calls[1], ['source-change', ['simulator', 'prod']]);
    timers.advance(4000);
    assert.deepEqual(calls[2], ['interval', undefined]);
    scheduler.setVisible(false);
    scheduler.requestSourceChange('prod');
    scheduler.setVisible(true);
    assert.deepEqual(calls[3], ['became-visible', ['prod']]);
  });

  it('clears every timer on dispose', () => {
    scheduler.setVisible(true);
    scheduler.setIntervalSeconds(5);
    scheduler.requestSourceChange('sim');
    assert.equal(timers.pending(), 2);
    scheduler.dispose();
    assert.equal(timers.pending(), 0);
    scheduler.requestSourceChange('sim');
    timers.advance(60_000);
    assert.deepEqual(reasons, []);
  });
});
