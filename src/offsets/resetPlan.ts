/**
 * Offset reset planning with the semantics of Kafka 4.0's `kafka-consumer-groups.sh --reset-offsets`
 * (ConsumerGroupCommand.resetOffsets / getPartitionsToReset / prepareOffsetsToReset / checkOffsetsRange).
 * Pure over the facts it is given; only the timestamp lookup may be asynchronous.
 *
 * What the CLI does, scenario by scenario (row per partition in scope):
 *  - to-earliest: the log start offset.          - to-latest: the log end offset (high watermark).
 *  - to-current: the committed offset, and for a partition without one the log end offset. Not clamped.
 *  - to-offset n: n, clamped.                      - shift-by n: committed + n, clamped; any partition in scope
 *    without a committed offset fails the whole command ("Cannot shift offset for partition …").
 *  - to-datetime / by-duration: ListOffsets by timestamp; a partition with no record at or after that time
 *    falls back to the log end offset with "Partition p from topic t is empty. Falling back to latest known
 *    offset." (the CLI says "empty" even when the partition has older records). Not clamped.
 *  - from-file: the file's rows for the group (the scope is ignored), clamped. No rows → "No reset plan for
 *    group g found" and an empty plan.
 * Clamping (checkOffsetsRange) tests the log end first: above it → log end, else below the log start → log
 * start, each with the CLI's log warning.
 * Only Empty and Dead groups (or a group that does not exist) may be reset; any other state prints
 * "Assignments can only be reset if the group 'g' is inactive, but the current state is S." and plans nothing.
 *
 * Differences from the CLI, on purpose:
 *  - Rows come sorted by topic then partition. The CLI prints a Java HashMap's iteration order, which is
 *    hash order, not sorted: compare with its output as a set (or sort it).
 *  - Where the CLI names one failing partition out of hash order (shift-by), this names the first in sorted order.
 *  - A missing log offset in the facts is an error naming the partition (the CLI's ListOffsets would fail or,
 *    for a clamp, skip the check).
 *  - A datetime or duration that lands before 1970 is refused: ListOffsets reads -1 and -2 as latest and earliest.
 *  - The CSV reader refuses rows the CLI would misread silently (see csv.ts).
 * Warnings are the CLI's sentences without its "Warn: " / log prefixes (the clamp ones go to its log, on stderr).
 * Checked against Kafka 4.0.0's ConsumerGroupCommand --dry-run on a 4.0.0 broker: same rows (as a set) and warnings
 * for every scenario and scope, same refusal sentence for a Stable group.
 */
import type { GroupState, TopicPartition } from '../model/types';
import { parseResetCsv, type ResetCsvRow, resetCsvRowsForGroup } from './csv';
import { parseResetDatetime } from './datetime';
import { parseJavaDuration, timestampBefore } from './duration';
import type { ResetRequest, ResetScenario } from './resetRequest';
import type { CommittedOffset, PartitionLogOffsets } from '../model/groupAdmin';
import { type PartitionCounts, resolveScopePartitions } from './resetScope';
import { compareTopicPartitions, formatTopicPartition, parseJavaLong, PartitionMap } from './topicPartitions';
import { errorMessage } from '../protocol/errors';

export * from './resetRequest';
export type { CommittedOffset, PartitionLogOffsets } from '../model/groupAdmin';

/** ListOffsets by timestamp: the first offset whose record timestamp is >= timestampMs, or null when none. */
export type OffsetForTimestamp = (topic: string, partition: number, timestampMs: number) => number | null | Promise<number | null>;

export interface ResetFacts {
  /** The group's state, or 'missing' when the cluster does not know the group. */
  groupState: GroupState | 'missing';
  committed: Iterable<CommittedOffset>;
  /** Partition count of every topic a whole-topic scope may name. */
  partitionsPerTopic: PartitionCounts;
  /** Earliest and latest offsets of the partitions to reset (see resetPartitions). */
  logOffsets: Iterable<PartitionLogOffsets>;
  /** Needed for to-datetime and by-duration. */
  offsetForTimestamp?: OffsetForTimestamp;
  /** Epoch milliseconds, needed for by-duration. */
  now?: number;
}

