/**
 * "Reset Offsets…" questions: the scenario (kafka-consumer-groups.sh's eight --reset-offsets options), its
 * argument, and the scope. Each answer is validated with the planner's own parsers, so what the preview
 * plans is what the CLI would accept.
 */
import { parseResetCsv } from '../offsets/csv';
import { parseResetDatetime } from '../offsets/datetime';
import { parseJavaDuration } from '../offsets/duration';
import { parseTopicArg, type ResetRequest, type ResetScenario, type ResetScenarioKind, type ResetScope, type TopicSelection } from '../offsets/resetRequest';
import { parseJavaLong, parseSafeInteger } from '../offsets/topicPartitions';
import type { AdminPrompts } from '../commands/adminPrompts';
import type { PickItem } from '../commands/simulatorPrompts';

export const RESET_SCENARIOS: ReadonlyArray<PickItem<ResetScenarioKind>> = [
  { label: 'To Earliest', description: '--to-earliest', detail: 'The log start offset of each partition', value: 'to-earliest' },
  { label: 'To Latest', description: '--to-latest', detail: 'The log end offset (high watermark): skip everything not yet consumed', value: 'to-latest' },
  { label: 'To Current', description: '--to-current', detail: 'Keep the committed offset; partitions without one get the log end offset', value: 'to-current' },
  { label: 'To Offset…', description: '--to-offset', detail: 'One offset for every partition, clamped to the log', value: 'to-offset' },
  { label: 'Shift By…', description: '--shift-by', detail: 'Committed offset plus or minus n, clamped to the log', value: 'shift-by' },
  { label: 'To Date and Time…', description: '--to-datetime', detail: 'The first offset at or after a point in time', value: 'to-datetime' },
  { label: 'By Duration…', description: '--by-duration', detail: 'The first offset at or after now minus a duration (ISO-8601, e.g. PT1H)', value: 'by-duration' },
  { label: 'From CSV File…', description: '--from-file', detail: 'The offsets of a topic,partition,offset file (the CLI --export format)', value: 'from-file' },
];

function wholeNumber(text: string): number | null {
  return parseSafeInteger(text.trim());
}

/** --to-offset takes a Java long: exact, as a number where that is exact and a bigint beyond. */
function javaLong(text: string): number | bigint | null {
  const value = parseJavaLong(text.trim());
  if (value === null) {
    return null;
  }
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value;
}

function parseProblem(parsed: { ok: true } | { ok: false; error: string }): string | undefined {
  return parsed.ok ? undefined : parsed.error;
}

type ArgumentKind = 'to-offset' | 'shift-by' | 'to-datetime' | 'by-duration';

/** The one input box each scenario with an argument asks, validated as the planner will read it. */
const ARGUMENT_QUESTIONS: Record<ArgumentKind, { prompt: string; placeholder: string; problem(text: string): string | undefined; scenario(text: string): ResetScenario }> = {
  'to-offset': {
    prompt: 'Offset for every partition in scope (clamped to the log start and end)',
    placeholder: '42',
    problem: (t) => (javaLong(t) === null ? 'The offset must be a whole number from -2^63 to 2^63-1, e.g. 42' : undefined),
    scenario: (t) => ({ kind: 'to-offset', offset: javaLong(t) as number | bigint }),
  },
  'shift-by': {
    prompt: 'Shift: negative moves back (re-reads), positive skips ahead',
    placeholder: '-100',
    problem: (t) => (wholeNumber(t) === null ? 'The shift must be a whole number, e.g. -100' : undefined),
    scenario: (t) => ({ kind: 'shift-by', shift: wholeNumber(t) as number }),
  },
  'to-datetime': {
    prompt: 'YYYY-MM-DDTHH:mm:SS.sss with an optional zone (Z, ±HH:mm, ±HH); no zone means UTC',
    placeholder: '2024-05-01T08:30:00.000',
    problem: (t) => parseProblem(parseResetDatetime(t)),
    scenario: (t) => ({ kind: 'to-datetime', datetime: t }),
  },
  'by-duration': {
    prompt: 'ISO-8601 duration back from now, e.g. PT1H, P1DT12H, PT30M',
    placeholder: 'PT1H',
    problem: (t) => parseProblem(parseJavaDuration(t)),
    scenario: (t) => ({ kind: 'by-duration', duration: t }),
  },
};

/** Parses `t:0,1 u:2` (blank separated --topic t:p values, each with partitions). */
export function parsePartitionSelections(text: string): { ok: true; selections: TopicSelection[] } | { ok: false; error: string } {
  const args = text.trim().split(/\s+/).filter((a) => a !== '');
  if (args.length === 0) {
    return { ok: false, error: 'Name at least one topic:partitions, e.g. orders:0,1' };
  }
  const selections: TopicSelection[] = [];
  for (const arg of args) {
    const parsed = parseTopicArg(arg);
    if (!parsed.ok) {
      return parsed;
    }
    if (!parsed.selection.partitions) {
      return { ok: false, error: `'${arg}' names no partitions: write ${arg}:0,1 (or pick "Whole topics")` };
    }
    selections.push(parsed.selection);
  }
  return { ok: true, selections };
}

