/** Marker glyphs: one shape per event kind, centred on (0, 0), shared by the plot and the legend. Data only (no DOM), so Node tests read it. */
import type { RebalanceEventKind } from '../../model/types';

const CIRCLE = 'M -5 0 A 5 5 0 1 0 5 0 A 5 5 0 1 0 -5 0 Z';
const SMALL_CIRCLE = 'M -3.5 0 A 3.5 3.5 0 1 0 3.5 0 A 3.5 3.5 0 1 0 -3.5 0 Z';
const SQUARE = 'M -4.5 -4.5 H 4.5 V 4.5 H -4.5 Z';
const SMALL_SQUARE = 'M -3.5 -3.5 H 3.5 V 3.5 H -3.5 Z';
const DIAMOND = 'M 0 -6 L 6 0 L 0 6 L -6 0 Z';
const SMALL_DIAMOND = 'M 0 -4.5 L 4.5 0 L 0 4.5 L -4.5 0 Z';
const TRIANGLE_UP = 'M 0 -6 L 6 5 L -6 5 Z';
const TRIANGLE_DOWN = 'M -6 -5 L 6 -5 L 0 6 Z';
const CROSS = 'M -5 -3 L -3 -5 L 0 -2 L 3 -5 L 5 -3 L 2 0 L 5 3 L 3 5 L 0 2 L -3 5 L -5 3 L -2 0 Z';
const RING = 'M -6 0 A 6 6 0 1 0 6 0 A 6 6 0 1 0 -6 0 Z M -2.5 0 A 2.5 2.5 0 1 1 2.5 0 A 2.5 2.5 0 1 1 -2.5 0 Z';
const BAR = 'M -1.5 -7 H 1.5 V 7 H -1.5 Z';
const HOLLOW_CIRCLE = 'M -4 0 A 4 4 0 1 0 4 0 A 4 4 0 1 0 -4 0 Z M -2 0 A 2 2 0 1 1 2 0 A 2 2 0 1 1 -2 0 Z';
const CHECK = 'M -5 0 L -3 -2 L -1 1 L 4 -5 L 6 -3 L -1 5 Z';
const SLASH = 'M -5 3 L 3 -5 L 5 -3 L -3 5 Z';
const HOLD_START = 'M -1 -6 H 5 V -4 H 1 V 4 H 5 V 6 H -1 Z';
const HOLD_END = 'M 1 -6 H -5 V -4 H -1 V 4 H -5 V 6 H 1 Z';

export const MARKER_PATHS: Record<RebalanceEventKind, string> = {
  'member-joined': CIRCLE,
  'member-left': SQUARE,
  'member-expired': CROSS,
  'poll-timeout': TRIANGLE_UP,
  'static-rejoin': RING,
  'rebalance-started': TRIANGLE_DOWN,
  'sync-completed': SMALL_DIAMOND,
  'state-changed': BAR,
  'assignment-changed': DIAMOND,
  'offsets-committed': SMALL_CIRCLE,
  'offsets-reset': SMALL_SQUARE,
  'transaction-offsets': HOLLOW_CIRCLE,
  'transaction-committed': CHECK,
  'transaction-aborted': SLASH,
  'lso-held': HOLD_START,
  'lso-released': HOLD_END,
};
