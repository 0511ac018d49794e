/**
 * RebalanceEvents packed column by column for the trip to the webview: numbers in typed arrays,
 * strings once each in a table. Posting 10,000 event objects costs a structured clone of every
 * object, field and nested partition; the columns clone as a few buffers and one short string
 * list, and decoding builds events of one shape, which the model build then reads fast.
 */
import { EVENT_KINDS, EVENT_KIND_CODES } from '../model/eventKinds';
import { GROUP_STATES, type GroupState, type MemberAssignmentChange, type RebalanceEvent, type TopicPartition } from '../model/types';
import { checkReconciliations, decodeReconciliation, encodeReconciliations, RECONCILIATION_TYPED, type ReconciliationColumns } from './reconciliationColumns';
import { checkTransactions, decodeTransaction, encodeTransactions, TRANSACTION_TYPED, type TransactionColumns } from './transactionColumns';

export interface EventColumns extends ReconciliationColumns, TransactionColumns {
  count: number;
  /** Every distinct string, once. The string columns hold indexes into it. */
  strings: string[];
  time: Float64Array;
  generation: Float64Array;
  /** Index into EVENT_KINDS. */
  kind: Uint8Array;
  /** 0 when absent, else 1 + index into GROUP_STATES. */
  stateBefore: Uint8Array;
  stateAfter: Uint8Array;
  /** String indexes; ABSENT when the field is missing, NULL_STRING when it is null. */
  groupId: Int32Array;
  memberId: Int32Array;
  groupInstanceId: Int32Array;
  clientId: Int32Array;
  cause: Int32Array;
  /** Bit HAS_ASSIGNMENTS, bit HAS_INFERRED, bit INFERRED. */
  flags: Uint8Array;
  /** Event i's assignment changes are [changeStart[i], changeStart[i + 1]). */
  changeStart: Int32Array;
  changeMemberId: Int32Array;
  changeGroupInstanceId: Int32Array;
  /** Change c revokes partitions [partStart[2c], partStart[2c + 1]) and gains [partStart[2c + 1], partStart[2c + 2]). */
  partStart: Int32Array;
  partTopic: Int32Array;
  partNumber: Int32Array;
}

export { GROUP_STATES };

/**
 * The one empty partition list decoded events share (a change often revokes or gains nothing):
 * frozen, since nothing may add to an event's lists.
 */
const NO_PARTITIONS = Object.freeze([]) as unknown as TopicPartition[];

const NO_CHANGES: readonly MemberAssignmentChange[] = [];

const ABSENT = -1;
const NULL_STRING = -2;
const HAS_ASSIGNMENTS = 1;
const HAS_INFERRED = 2;
const INFERRED = 4;

const STATE_INDEX = new Map(GROUP_STATES.map((state, index) => [state, index]));

class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

  ref(value: string | null | undefined): number {
    if (value === undefined) {
      return ABSENT;
    }
    if (value === null) {
      return NULL_STRING;
    }
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.strings.length;
      this.strings.push(value);
      this.index.set(value, at);
    }
    return at;
  }
}

