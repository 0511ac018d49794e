/**
 * The CSV of `kafka-consumer-groups.sh --reset-offsets --export` and `--from-file`, as Kafka 4.0 writes and reads
 * it through Jackson's CsvMapper (ConsumerGroupCommand.exportOffsetsToCsv / parseResetPlan, CsvUtils):
 * `topic,partition,offset` when one --group is given, `group,topic,partition,offset` otherwise; no header,
 * every record ends with "\n".
 *
 * Writing follows Jackson 2.16's default (loose) quoting: a text value is quoted when it is longer than 24
 * characters or holds a character below '-' (space, '!', '"', '#', ',', ...), a '"' or a '\'; quotes inside are
 * doubled. So a topic name of more than 24 characters is exported in quotes, as the CLI does.
 *
 * Reading: the CLI splits the text on "\n" (Java's split drops trailing empty lines), decides the format from
 * line 1 (it is the 3-column format if line 1 reads as topic,partition,offset), then reads every line in it.
 * Numbers are trimmed (Jackson databind trims numeric text), text is not. Where the CLI would silently read
 * garbage this parser reports the line instead: a missing column (Jackson leaves the field 0), an empty number
 * (Jackson reads 0), a negative or non-numeric partition, an illegal topic name, a line whose column count
 * differs from line 1's, and a partition listed twice (the CLI keeps the last). Like the CLI it rejects blank
 * lines inside the file and ignores those at its end.
 *
 * Two more departures from the CLI: a leading UTF-8 byte-order mark (as editors on Windows save) is skipped; the
 * CLI would read it into line 1's first column, so that row's group (or topic) never matches. Offsets are read
 * exactly as Java longs (bigint): the CLI clamps every from-file offset to the partition's log range
 * (GroupOffsetsResetter.resetFromFile → checkOffsetsRange), so an offset beyond 2^53 is legal input and
 * the planned offset, a log offset, is an ordinary number again.
 */
import type { TopicPartition } from '../model/types';
import { formatTopicPartition, parseJavaInt, parseJavaLong, PartitionMap, topicNameProblem } from './topicPartitions';

export type ResetCsvFormat = 'topic,partition,offset' | 'group,topic,partition,offset';

export interface ResetCsvRow extends TopicPartition {
  /** The group column, or null in the 3-column format (the rows then belong to the one group given). */
  group: string | null;
  /** Exactly as written, a Java long (the planner clamps it to the log range). */
  offset: bigint;
  /** 1-based line number in the file. */
  line: number;
}

export type ResetCsvParse =
  | { ok: true; format: ResetCsvFormat; rows: ResetCsvRow[] }
  | { ok: false; error: string; line?: number };

export interface CsvPlanRow extends TopicPartition {
  newOffset: number;
}

export interface CsvPlanGroup {
  groupId: string;
  rows: readonly CsvPlanRow[];
}

const MAX_UNQUOTED_LENGTH = 24;
const MIN_SAFE_CHAR = '-'.charCodeAt(0);

function needsQuotes(value: string): boolean {
  if (value.length > MAX_UNQUOTED_LENGTH) {
    return true;
  }
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < MIN_SAFE_CHAR || value[i] === '"' || value[i] === '\\') {
      return true;
    }
  }
  return false;
}

function csvText(value: string): string {
  return needsQuotes(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The CLI's --export output for these plans. `withGroupColumn` defaults to "more than one group", the CLI's
 * rule being "--group given exactly once"; pass true to mimic --all-groups with a single group.
 */
export function exportResetCsv(groups: readonly CsvPlanGroup[], options: { withGroupColumn?: boolean } = {}): string {
  const withGroup = options.withGroupColumn ?? groups.length !== 1;
  let out = '';
  for (const { groupId, rows } of groups) {
    for (const row of rows) {
      const columns = [csvText(row.topic), String(row.partition), String(row.newOffset)];
      out += (withGroup ? [csvText(groupId), ...columns] : columns).join(',') + '\n';
    }
  }
  return out;
}

type FieldSplit = { ok: true; fields: Array<{ text: string; quoted: boolean }> } | { ok: false; error: string };

/** One CSV record: ',' separated, '"' quoted with '""' inside quotes. */
function splitCsvLine(line: string): FieldSplit {
  const fields: Array<{ text: string; quoted: boolean }> = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= line.length) {
          return { ok: false, error: 'a quoted value is not closed' };
        }
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            text += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += line[i++];
      }
      if (i < line.length && line[i] !== ',') {
        return { ok: false, error: 'unexpected text after a closing quote' };
      }
      fields.push({ text, quoted: true });
    } else {
      const end = line.indexOf(',', i);
      const text = end < 0 ? line.slice(i) : line.slice(i, end);
      if (text.includes('"')) {
        return { ok: false, error: 'a quote inside an unquoted value' };
      }
      fields.push({ text, quoted: false });
      i = end < 0 ? line.length : end;
    }
    if (i >= line.length) {
      return { ok: true, fields };
    }
    i++; // the separator
  }
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