export interface ResetRow extends TopicPartition {
  /** The committed offset before the reset, or null when the group has none for this partition. */
  currentOffset: number | null;
  newOffset: number;
  /** The CLI's warning for this partition (a clamp, or a timestamp lookup falling back to the log end). */
  warning?: string;
}

export type ResetPlanResult =
  | { ok: true; groupId: string; rows: ResetRow[]; warnings: string[] }
  | { ok: false; error: string };

type Failure = { ok: false; error: string };
type Step<T> = { ok: true; value: T } | Failure;

const RESETTABLE_STATES: ReadonlyArray<ResetFacts['groupState']> = ['Empty', 'Dead', 'missing'];

function isJavaLong(value: number | bigint): boolean {
  return typeof value === 'bigint' ? parseJavaLong(String(value)) !== null : Number.isSafeInteger(value);
}

/** The joptsimple-level checks: --to-offset and --shift-by take a Java long. */
function scenarioArgumentError(scenario: ResetScenario): string | null {
  if (scenario.kind === 'to-offset' && !isJavaLong(scenario.offset)) {
    return `Cannot parse argument '${scenario.offset}' of option to-offset: the offset must be a whole number`;
  }
  if (scenario.kind === 'shift-by' && !Number.isSafeInteger(scenario.shift)) {
    return `Cannot parse argument '${scenario.shift}' of option shift-by: the shift must be a whole number`;
  }
  return null;
}

/** The sentence the CLI prints when the group is active, or null when the state allows a reset. */
export function inactiveGroupError(groupId: string, state: ResetFacts['groupState']): string | null {
  return RESETTABLE_STATES.includes(state)
    ? null
    : `Assignments can only be reset if the group '${groupId}' is inactive, but the current state is ${state}.`;
}

function committedMap(committed: Iterable<CommittedOffset>): PartitionMap<number> {
  const map = new PartitionMap<number>();
  for (const { topic, partition, offset } of committed) {
    map.set(topic, partition, offset);
  }
  return map;
}

function noRowsForGroup(groupId: string): Failure {
  return { ok: false, error: `No reset plan for group ${groupId} found` };
}

/**
 * The partitions a reset touches (before any offset is known), so a caller can fetch exactly their log
 * offsets: the scope's partitions, or for from-file the file's rows for the group.
 */
export function resetPartitions(
  request: ResetRequest,
  facts: Pick<ResetFacts, 'committed' | 'partitionsPerTopic'>,
): { ok: true; partitions: TopicPartition[] } | Failure {
  if (request.scenario.kind === 'from-file') {
    const rows = fileRows(request.groupId, request.scenario.csv);
    return rows.ok ? { ok: true, partitions: rows.value.map(({ topic, partition }) => ({ topic, partition })) } : rows;
  }
  return resolveScopePartitions(request.scope, facts.committed, facts.partitionsPerTopic);
}

/** The --from-file rows for the group; none is the CLI's "No reset plan for group g found". */
function fileRows(groupId: string, csv: string): Step<ResetCsvRow[]> {
  const parsed = parseResetCsv(csv);
  if (!parsed.ok) {
    return parsed;
  }
  const rows = resetCsvRowsForGroup(parsed, groupId);
  return rows.length === 0 ? noRowsForGroup(groupId) : { ok: true, value: rows };
}

/** Reads log offsets for the plan, failing with the CLI's wording when one is unknown. */
class LogOffsetBook {
  private readonly offsets = new PartitionMap<PartitionLogOffsets>();

  constructor(logOffsets: Iterable<PartitionLogOffsets>) {
    for (const entry of logOffsets) {
      this.offsets.set(entry.topic, entry.partition, entry);
    }
  }

  earliest(tp: TopicPartition): Step<number> {
    const entry = this.offsets.get(tp.topic, tp.partition);
    return entry ? { ok: true, value: entry.earliest } : { ok: false, error: `Error getting starting offset of topic partition: ${formatTopicPartition(tp)}` };
  }

  latest(tp: TopicPartition): Step<number> {
    const entry = this.offsets.get(tp.topic, tp.partition);
    return entry ? { ok: true, value: entry.latest } : { ok: false, error: `Error getting ending offset of topic partition: ${formatTopicPartition(tp)}` };
  }

