/**
 * The table `kafka-consumer-groups.sh --reset-offsets` prints (ConsumerGroupCommand.printOffsetsToReset):
 * printf("%n%-30s %-30s %-10s %-15s") for the header and each row, then a final newline. Columns are padded,
 * never cut. Used to show a preview exactly as the CLI would, and to read the CLI's output back in tests.
 */
import type { TopicPartition } from '../model/types';

export interface PrintedResetRow extends TopicPartition {
  groupId: string;
  newOffset: number;
}

const HEADER = ['GROUP', 'TOPIC', 'PARTITION', 'NEW-OFFSET'];

function printedLine(columns: readonly string[]): string {
  const [group, topic, partition, offset] = columns;
  return `\n${group.padEnd(30)} ${topic.padEnd(30)} ${partition.padEnd(10)} ${offset.padEnd(15)}`;
}

/**
 * The CLI's stdout for these plans. A refused group still appears in `plans` with no rows: the CLI prints
 * the header for it (its error goes out before the table).
 */
export function formatResetTable(plans: ReadonlyArray<{ groupId: string; rows: ReadonlyArray<TopicPartition & { newOffset: number }> }>): string {
  let out = plans.length > 0 ? printedLine(HEADER) : '';
  for (const { groupId, rows } of plans) {
    for (const row of rows) {
      out += printedLine([groupId, row.topic, String(row.partition), String(row.newOffset)]);
    }
  }
  return `${out}\n`;
}

// Group ids may hold blanks; topic names cannot, so the last three fields anchor the row.
const ROW = /^(.*?)\s+(\S+)\s+(\d+)\s+(-?\d+)\s*$/;

/** The rows of a --reset-offsets table found in `stdout`, in printed order (lines before the header are skipped). */
export function parseResetTable(stdout: string): PrintedResetRow[] {
  const lines = stdout.split(/\r?\n/);
  const header = lines.findIndex((line) => line.trim().split(/\s+/).join(' ') === HEADER.join(' '));
  if (header < 0) {
    return [];
  }
  const rows: PrintedResetRow[] = [];
  for (const line of lines.slice(header + 1)) {
    const match = ROW.exec(line);
    if (match) {
      rows.push({ groupId: match[1], topic: match[2], partition: Number(match[3]), newOffset: Number(match[4]) });
    }
  }
  return rows;
}