const BYTE_ORDER_MARK = '\uFEFF';

/** Parses a --from-file CSV; every problem names its 1-based line. */
export function parseResetCsv(text: string): ResetCsvParse {
  const withoutBom = text.startsWith(BYTE_ORDER_MARK) ? text.slice(BYTE_ORDER_MARK.length) : text;
  // "\r" ends a record for Jackson too, so CRLF files read the same.
  const lines = withoutBom.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  while (lines.length > 0 && isBlank(lines[lines.length - 1])) {
    lines.pop();
  }
  if (lines.length === 0) {
    return { ok: false, error: 'The reset plan file has no rows' };
  }
  let format: ResetCsvFormat | null = null;
  const rows: ResetCsvRow[] = [];
  const seen = new Map<string | null, PartitionMap<number>>();
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const fail = (error: string): ResetCsvParse => ({ ok: false, error: `Line ${line}: ${error}`, line });
    if (isBlank(lines[index])) {
      return fail('blank line (kafka-consumer-groups.sh cannot read a blank line inside the file)');
    }
    const split = splitCsvLine(lines[index]);
    if (!split.ok) {
      return fail(split.error);
    }
    const fields = split.fields;
    if (format === null) {
      if (fields.length !== 3 && fields.length !== 4) {
        return fail(`expected 3 columns (topic,partition,offset) or 4 (group,topic,partition,offset), found ${fields.length}`);
      }
      format = fields.length === 3 ? 'topic,partition,offset' : 'group,topic,partition,offset';
    }
    const expected = format === 'topic,partition,offset' ? 3 : 4;
    if (fields.length !== expected) {
      return fail(`expected ${expected} columns (${format}) like line 1, found ${fields.length}`);
    }
    const group = expected === 4 ? fields[0].text : null;
    const [topicField, partitionField, offsetField] = fields.slice(expected - 3);
    // Topic names cannot hold blanks, so trimming an unquoted one only forgives a space after a comma.
    const topic = topicField.quoted ? topicField.text : topicField.text.trim();
    const topicProblem = topicNameProblem(topic);
    if (topicProblem) {
      return fail(topicProblem);
    }
    const partition = parseJavaInt(partitionField.text.trim());
    if (partition === null || partition < 0) {
      return fail(`partition '${partitionField.text}' is not a partition number (a whole number from 0)`);
    }
    const offsetText = offsetField.text.trim();
    const offset = parseJavaLong(offsetText);
    if (offset === null) {
      const problem = /^[+-]?\d+$/.test(offsetText) ? 'is outside the range of a Java long (-2^63 to 2^63-1)' : 'is not a whole number';
      return fail(`offset '${offsetField.text}' ${problem}`);
    }
    let groupRows = seen.get(group);
    if (!groupRows) {
      groupRows = new PartitionMap<number>();
      seen.set(group, groupRows);
    }
    const earlier = groupRows.get(topic, partition);
    if (earlier !== undefined) {
      const where = group === null ? '' : ` for group '${group}'`;
      return fail(`partition ${formatTopicPartition({ topic, partition })}${where} is already on line ${earlier}`);
    }
    groupRows.set(topic, partition, line);
    rows.push({ group, topic, partition, offset, line });
  }
  return { ok: true, format: format ?? 'topic,partition,offset', rows };
}

/**
 * The rows a reset of `groupId` uses: all of them in the 3-column format (the CLI reads it only when one
 * --group is given), else the rows whose group column is `groupId`.
 */
export function resetCsvRowsForGroup(parsed: { format: ResetCsvFormat; rows: readonly ResetCsvRow[] }, groupId: string): ResetCsvRow[] {
  return parsed.format === 'topic,partition,offset' ? [...parsed.rows] : parsed.rows.filter((row) => row.group === groupId);
}
