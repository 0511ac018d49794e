/**
 * The text the Copy commands put on the clipboard: a group's committed offsets as the CSV that
 * `kafka-consumer-groups.sh --reset-offsets --from-file` reads back, or as `--describe` prints them
 * (ConsumerGroupCommand.printOffsets: columns at least 15 wide, widened to the longest value, "-" for a missing one).
 * Pure, so it is tested without an editor.
 */
import type { GroupDetail, PartitionOffsets } from '../model/types';
import { exportResetCsv } from '../offsets/csv';

const MISSING = '-';

/** `topic,partition,offset` per committed partition: a plan that resets the group to where it is now. */
export function offsetsCsv(detail: GroupDetail): string {
  const rows = detail.offsets.flatMap((o) => (o.committedOffset === null ? [] : [{ topic: o.topic, partition: o.partition, newOffset: o.committedOffset }]));
  return exportResetCsv([{ groupId: detail.groupId, rows }]);
}

function text(value: number | string | null | undefined): string {
  return value === null || value === undefined || value === '' ? MISSING : String(value);
}

/** The table `kafka-consumer-groups.sh --describe --group <id>` prints for the group's partitions. */
export function offsetsAsDescribed(detail: GroupDetail): string {
  const owners = new Map(detail.members.map((m) => [m.memberId, m]));
  const rows = [...detail.offsets]
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1))
    .map((o: PartitionOffsets) => {
      const owner = o.ownerMemberId ? owners.get(o.ownerMemberId) : undefined;
      return [detail.groupId, o.topic, String(o.partition), text(o.committedOffset), text(o.logEndOffset), text(o.lag),
        text(owner?.memberId), text(owner?.clientHost), text(owner?.clientId)];
    });
  const width = (column: number) => Math.max(15, ...rows.map((r) => r[column].length));
  const [group, topic, consumer, host] = [width(0), width(1), width(6), width(7)];
  const line = (c: readonly string[]) =>
    `${c[0].padEnd(group)} ${c[1].padEnd(topic)} ${c[2].padEnd(10)} ${c[3].padEnd(15)} ${c[4].padEnd(15)} ${c[5].padEnd(15)} ${c[6].padEnd(consumer)} ${c[7].padEnd(host)} ${c[8]}`;
  const header = ['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID', 'HOST', 'CLIENT-ID'];
  return `\n${[header, ...rows].map(line).join('\n')}\n`;
}

/** One partition row's figures: `orders-3: committed 120, log end 150, lag 30`. */
export function partitionLine(p: PartitionOffsets): string {
  return `${p.topic}-${p.partition}: committed ${text(p.committedOffset)}, log end ${text(p.logEndOffset)}, lag ${text(p.lag)}`;
}
