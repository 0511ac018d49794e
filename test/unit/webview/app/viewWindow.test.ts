import { strict as assert } from 'node:assert';
import { fitWindow, formatDuration, formatTime, overlapping, panWindow, revealTime, tickStep, ticks, zoomWindow } from '../../../../src/webview/app/viewWindow';

describe('webview/app/viewWindow', () => {
  it('fits a range with a margin, and a single instant with a second either side', () => {
    assert.deepEqual(fitWindow(0, 1000), { start: -40, end: 1040 });
    assert.deepEqual(fitWindow(500, 500), { start: -500, end: 1500 });
  });

  it('zooms around an anchor and keeps the anchored time in place', () => {
    assert.deepEqual(zoomWindow({ start: 0, end: 1000 }, 2, 0.5), { start: 250, end: 750 });
    assert.deepEqual(zoomWindow({ start: 0, end: 1000 }, 2, 0), { start: 0, end: 500 });
    assert.deepEqual(zoomWindow({ start: 0, end: 1000 }, 0.5, 1), { start: -1000, end: 1000 });
    assert.deepEqual(zoomWindow({ start: 0, end: 10 }, 1000, 0.5), { start: 4.5, end: 5.5 });
    assert.throws(() => zoomWindow({ start: 0, end: 1 }, 0), /positive number/);
    assert.throws(() => zoomWindow({ start: 0, end: 1 }, Number.NaN), /positive number/);
  });

  it('pans by a fraction of the width and reveals a time with a margin', () => {
    assert.deepEqual(panWindow({ start: 0, end: 1000 }, 0.25), { start: 250, end: 1250 });
    assert.deepEqual(revealTime({ start: 0, end: 1000 }, 500), { start: 0, end: 1000 });
    assert.deepEqual(revealTime({ start: 0, end: 1000 }, 2000), { start: 1100, end: 2100 });
    assert.deepEqual(revealTime({ start: 0, end: 1000 }, -500), { start: -600, end: 400 });
  });

  it('chooses round tick steps at least the minimum spacing apart', () => {
    assert.equal(tickStep({ start: 0, end: 60000 }, 600), 10000);
    assert.equal(tickStep({ start: 0, end: 100 }, 1000), 10);
    assert.equal(tickStep({ start: 0, end: 86400000 * 100 }, 100), 86400000 * 90);
    assert.deepEqual(ticks({ start: -150, end: 450 }, 200), [0, 200, 400]);
  });

  it('formats durations and virtual and epoch times', () => {
    assert.equal(formatDuration(850), '850 ms');
    assert.equal(formatDuration(2345), '2.35 s');
    assert.equal(formatDuration(45_600), '45.6 s');
    assert.equal(formatDuration(245_000), '4 min 05 s');
    assert.equal(formatDuration(7_380_000), '2 h 03 min');
    assert.equal(formatTime(83_250, 'virtual', 1000), 't+1:23');
    assert.equal(formatTime(83_250, 'virtual', 100), 't+1:23.250');
    assert.equal(formatTime(3_723_004, 'virtual', 1, true), 't+1:02:03.004');
    assert.equal(formatTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6), 'epoch', 1), '03:04:05.006');
    assert.equal(formatTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6), 'epoch', 1000, true), '2026-01-02 03:04:05 UTC');
  });
});

describe('webview/app/viewWindow overlapping', () => {
  const spans = [
    { from: 0, to: 10 },
    { from: 10, to: 25 },
    { from: 25, to: 25 },
    { from: 25, to: 40 },
    { from: 50, to: 60 },
  ];
  const byFilter = (start: number, end: number) => spans.filter((s) => s.to >= start && s.from <= end);

  it('finds the same spans as a filter on overlap, for every window over and around them', () => {
    for (let start = -5; start <= 65; start += 2.5) {
      for (let end = start; end <= 70; end += 2.5) {
        assert.deepEqual(overlapping(spans, start, end), byFilter(start, end), `[${start}, ${end}]`);
      }
    }
    assert.deepEqual(overlapping([], 0, 10), []);
  });
});
