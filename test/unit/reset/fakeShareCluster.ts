/** An in-memory cluster of share groups for the share reset and admin-flow tests. */
import type { CommittedOffset, GroupAdmin, ShareGroupAdmin, ShareStartOffset } from '../../../src/model/groupAdmin';
import type { GroupState } from '../../../src/model/types';

/** One cluster with topic "orders" (3 partitions, log 10..100) and share groups held in memory. */
export class FakeShareCluster implements ShareGroupAdmin {
  readonly states = new Map<string, GroupState>();
  readonly starts = new Map<string, ShareStartOffset[]>();
  readonly calls: string[] = [];

  async shareGroupState(groupId: string): Promise<GroupState | 'missing'> {
    return this.states.get(groupId) ?? 'missing';
  }

  async shareStartOffsets(groupId: string): Promise<ShareStartOffset[]> {
    return (this.starts.get(groupId) ?? []).map((s) => ({ ...s }));
  }

  async alterShareGroupOffsets(groupId: string, offsets: readonly CommittedOffset[]) {
    this.calls.push(`alter ${offsets.map((o) => `${o.topic}-${o.partition}=${o.offset}`).join(',')}`);
    if ((this.states.get(groupId) ?? 'Empty') !== 'Empty') {
      return offsets.map(({ topic, partition }) => ({ topic, partition, error: 'NON_EMPTY_GROUP' }));
    }
    // A reset of an unknown group creates it.
    this.states.set(groupId, 'Empty');
    const held = this.starts.get(groupId) ?? [];
    for (const o of offsets) {
      const found = held.find((s) => s.topic === o.topic && s.partition === o.partition);
      if (found) {
        found.startOffset = o.offset;
      } else {
        held.push({ topic: o.topic, partition: o.partition, startOffset: o.offset });
      }
    }
    this.starts.set(groupId, held);
    return offsets.map(({ topic, partition }) => ({ topic, partition }));
  }

  async deleteShareGroupOffsets(groupId: string, topics: readonly string[]) {
    this.calls.push(`delete ${topics.join(',')}`);
    this.starts.set(groupId, (this.starts.get(groupId) ?? []).filter((s) => !topics.includes(s.topic)));
    return { topics: topics.map((topic) => ({ topic })) };
  }

  admin(): GroupAdmin {
    const unused = () => Promise.reject(new Error('not used by a share reset'));
    return {
      share: this,
      now: () => 1_700_000_000_000,
      groupState: unused,
      committedOffsets: unused,
      partitionCounts: async (topics) => new Map(topics.filter((t) => t === 'orders').map((t) => [t, 3])),
      logOffsets: async (partitions) => partitions.map(({ topic, partition }) => ({ topic, partition, earliest: 10, latest: 100 })),
      offsetForTimestamp: async () => null,
      commitOffsets: unused,
      deleteOffsets: unused,
      deleteGroups: unused,
      removeStaticMembers: unused,
    };
  }
}