export function encodeEvents(events: readonly RebalanceEvent[]): EventColumns {
  const count = events.length;
  const table = new StringTable();
  let changeCount = 0;
  let partCount = 0;
  // Indexed loops: encoding runs when a panel opens, often before this code is optimised, where
  // for-of and forEach cost several times the work.
  for (let i = 0; i < count; i++) {
    const changes = events[i].assignments ?? NO_CHANGES;
    for (let c = 0; c < changes.length; c++) {
      changeCount++;
      partCount += changes[c].revoked.length + changes[c].assigned.length;
    }
  }
  const columns: EventColumns = {
    count,
    strings: table.strings,
    time: new Float64Array(count),
    generation: new Float64Array(count),
    kind: new Uint8Array(count),
    stateBefore: new Uint8Array(count),
    stateAfter: new Uint8Array(count),
    groupId: new Int32Array(count),
    memberId: new Int32Array(count),
    groupInstanceId: new Int32Array(count),
    clientId: new Int32Array(count),
    cause: new Int32Array(count),
    flags: new Uint8Array(count),
    changeStart: new Int32Array(count + 1),
    changeMemberId: new Int32Array(changeCount),
    changeGroupInstanceId: new Int32Array(changeCount),
    partStart: new Int32Array(changeCount * 2 + 1),
    partTopic: new Int32Array(partCount),
    partNumber: new Int32Array(partCount),
    ...encodeReconciliations(events.map((event) => event.reconciliation), (text) => table.ref(text)),
    ...encodeTransactions(events.map((event) => event.transaction), (text) => table.ref(text)),
  };
  let change = 0;
  let part = 0;
  const putPartitions = (partitions: readonly TopicPartition[]): void => {
    for (let p = 0; p < partitions.length; p++) {
      columns.partTopic[part] = table.ref(partitions[p].topic);
      columns.partNumber[part] = partitions[p].partition;
      part++;
    }
  };
  for (let i = 0; i < count; i++) {
    const event = events[i];
    const kind = EVENT_KIND_CODES.get(event.kind);
    if (kind === undefined) {
      throw new Error(`event ${i} has an unknown kind: ${String(event.kind)}`);
    }
    columns.time[i] = event.time;
    columns.generation[i] = event.generation;
    columns.kind[i] = kind;
    columns.stateBefore[i] = stateCode(event.stateBefore, i);
    columns.stateAfter[i] = stateCode(event.stateAfter, i);
    columns.groupId[i] = table.ref(event.groupId);
    columns.memberId[i] = table.ref(event.memberId);
    columns.groupInstanceId[i] = table.ref(event.groupInstanceId);
    columns.clientId[i] = table.ref(event.clientId);
    columns.cause[i] = table.ref(event.cause);
    columns.flags[i] = (event.assignments ? HAS_ASSIGNMENTS : 0) | (event.inferred !== undefined ? HAS_INFERRED : 0) | (event.inferred ? INFERRED : 0);
    columns.changeStart[i] = change;
    const changes = event.assignments ?? NO_CHANGES;
    for (let k = 0; k < changes.length; k++) {
      const c = changes[k];
      columns.changeMemberId[change] = table.ref(c.memberId);
      columns.changeGroupInstanceId[change] = table.ref(c.groupInstanceId);
      columns.partStart[change * 2] = part;
      putPartitions(c.revoked);
      columns.partStart[change * 2 + 1] = part;
      putPartitions(c.assigned);
      change++;
    }
  }
  columns.changeStart[count] = change;
  columns.partStart[change * 2] = part;
  return columns;
}

function stateCode(state: GroupState | undefined, event: number): number {
  if (state === undefined) {
    return 0;
  }
  const index = STATE_INDEX.get(state);
  if (index === undefined) {
    throw new Error(`event ${event} has an unknown group state: ${String(state)}`);
  }
  return index + 1;
}

/** Rebuilds the events; throws with the offending position when the columns do not hold together. */
export function decodeEvents(columns: EventColumns): RebalanceEvent[] {
  checkShape(columns);
  const { strings } = columns;
  // What a bad reference was found in is named only when one is: no message string per field read.
  const text = (ref: number, what: string, at: number): string => {
    const value = strings[ref];
    if (value === undefined) {
      throw new Error(`event columns: ${what} ${at} refers to string ${ref} of ${strings.length}`);
    }
    return value;
  };
  // One call per field read (these run several times per event, often before they are optimised).
  const optionalText = (ref: number, what: string, at: number): string | undefined => (ref === ABSENT ? undefined : (strings[ref] ?? text(ref, what, at)));
  const nullableText = (ref: number, what: string, at: number): string | null | undefined =>
    ref === NULL_STRING ? null : ref === ABSENT ? undefined : (strings[ref] ?? text(ref, what, at));
  // One object per distinct partition: histories name the same few partitions thousands of times.
  const interned = new Map<number, TopicPartition>();
  const partitions = (from: number, to: number): TopicPartition[] => {
    if (from === to) {
      return NO_PARTITIONS;
    }
    const result: TopicPartition[] = [];
    for (let p = from; p < to; p++) {
      const key = columns.partTopic[p] * 0x100000000 + columns.partNumber[p];
      let tp = interned.get(key);
      if (tp === undefined) {
        tp = { topic: text(columns.partTopic[p], 'partition', p), partition: columns.partNumber[p] };
        interned.set(key, tp);
      }
      result.push(tp);
    }
    return result;
  };
  const recPartitions = (from: number, to: number): TopicPartition[] => {
    const result: TopicPartition[] = [];
    for (let p = from; p < to; p++) {
      result.push({ topic: text(columns.recPartTopic[p], 'pending partition', p), partition: columns.recPartNumber[p] });
    }
    return result;
  };
  const events: RebalanceEvent[] = new Array<RebalanceEvent>(columns.count);
  for (let i = 0; i < columns.count; i++) {
    const flags = columns.flags[i];
    let assignments: MemberAssignmentChange[] | undefined;
    if (flags & HAS_ASSIGNMENTS) {
      assignments = [];
      for (let c = columns.changeStart[i]; c < columns.changeStart[i + 1]; c++) {
        assignments.push({
          memberId: text(columns.changeMemberId[c], 'change', c),
          groupInstanceId: nullableText(columns.changeGroupInstanceId[c], 'change', c),
          revoked: partitions(columns.partStart[c * 2], columns.partStart[c * 2 + 1]),
          assigned: partitions(columns.partStart[c * 2 + 1], columns.partStart[c * 2 + 2]),
        });
      }
    }
    const kind = EVENT_KINDS[columns.kind[i]];
    if (kind === undefined) {
      throw new Error(`event columns: event ${i} has kind code ${columns.kind[i]}`);
    }
    // Every event gets every field, in one order, so they all share one hidden class.
    events[i] = {
      groupId: text(columns.groupId[i], 'event', i),
      time: columns.time[i],
      kind,
      generation: columns.generation[i],
      stateBefore: state(columns.stateBefore[i], i),
      stateAfter: state(columns.stateAfter[i], i),
      memberId: optionalText(columns.memberId[i], 'event', i),
      groupInstanceId: nullableText(columns.groupInstanceId[i], 'event', i),
      clientId: optionalText(columns.clientId[i], 'event', i),
      cause: optionalText(columns.cause[i], 'event', i),
      assignments,
      inferred: flags & HAS_INFERRED ? (flags & INFERRED) !== 0 : undefined,
      reconciliation: decodeReconciliation(columns, i, recPartitions),
      transaction: decodeTransaction(columns, i, text),
    };
  }
  return events;
}

