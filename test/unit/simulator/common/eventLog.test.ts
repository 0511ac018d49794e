import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../../src/model/types';
import { EventLog } from '../../../../src/simulator/common/eventLog';

function event(groupId: string, time: number): RebalanceEvent {
  return { groupId, time, kind: 'state-changed', generation: 0 };
}

describe('EventLog', () => {
  it('keeps the newest events per group in a bounded ring and tells listeners about every event', () => {
    const log = new EventLog(3);
    const heard: number[] = [];
    const stop = log.subscribe((e) => heard.push(e.time));
    for (let t = 1; t <= 5; t++) {
      log.emit(event('a', t));
    }
    log.emit(event('b', 6));
    stop();
    log.emit(event('a', 7));
    assert.deepEqual(log.forGroup('a').map((e) => e.time), [4, 5, 7]);
    assert.deepEqual(log.forGroup('b').map((e) => e.time), [6]);
    assert.deepEqual(log.forGroup('none'), []);
    assert.deepEqual(heard, [1, 2, 3, 4, 5, 6]);
    assert.equal(log.totalCount, 7);
    assert.throws(() => new EventLog(0), /positive integer/);
  });
});
