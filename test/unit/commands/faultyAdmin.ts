/**
 * A GroupAdmin over the simulator's that fails the way a broker does: a commit that lands for the first k
 * partitions and then loses its connection (the broker is gone: every later call fails until it is back),
 * per-partition refusals after k, or a commit held until the test releases it. It records the calls in order.
 */
import type { CommittedOffset, GroupAdmin, PartitionResult } from '../../../src/model/groupAdmin';

export const GONE = 'KafkaJSConnectionError: Connection error: connect ECONNREFUSED 127.0.0.1:9092';

export class FaultyAdmin implements GroupAdmin {
  /** Method names in call order; tests add their own markers (e.g. "saveUndo"). */
  readonly calls: string[] = [];
  /** The partitions each commitOffsets call asked for, as "topic-partition=offset". */
  readonly commits: string[][] = [];
  /** While true every call fails as a refused connection does. */
  gone = false;
  /** The next commit lands for this many partitions, then the connection drops and the broker is gone. */
  dropAfter: number | undefined;
  /** The next commit lands for this many partitions; the broker refuses the rest with this error. */
  refuseAfter: { count: number; error: string } | undefined;
  /** When set, commits wait for it. */
  gate: Promise<void> | undefined;

  constructor(private readonly base: GroupAdmin) {}

  private enter(name: string): void {
    this.calls.push(name);
    if (this.gone) {
      throw new Error(GONE);
    }
  }

  now(): number {
    return this.base.now();
  }

  async groupState(groupId: string) {
    this.enter('groupState');
    return this.base.groupState(groupId);
  }

  async committedOffsets(groupId: string) {
    this.enter('committedOffsets');
    return this.base.committedOffsets(groupId);
  }

  async partitionCounts(topics: readonly string[]) {
    this.enter('partitionCounts');
    return this.base.partitionCounts(topics);
  }

  async logOffsets(partitions: Parameters<GroupAdmin['logOffsets']>[0]) {
    this.enter('logOffsets');
    return this.base.logOffsets(partitions);
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number) {
    this.enter('offsetForTimestamp');
    return this.base.offsetForTimestamp(topic, partition, timestampMs);
  }

  async commitOffsets(groupId: string, offsets: readonly CommittedOffset[]): Promise<PartitionResult[]> {
    this.enter('commitOffsets');
    this.commits.push(offsets.map((o) => `${o.topic}-${o.partition}=${o.offset}`));
    if (this.gate) {
      await this.gate;
    }
    if (this.dropAfter !== undefined) {
      const landed = offsets.slice(0, this.dropAfter);
      this.dropAfter = undefined;
      await this.base.commitOffsets(groupId, landed);
      this.gone = true;
      throw new Error(GONE);
    }
    if (this.refuseAfter !== undefined) {
      const { count, error } = this.refuseAfter;
      this.refuseAfter = undefined;
      const answered = await this.base.commitOffsets(groupId, offsets.slice(0, count));
      return [...answered, ...offsets.slice(count).map(({ topic, partition }) => ({ topic, partition, error }))];
    }
    return this.base.commitOffsets(groupId, offsets);
  }

  async deleteOffsets(groupId: string, topic: string, partitions: readonly number[]) {
    this.enter('deleteOffsets');
    return this.base.deleteOffsets(groupId, topic, partitions);
  }

  async deleteGroups(groupIds: readonly string[]) {
    this.enter('deleteGroups');
    return this.base.deleteGroups(groupIds);
  }

  async removeStaticMembers(groupId: string, instanceIds: readonly string[]) {
    this.enter('removeStaticMembers');
    return this.base.removeStaticMembers(groupId, instanceIds);
  }
}