function state(code: number, event: number): GroupState | undefined {
  if (code === 0) {
    return undefined;
  }
  const value = GROUP_STATES[code - 1];
  if (value === undefined) {
    throw new Error(`event columns: event ${event} has state code ${code}`);
  }
  return value;
}

const PER_EVENT = ['time', 'generation', 'kind', 'stateBefore', 'stateAfter', 'groupId', 'memberId', 'groupInstanceId', 'clientId', 'cause', 'flags'] as const;

function checkShape(columns: EventColumns): void {
  const { count } = columns;
  for (const name of PER_EVENT) {
    if (columns[name].length !== count) {
      throw new Error(`event columns: ${name} has ${columns[name].length} entries for ${count} events`);
    }
  }
  const changes = columns.changeMemberId.length;
  const parts = columns.partTopic.length;
  if (columns.changeStart.length !== count + 1 || columns.changeGroupInstanceId.length !== changes || columns.partStart.length !== changes * 2 + 1 || columns.partNumber.length !== parts) {
    throw new Error('event columns: the assignment columns do not match each other');
  }
  checkOffsets(columns.changeStart, changes, 'changeStart');
  checkOffsets(columns.partStart, parts, 'partStart');
  checkReconciliations(columns, count);
  checkTransactions(columns, count);
}

/** Offsets must start at 0, never decrease and end at the length of what they index. */
function checkOffsets(offsets: Int32Array, total: number, name: string): void {
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== total) {
    throw new Error(`event columns: ${name} must run from 0 to ${total}`);
  }
  for (let i = 1; i < offsets.length; i++) {
    if (offsets[i] < offsets[i - 1]) {
      throw new Error(`event columns: ${name} decreases at ${i}`);
    }
  }
}

const TYPED: Record<keyof Omit<EventColumns, 'count' | 'strings'>, new (length: number) => ArrayLike<number>> = {
  time: Float64Array,
  generation: Float64Array,
  kind: Uint8Array,
  stateBefore: Uint8Array,
  stateAfter: Uint8Array,
  groupId: Int32Array,
  memberId: Int32Array,
  groupInstanceId: Int32Array,
  clientId: Int32Array,
  cause: Int32Array,
  flags: Uint8Array,
  changeStart: Int32Array,
  changeMemberId: Int32Array,
  changeGroupInstanceId: Int32Array,
  partStart: Int32Array,
  partTopic: Int32Array,
  partNumber: Int32Array,
  ...RECONCILIATION_TYPED,
  ...TRANSACTION_TYPED,
};

/** Checks the shape of columns received across the process boundary (their consistency is checked when decoding). */
export function isEventColumns(value: unknown): value is EventColumns {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const columns = value as Record<string, unknown>;
  return (
    typeof columns.count === 'number' &&
    Number.isInteger(columns.count) &&
    columns.count >= 0 &&
    Array.isArray(columns.strings) &&
    columns.strings.every((s) => typeof s === 'string') &&
    Object.entries(TYPED).every(([name, type]) => columns[name] instanceof type)
  );
}