  /**
   * checkOffsetsRange for one partition: above the log end → log end, else below the log start → log start.
   * `requested` may be a bigint (a from-file offset beyond 2^53); what comes out is always a log offset or
   * `requested` itself, so a number.
   */
  clamp(tp: TopicPartition, requested: number | bigint): Step<{ offset: number; warning?: string }> {
    const latest = this.latest(tp);
    if (!latest.ok) {
      return latest;
    }
    if (requested > latest.value) {
      const warning = `New offset (${requested}) is higher than latest offset for topic partition ${formatTopicPartition(tp)}. Value will be set to ${latest.value}`;
      return { ok: true, value: { offset: latest.value, warning } };
    }
    const earliest = this.earliest(tp);
    if (!earliest.ok) {
      return earliest;
    }
    if (requested < earliest.value) {
      const warning = `New offset (${requested}) is lower than earliest offset for topic partition ${formatTopicPartition(tp)}. Value will be set to ${earliest.value}`;
      return { ok: true, value: { offset: earliest.value, warning } };
    }
    // Within [log start, log end], both numbers: exact as a number.
    return { ok: true, value: { offset: Number(requested) } };
  }
}

interface PlannedOffset {
  offset: number;
  warning?: string;
}

type Planner = (tp: TopicPartition) => Step<PlannedOffset> | Promise<Step<PlannedOffset>>;

function fixed(step: Step<number>): Step<PlannedOffset> {
  return step.ok ? { ok: true, value: { offset: step.value } } : step;
}

function clamped(book: LogOffsetBook, tp: TopicPartition, requested: number | bigint): Step<PlannedOffset> {
  const result = book.clamp(tp, requested);
  return result.ok ? { ok: true, value: result.value } : result;
}

function byTimestamp(book: LogOffsetBook, lookup: OffsetForTimestamp, timestampMs: number): Planner {
  return async (tp) => {
    let found: number | null;
    try {
      found = await lookup(tp.topic, tp.partition, timestampMs);
    } catch (error) {
      const reason = errorMessage(error);
      return { ok: false, error: `Error getting offset by timestamp of topic partition: ${formatTopicPartition(tp)}: ${reason}` };
    }
    if (found !== null && (!Number.isSafeInteger(found) || found < 0)) {
      return { ok: false, error: `Error getting offset by timestamp of topic partition: ${formatTopicPartition(tp)}: the lookup returned ${found}` };
    }
    if (found !== null) {
      return { ok: true, value: { offset: found } };
    }
    const latest = book.latest(tp);
    if (!latest.ok) {
      return latest;
    }
    const warning = `Partition ${tp.partition} from topic ${tp.topic} is empty. Falling back to latest known offset.`;
    return { ok: true, value: { offset: latest.value, warning } };
  };
}

/** The timestamp a to-datetime or by-duration scenario looks up, with any parse warnings. */
function scenarioTimestamp(scenario: ResetScenario, now: number | undefined): Step<{ timestampMs: number; warnings: string[] }> {
  if (scenario.kind === 'to-datetime') {
    const parsed = parseResetDatetime(scenario.datetime);
    return parsed.ok ? { ok: true, value: parsed } : parsed;
  }
  if (scenario.kind !== 'by-duration') {
    throw new Error(`scenario ${scenario.kind} has no timestamp`);
  }
  const parsed = parseJavaDuration(scenario.duration);
  if (!parsed.ok) {
    return parsed;
  }
  if (now === undefined || !Number.isFinite(now)) {
    return { ok: false, error: 'by-duration needs the current time (facts.now)' };
  }
  const timestampMs = timestampBefore(now, parsed.nanos);
  if (timestampMs < 0) {
    return { ok: false, error: `The duration ${scenario.duration} reaches back before 1970-01-01T00:00:00.000Z; Kafka record timestamps start at the epoch` };
  }
  return { ok: true, value: { timestampMs, warnings: [] } };
}

interface PlanInputs {
  partitions: TopicPartition[];
  planner: Planner;
  warnings: string[];
}