export interface ResetQuestionContext {
  groupId: string;
  /** Topics the group has committed offsets for. */
  committedTopics: readonly string[];
  /** Topics a whole-topic scope may pick: committed ones plus the members' subscriptions. */
  groupTopics: readonly string[];
  /** Reads a chosen CSV file. */
  readFile(path: string): Promise<string>;
  /** Preselects the from-file scenario ("Import Reset Plan from CSV…"). */
  scenario?: ResetScenarioKind;
  /** The scenarios the group's tool has (kafka-share-groups.sh has fewer); all eight when absent. */
  scenarios?: readonly ResetScenarioKind[];
  /** Preset partitions (Reset Offsets of This Partition…: `--topic t:p`): no scope question, and no from-file, whose rows are its own scope. */
  scope?: ResetScope;
}

export interface AskedReset {
  request: ResetRequest;
  /** The CSV's path for a from-file reset (the CLI command names it). */
  fromFilePath?: string;
}

type ScenarioAnswer = { scenario: ResetScenario; fromFilePath?: string };

async function askCsvScenario(prompts: AdminPrompts, context: ResetQuestionContext, title: string): Promise<ScenarioAnswer | undefined> {
  const path = await prompts.openFile({ title, filters: { 'CSV files': ['csv'], 'All files': ['*'] } });
  if (path === undefined) {
    return undefined;
  }
  const csv = await context.readFile(path);
  const parsed = parseResetCsv(csv);
  if (!parsed.ok) {
    throw new Error(`${path}: ${parsed.error}`);
  }
  return { scenario: { kind: 'from-file', csv }, fromFilePath: path };
}

async function askScenarioArgument(
  prompts: AdminPrompts,
  context: ResetQuestionContext,
  kind: ResetScenarioKind,
  title: string,
): Promise<ScenarioAnswer | undefined> {
  if (kind === 'to-earliest' || kind === 'to-latest' || kind === 'to-current') {
    return { scenario: { kind } };
  }
  if (kind === 'from-file') {
    return askCsvScenario(prompts, context, title);
  }
  const question = ARGUMENT_QUESTIONS[kind];
  const text = await prompts.input({ title, prompt: question.prompt, placeholder: question.placeholder, validate: question.problem });
  return text === undefined ? undefined : { scenario: question.scenario(text) };
}

async function askScope(prompts: AdminPrompts, context: ResetQuestionContext, title: string): Promise<ResetScope | undefined> {
  const kind = await prompts.pickOne<'all-topics' | 'topics' | 'partitions'>(
    [
      { label: 'All topics', description: '--all-topics', detail: `Every partition ${context.groupId} has a committed offset for (${context.committedTopics.length} topic(s))`, value: 'all-topics' },
      { label: 'Whole topics…', description: '--topic t', detail: 'Every partition of the topics you pick', value: 'topics' },
      { label: 'Specific partitions…', description: '--topic t:0,1', detail: 'Only the partitions you name', value: 'partitions' },
    ],
    { title, placeholder: 'Which partitions to reset' },
  );
  if (kind === undefined) {
    return undefined;
  }
  if (kind === 'all-topics') {
    return { kind };
  }
  if (kind === 'topics') {
    if (context.groupTopics.length === 0) {
      throw new Error(`Group ${context.groupId} has no committed offsets and no subscriptions; name partitions with "Specific partitions…"`);
    }
    const items = [...context.groupTopics].sort().map((topic) => ({ label: topic, value: topic }));
    for (;;) {
      const topics = await prompts.pickMany(items, { title, placeholder: 'Topics to reset (pick at least one)' });
      if (topics === undefined) {
        return undefined;
      }
      if (topics.length > 0) {
        return { kind: 'topics', topics: topics.map((topic) => ({ topic })) };
      }
    }
  }
  const text = await prompts.input({
    title,
    prompt: 'topic:partitions, blank separated, as --topic takes them',
    placeholder: 'orders:0,1 payments:2',
    validate: (t) => parseProblem(parsePartitionSelections(t)),
  });
  if (text === undefined) {
    return undefined;
  }
  const parsed = parsePartitionSelections(text);
  return parsed.ok ? { kind: 'topics', topics: parsed.selections } : undefined;
}

/** Asks scenario, argument and scope; undefined when the user cancelled a step. */
export async function promptResetRequest(prompts: AdminPrompts, context: ResetQuestionContext): Promise<AskedReset | undefined> {
  const preset = context.scope;
  const title = `Reset Offsets of ${context.groupId}${preset ? ` ${scopeText(preset)}` : ''}`;
  const steps = preset ? 2 : 3;
  const offered = RESET_SCENARIOS.filter((item) => (!context.scenarios || context.scenarios.includes(item.value)) && !(preset && item.value === 'from-file'));
  const kind = context.scenario ?? (await prompts.pickOne(offered, { title: `${title} (1/${steps})`, placeholder: 'Where to move the committed offsets' }));
  if (kind === undefined) {
    return undefined;
  }
  const answer = await askScenarioArgument(prompts, context, kind, `${title} (2/${steps})`);
  if (!answer) {
    return undefined;
  }
  if (answer.scenario.kind === 'from-file') {
    // The file's rows are the scope, as with the CLI's --from-file.
    const request: ResetRequest = { groupId: context.groupId, scenario: answer.scenario, scope: { kind: 'all-topics' } };
    return { request, fromFilePath: answer.fromFilePath };
  }
  const scope = preset ?? (await askScope(prompts, context, `${title} (3/3)`));
  return scope ? { request: { groupId: context.groupId, scenario: answer.scenario, scope } } : undefined;
}

/** A preset scope as `--topic` names it: `orders:3`. */
function scopeText(scope: ResetScope): string {
  return scope.kind === 'all-topics' ? '(all topics)' : scope.topics.map((t) => (t.partitions ? `${t.topic}:${t.partitions.join(',')}` : t.topic)).join(' ');
}
