/**
 * Reset previews and simulation results as bounded text for the language-model tools, and the parsing of a
 * tool's reset input into the ResetRequest the reset preview plans. Pure; no `vscode` import.
 */
import { parseResetDatetime } from '../offsets/datetime';
import { parseJavaDuration } from '../offsets/duration';
import { describeScenario, describeScope, formatDifference, type ResetPreview } from '../offsets/resetPreview';
import { parseTopicArg, type ResetRequest, type ResetScenario, type TopicSelection } from '../offsets/resetRequest';
import type { GroupDetail, RebalanceEvent } from '../model/types';
import { formatEvent } from './historyText';
import { boundLines, formatGroupLine, formatPartitions, TOOL_LIMITS } from './toolText';

export const RESET_SCENARIOS = ['to-earliest', 'to-latest', 'to-current', 'to-offset', 'shift-by', 'to-datetime', 'by-duration'] as const;
export type ToolResetScenario = (typeof RESET_SCENARIOS)[number];

/** What planReset and executeReset take. */
export interface ResetToolInput {
  cluster?: string;
  group: string;
  scenario: ToolResetScenario;
  /** The offset, the shift, the datetime or the duration, for the scenarios that take one. */
  value?: string;
  /** --topic arguments (`orders` or `orders:0,1`); none means --all-topics. */
  topics?: string[];
}

function integerValue(input: ResetToolInput, what: string): number {
  const text = input.value?.trim() ?? '';
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error(`--${input.scenario} needs "value": ${what} as an integer, e.g. "${input.scenario === 'shift-by' ? '-100' : '42'}"`);
  }
  return Number(text);
}

function scenarioOf(input: ResetToolInput): ResetScenario {
  switch (input.scenario) {
    case 'to-earliest':
    case 'to-latest':
    case 'to-current':
      return { kind: input.scenario };
    case 'to-offset':
      return { kind: 'to-offset', offset: integerValue(input, 'the offset') };
    case 'shift-by':
      return { kind: 'shift-by', shift: integerValue(input, 'the shift (negative goes back)') };
    case 'to-datetime': {
      const parsed = parseResetDatetime(input.value ?? '');
      if (!parsed.ok) {
        throw new Error(`Bad "value" for to-datetime: ${parsed.error}. Convert a time such as "yesterday 9:00" to that form first.`);
      }
      return { kind: 'to-datetime', datetime: input.value ?? '' };
    }
    case 'by-duration': {
      const parsed = parseJavaDuration(input.value ?? '');
      if (!parsed.ok) {
        throw new Error(`Bad "value" for by-duration: ${parsed.error}. Use an ISO-8601 duration such as PT1H30M or P1D.`);
      }
      return { kind: 'by-duration', duration: input.value ?? '' };
    }
    default:
      throw new Error(`Unknown scenario "${String(input.scenario)}": use one of ${RESET_SCENARIOS.join(', ')}`);
  }
}

/** The tool input as the reset preview's request; throws an Error that names the fix on bad input. */
export function resetRequestOf(input: ResetToolInput): ResetRequest {
  const scenario = scenarioOf(input);
  const topics: TopicSelection[] = [];
  for (const arg of input.topics ?? []) {
    const parsed = parseTopicArg(arg);
    if (!parsed.ok) {
      throw new Error(`${parsed.error}. Write a topic as "orders" or "orders:0,1".`);
    }
    topics.push(parsed.selection);
  }
  return { groupId: input.group, scenario, scope: topics.length > 0 ? { kind: 'topics', topics } : { kind: 'all-topics' } };
}

/** The preview as the reset panel shows it: one row per partition (current, new, difference, warning) and the warnings. */
export function formatResetPreview(preview: ResetPreview, clusterLabel: string, maxRows: number = TOOL_LIMITS.partitionsShown): string {
  const title = `Reset of "${preview.request.groupId}" on "${clusterLabel}": ${describeScenario(preview.request.scenario)} ${describeScope(preview.request.scope)}`;
  if (!preview.ok) {
    return `${title}\nCannot plan: ${preview.error}`;
  }
  const moved = preview.rows.filter((r) => r.difference !== 0).length;
  const rows = preview.rows.map((r) =>
    `| ${r.topic} | ${r.partition} | ${r.currentOffset ?? '(none)'} | ${r.newOffset} | ${formatDifference(r.difference) || '(new)'} | ${r.warning ?? ''} |`);
  const lines = [
    title,
    `Group state ${preview.groupState}; ${preview.rows.length} partition(s), ${moved} would move.`,
    '| topic | partition | current | new | difference | warning |',
    '|---|---|---|---|---|---|',
    ...boundLines(rows, maxRows, 'partitions'),
  ];
  if (preview.warnings.length > 0) {
    lines.push('Warnings:', ...boundLines(preview.warnings.map((w) => `- ${w}`), 20, 'warnings'));
  }
  return lines.join('\n');
}

/** A scenario's run: the events (the newest if there are many) and every group's final state. */
export function formatScenarioResult(result: { events: readonly RebalanceEvent[]; groups: readonly GroupDetail[] }, maxEvents: number): string {
  const shown = result.events.slice(-maxEvents);
  const lines = [`Simulated in virtual time: ${result.events.length} events, ${result.groups.length} group(s).`, 'Events:'];
  if (shown.length < result.events.length) {
    lines.push(`… ${result.events.length - shown.length} earlier events left out (raise limit up to ${TOOL_LIMITS.eventsMax})`);
  }
  lines.push(...shown.map((e) => formatEvent(e, 'virtual')));
  lines.push('Final groups:');
  const groups = result.groups.map((g) => [
    formatGroupLine(g),
    ...g.members.map((m) => `  - ${m.groupInstanceId ?? m.clientId} (${m.memberId}): ${formatPartitions(m.assignment)}`),
  ].join('\n'));
  lines.push(...boundLines(groups, TOOL_LIMITS.simulatedGroupsShown, 'groups'));
  return lines.join('\n');
}