function plannerFor(request: ResetRequest, facts: ResetFacts, committed: PartitionMap<number>, book: LogOffsetBook): Step<PlanInputs> {
  const scenario = request.scenario;
  if (scenario.kind === 'from-file') {
    const rows = fileRows(request.groupId, scenario.csv);
    if (!rows.ok) {
      return rows;
    }
    const requested = new PartitionMap<bigint>();
    for (const row of rows.value) {
      requested.set(row.topic, row.partition, row.offset);
    }
    const partitions = requested.sortedEntries().map(([tp]) => tp);
    return { ok: true, value: { partitions, planner: (tp) => clamped(book, tp, requested.get(tp.topic, tp.partition) as bigint), warnings: [] } };
  }
  const scope = resolveScopePartitions(request.scope, facts.committed, facts.partitionsPerTopic);
  if (!scope.ok) {
    return scope;
  }
  const partitions = [...scope.partitions].sort(compareTopicPartitions);
  const plan = (planner: Planner, warnings: string[] = []): Step<PlanInputs> => ({ ok: true, value: { partitions, planner, warnings } });
  switch (scenario.kind) {
    case 'to-earliest':
      return plan((tp) => fixed(book.earliest(tp)));
    case 'to-latest':
      return plan((tp) => fixed(book.latest(tp)));
    case 'to-current':
      return plan((tp) => {
        const current = committed.get(tp.topic, tp.partition);
        return current === undefined ? fixed(book.latest(tp)) : { ok: true, value: { offset: current } };
      });
    case 'to-offset':
      return plan((tp) => clamped(book, tp, scenario.offset));
    case 'shift-by': {
      const uncommitted = partitions.find((tp) => !committed.has(tp.topic, tp.partition));
      if (uncommitted) {
        return { ok: false, error: `Cannot shift offset for partition ${formatTopicPartition(uncommitted)} since there is no current committed offset` };
      }
      return plan((tp) => {
        const shifted = (committed.get(tp.topic, tp.partition) as number) + scenario.shift;
        return Number.isSafeInteger(shifted)
          ? clamped(book, tp, shifted)
          : { ok: false, error: `Shifting the offset of ${formatTopicPartition(tp)} by ${scenario.shift} leaves the range of exact integers` };
      });
    }
    case 'to-datetime':
    case 'by-duration': {
      const timestamp = scenarioTimestamp(scenario, facts.now);
      if (!timestamp.ok) {
        return timestamp;
      }
      if (!facts.offsetForTimestamp) {
        return { ok: false, error: `${scenario.kind} needs a timestamp lookup (facts.offsetForTimestamp)` };
      }
      return plan(byTimestamp(book, facts.offsetForTimestamp, timestamp.value.timestampMs), timestamp.value.warnings);
    }
  }
}

/** Plans a reset exactly as `kafka-consumer-groups.sh --reset-offsets --dry-run` would, row for row. */
export async function planReset(request: ResetRequest, facts: ResetFacts): Promise<ResetPlanResult> {
  const argumentError = scenarioArgumentError(request.scenario);
  if (argumentError) {
    return { ok: false, error: argumentError };
  }
  const refusal = inactiveGroupError(request.groupId, facts.groupState);
  if (refusal) {
    return { ok: false, error: refusal };
  }
  const committed = committedMap(facts.committed);
  const inputs = plannerFor(request, facts, committed, new LogOffsetBook(facts.logOffsets));
  if (!inputs.ok) {
    return inputs;
  }
  const { partitions, planner, warnings } = inputs.value;
  // All lookups start together so a caller can batch them into one ListOffsets per leader.
  const planned = await Promise.all(partitions.map((tp) => Promise.resolve(planner(tp))));
  const rows: ResetRow[] = [];
  for (const [index, tp] of partitions.entries()) {
    const step = planned[index];
    if (!step.ok) {
      return step;
    }
    const current = committed.get(tp.topic, tp.partition);
    const row: ResetRow = { topic: tp.topic, partition: tp.partition, currentOffset: current ?? null, newOffset: step.value.offset };
    if (step.value.warning) {
      row.warning = step.value.warning;
      warnings.push(step.value.warning);
    }
    rows.push(row);
  }
  return { ok: true, groupId: request.groupId, rows, warnings };
}
