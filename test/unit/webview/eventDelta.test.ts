import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../src/model/types';
import { eventDelta } from '../../../src/webview/eventDelta';

const event = (time: number): RebalanceEvent => ({ groupId: 'g', time, kind: 'state-changed', generation: 1 });

describe('webview/eventDelta', () => {
  const [a, b, c, d] = [event(1), event(2), event(3), event(4)];

  it('appends what is new after the last sent event', () => {
    assert.deepEqual(eventDelta([a, b], [a, b, c, d]), { kind: 'append', dropFromStart: 0, events: [c, d] });
    assert.deepEqual(eventDelta([], [a]), { kind: 'append', dropFromStart: 0, events: [a] });
  });

  it('drops from the start what a bounded log rolled out', () => {
    assert.deepEqual(eventDelta([a, b, c], [b, c, d]), { kind: 'append', dropFromStart: 1, events: [d] });
    assert.deepEqual(eventDelta([a, b], [c, d].slice(0, 0).concat([b, c])), { kind: 'append', dropFromStart: 1, events: [c] });
  });

  it('says unchanged when nothing changed', () => {
    assert.deepEqual(eventDelta([a, b], [a, b]), { kind: 'unchanged' });
    assert.deepEqual(eventDelta([], []), { kind: 'unchanged' });
  });

  it('asks for a snapshot when the history was rewritten or the last sent event is gone', () => {
    assert.deepEqual(eventDelta([a, b], [c, d]), { kind: 'snapshot' });
    assert.deepEqual(eventDelta([a, b], [c, b, d]), { kind: 'snapshot' });
    assert.deepEqual(eventDelta([b], [a, b, c]), { kind: 'snapshot' });
    assert.deepEqual(eventDelta([a, b], [event(1), event(2)]), { kind: 'snapshot' });
  });
});
