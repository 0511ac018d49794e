/**
 * What a reset asks for: the scenario (one of kafka-consumer-groups.sh's --to-… / --shift-by / --by-duration /
 * --from-file options) and the scope (--all-topics or --topic …), plus the parser for the CLI's --topic strings.
 */
import { javaSplit, parseJavaInt, topicNameProblem } from './topicPartitions';

export type ResetScenario =
  | { kind: 'to-earliest' }
  | { kind: 'to-latest' }
  | { kind: 'to-current' }
  /** A Java long: a bigint where it is beyond 2^53 (the plan clamps it to the log range, as the CLI does). */
  | { kind: 'to-offset'; offset: number | bigint }
  | { kind: 'shift-by'; shift: number }
  /** The CLI's --to-datetime text, parsed exactly as Utils.getDateTime does (see datetime.ts). */
  | { kind: 'to-datetime'; datetime: string }
  /** The CLI's --by-duration text, an ISO-8601 java.time.Duration (see duration.ts). */
  | { kind: 'by-duration'; duration: string }
  /** The CSV text of a --from-file plan (see csv.ts). The scope is ignored: the file's rows are the scope. */
  | { kind: 'from-file'; csv: string };

export type ResetScenarioKind = ResetScenario['kind'];

/** One --topic argument: a whole topic, or `topic:0,1` when partitions are given. */
export interface TopicSelection {
  topic: string;
  partitions?: readonly number[];
}

export type ResetScope = { kind: 'all-topics' } | { kind: 'topics'; topics: readonly TopicSelection[] };

export interface ResetRequest {
  groupId: string;
  scenario: ResetScenario;
  scope: ResetScope;
}

export type TopicArgParse = { ok: true; selection: TopicSelection } | { ok: false; error: string };

/**
 * Parses one --topic value the way ConsumerGroupCommand.parseTopicsWithPartitions does: no ':' means the whole
 * topic; otherwise exactly `topic:partitions`, partitions split on ',' with Java's split (so `t:0,1,` is fine
 * and `t:0,,1` is not) and each read by Integer.parseInt (no blanks allowed).
 * Stricter than the CLI, which fails later at the broker: an empty or illegal topic name and negative partitions.
 */
export function parseTopicArg(arg: string): TopicArgParse {
  if (!arg.includes(':')) {
    const problem = topicNameProblem(arg);
    return problem ? { ok: false, error: `Invalid topic arg '${arg}': ${problem}` } : { ok: true, selection: { topic: arg } };
  }
  const parts = javaSplit(arg, ':');
  if (parts.length !== 2) {
    return { ok: false, error: `Invalid topic arg '${arg}', expected topic name and partitions` };
  }
  const [topic, partitionList] = parts;
  const problem = topicNameProblem(topic);
  if (problem) {
    return { ok: false, error: `Invalid topic arg '${arg}': ${problem}` };
  }
  const partitions: number[] = [];
  for (const text of javaSplit(partitionList, ',')) {
    const partition = parseJavaInt(text);
    if (partition === null) {
      return { ok: false, error: `Invalid partition '${text}' specified in topic arg '${arg}'` };
    }
    if (partition < 0) {
      return { ok: false, error: `Invalid partition '${text}' specified in topic arg '${arg}': partitions are numbered from 0` };
    }
    partitions.push(partition);
  }
  return { ok: true, selection: { topic, partitions } };
}

/** The --topic value for a selection: `t` or `t:0,1`. */
export function formatTopicArg(selection: TopicSelection): string {
  return selection.partitions ? `${selection.topic}:${selection.partitions.join(',')}` : selection.topic;
}
