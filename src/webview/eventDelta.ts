/**
 * Works out the smallest update that brings the webview from the events it was sent to the events
 * the source holds now. Sources return the same event objects on each call (the simulator's log
 * is a bounded ring that drops its oldest entries), so identity tells what is new.
 */
import type { RebalanceEvent } from '../model/types';

export type EventDelta =
  | { kind: 'unchanged' }
  | { kind: 'append'; dropFromStart: number; events: RebalanceEvent[] }
  | { kind: 'snapshot' };

export function eventDelta(sent: readonly RebalanceEvent[], current: readonly RebalanceEvent[]): EventDelta {
  if (sent.length === 0) {
    return current.length === 0 ? { kind: 'unchanged' } : { kind: 'append', dropFromStart: 0, events: [...current] };
  }
  const lastSent = sent[sent.length - 1];
  const at = current.lastIndexOf(lastSent);
  if (at < 0) {
    return { kind: 'snapshot' };
  }
  const kept = at + 1;
  const dropFromStart = sent.length - kept;
  // What is kept must be exactly the tail of what was sent, or the history was rewritten.
  if (dropFromStart < 0 || (kept > 0 && current[0] !== sent[dropFromStart])) {
    return { kind: 'snapshot' };
  }
  if (dropFromStart === 0 && kept === current.length) {
    return { kind: 'unchanged' };
  }
  return { kind: 'append', dropFromStart, events: current.slice(kept) };
}
