/**
 * The share coordinator's state of each share partition, as Kafka 4.4's ShareCoordinatorShard keeps it from
 * `__share_group_state`: the state epoch, leader epoch, start offset, delivery-complete count and the state
 * batches, merged by PersisterStateBatchCombiner. Initialize, read, write, summary and delete answer with the
 * coordinator's errors and messages; a refused call changes nothing.
 */
import { KafkaApiError } from '../common/errors';
import type { PersistedShareState, PersisterStateBatch, ShareStateWrite } from './sharePartition';

/** ShareGroupOffset: what the coordinator holds for one share partition. */
export interface ShareGroupOffset {
  snapshotEpoch: number;
  stateEpoch: number;
  leaderEpoch: number;
  startOffset: number;
  deliveryCompleteCount: number;
  stateBatches: PersisterStateBatch[];
}

/** ReadShareGroupStateSummary: startOffset -1 when the partition has no state. */
export interface ShareStateSummary {
  startOffset: number;
  deliveryCompleteCount: number;
  leaderEpoch: number;
  stateEpoch: number;
}

/** share.coordinator.snapshot.update.records.per.snapshot */
export const SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT = 500;

const READ_UNINITIALIZED = 'Read operation on uninitialized share partition not allowed.';
const WRITE_UNINITIALIZED = 'Write operation on uninitialized share partition not allowed.';

/** Overlapping batches: the higher delivery count wins, then the higher state (PersisterStateBatchCombiner.PRIORITY_DESC). */
function outranks(a: PersisterStateBatch, b: PersisterStateBatch): boolean {
  return a.deliveryCount !== b.deliveryCount ? a.deliveryCount > b.deliveryCount : a.deliveryState > b.deliveryState;
}

/**
 * PersisterStateBatchCombiner.combineStateBatches: the batches so far and the new ones, cut at the start offset,
 * swept into runs where the highest-priority batch covering each offset decides, equal neighbours coalesced.
 */
export function combineStateBatches(soFar: readonly PersisterStateBatch[], newBatches: readonly PersisterStateBatch[], startOffset: number): PersisterStateBatch[] {
  const pruned: PersisterStateBatch[] = [];
  for (const batch of [...soFar, ...newBatches]) {
    if (startOffset !== -1 && batch.lastOffset < startOffset) {
      continue;
    }
    pruned.push(startOffset === -1 || batch.firstOffset >= startOffset ? { ...batch } : { ...batch, firstOffset: startOffset });
  }
  if (pruned.length <= 1) {
    return pruned;
  }
  // Events at first (begin) and last + 1 (end); at one offset ends sort before begins, as Boolean.compare does.
  const events = pruned.flatMap((batch) => [{ offset: batch.firstOffset, begin: true, batch }, { offset: batch.lastOffset + 1, begin: false, batch }]);
  events.sort((a, b) => a.offset - b.offset || Number(a.begin) - Number(b.begin));
  const active: PersisterStateBatch[] = [];
  const out: PersisterStateBatch[] = [];
  let openFrom = -1;
  let winner: PersisterStateBatch | undefined;
  let i = 0;
  while (i < events.length) {
    const offset = events[i].offset;
    if (winner !== undefined && offset > openFrom) {
      const tail = out[out.length - 1];
      if (tail !== undefined && tail.lastOffset + 1 === openFrom && tail.deliveryState === winner.deliveryState && tail.deliveryCount === winner.deliveryCount) {
        tail.lastOffset = offset - 1;
      } else {
        out.push({ firstOffset: openFrom, lastOffset: offset - 1, deliveryState: winner.deliveryState, deliveryCount: winner.deliveryCount });
      }
    }
    for (; i < events.length && events[i].offset === offset; i++) {
      const event = events[i];
      if (event.begin) {
        active.push(event.batch);
      } else {
        active.splice(active.indexOf(event.batch), 1);
      }
    }
    winner = active.reduce<PersisterStateBatch | undefined>((best, batch) => (best === undefined || outranks(batch, best) ? batch : best), undefined);
    openFrom = offset;
  }
  return out;
}

export class ShareStateStore {
  private readonly states = new Map<string, ShareGroupOffset>();
  /** Writes since the last snapshot, per partition: every SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT-th is a ShareSnapshot. */
  private readonly updatesSinceSnapshot = new Map<string, number>();

  private static key(groupId: string, topicId: string, partition: number): string {
    return JSON.stringify([groupId, topicId, partition]);
  }

  get size(): number {
    return this.states.size;
  }

  has(groupId: string, topicId: string, partition: number): boolean {
    return this.states.has(ShareStateStore.key(groupId, topicId, partition));
  }

  /** A copy of the state, for views and tests. */
  get(groupId: string, topicId: string, partition: number): ShareGroupOffset | undefined {
    const state = this.states.get(ShareStateStore.key(groupId, topicId, partition));
    return state === undefined ? undefined : { ...state, stateBatches: state.stateBatches.map((batch) => ({ ...batch })) };
  }

  /**
   * ShareCoordinatorShard.initializeState: a new ShareSnapshot with this state epoch and start offset and no
   * batches (the group coordinator's initialization, an AlterShareGroupOffsets). FENCED_STATE_EPOCH when the
   * stored state is newer.
   */
  initializeState(groupId: string, topicId: string, partition: number, stateEpoch: number, startOffset: number): void {
    if (stateEpoch < 0) {
      throw new KafkaApiError('INVALID_REQUEST', 'The state epoch cannot be a negative number.');
    }
    const key = ShareStateStore.key(groupId, topicId, partition);
    const current = this.states.get(key);
    if (current !== undefined && current.stateEpoch > stateEpoch) {
      throw new KafkaApiError('FENCED_STATE_EPOCH', 'The share coordinator has a newer state epoch for this share partition.');
    }
    this.states.set(key, {
      snapshotEpoch: current === undefined ? 0 : current.snapshotEpoch + 1,
      stateEpoch, leaderEpoch: -1, startOffset, deliveryCompleteCount: 0, stateBatches: [],
    });
    this.updatesSinceSnapshot.set(key, 0);
  }

  /** Persister.initializeState for a group coordinator's request: each partition at the group epoch with its start offset. */
  initializeGroupPartitions(groupId: string, stateEpoch: number, startOffsets: ReadonlyMap<string, ReadonlyMap<number, number>>): void {
    for (const [topicId, byPartition] of startOffsets) {
      for (const [partition, startOffset] of byPartition) {
        this.initializeState(groupId, topicId, partition, stateEpoch, startOffset);
      }
    }
  }

  /** Persister.deleteState for a group coordinator's request. */
  deleteGroupPartitions(groupId: string, partitions: ReadonlyMap<string, ReadonlySet<number>>): void {
    for (const [topicId, numbers] of partitions) {
      for (const partition of numbers) {
        this.deleteState(groupId, topicId, partition);
      }
    }
  }

  /** ShareCoordinatorShard.readStateAndMaybeUpdateLeaderEpoch: what a share partition starts from. */
  readState(groupId: string, topicId: string, partition: number, leaderEpoch: number): PersistedShareState {
    const state = this.states.get(ShareStateStore.key(groupId, topicId, partition));
    if (state === undefined) {
      throw new KafkaApiError('INVALID_REQUEST', READ_UNINITIALIZED);
    }
    if (state.leaderEpoch > leaderEpoch) {
      throw new KafkaApiError('FENCED_LEADER_EPOCH', 'The leader epoch in the request is older than the one stored.');
    }
    state.leaderEpoch = leaderEpoch;
    return { stateEpoch: state.stateEpoch, startOffset: state.startOffset, stateBatches: state.stateBatches.map((batch) => ({ ...batch })) };
  }

  /**
   * ShareCoordinatorShard.writeState: the start offset only moves forward; the delivery-complete count is the
   * write's unless the write's start offset is behind (KIP-1226); the batches merge over what is stored.
   * Returns whether the write was stored as a ShareSnapshot (else a ShareUpdate).
   */
  writeState(groupId: string, topicId: string, partition: number, write: ShareStateWrite): 'ShareSnapshot' | 'ShareUpdate' {
    if (write.leaderEpoch < 0) {
      throw new KafkaApiError('INVALID_REQUEST', 'The leader epoch cannot be a negative number.');
    }
    if (write.stateEpoch < 0) {
      throw new KafkaApiError('INVALID_REQUEST', 'The state epoch cannot be a negative number.');
    }
    const key = ShareStateStore.key(groupId, topicId, partition);
    const state = this.states.get(key);
    if (state === undefined) {
      throw new KafkaApiError('INVALID_REQUEST', WRITE_UNINITIALIZED);
    }
    if (state.leaderEpoch > write.leaderEpoch) {
      throw new KafkaApiError('FENCED_LEADER_EPOCH', 'The leader epoch in the request is older than the one stored.');
    }
    if (state.stateEpoch > write.stateEpoch) {
      throw new KafkaApiError('FENCED_STATE_EPOCH', 'The state epoch in the request is older than the one stored.');
    }
    const startOffset = Math.max(write.startOffset, state.startOffset);
    let deliveryCompleteCount = write.deliveryCompleteCount;
    if (write.startOffset === state.startOffset) {
      deliveryCompleteCount = Math.max(write.deliveryCompleteCount, state.deliveryCompleteCount);
    } else if (write.startOffset < state.startOffset) {
      deliveryCompleteCount = state.deliveryCompleteCount;
    }
    const updates = this.updatesSinceSnapshot.get(key) ?? 0;
    const snapshot = updates >= SNAPSHOT_UPDATE_RECORDS_PER_SNAPSHOT;
    state.stateBatches = combineStateBatches(state.stateBatches, write.stateBatches, startOffset);
    state.startOffset = startOffset;
    state.deliveryCompleteCount = deliveryCompleteCount;
    if (snapshot) {
      state.snapshotEpoch++;
    }
    this.updatesSinceSnapshot.set(key, snapshot ? 0 : updates + 1);
    return snapshot ? 'ShareSnapshot' : 'ShareUpdate';
  }

  /** ShareCoordinatorShard.readStateSummary: what DescribeShareGroupOffsets reads (-1 and -1 where there is no state). */
  summary(groupId: string, topicId: string, partition: number): ShareStateSummary {
    const state = this.states.get(ShareStateStore.key(groupId, topicId, partition));
    return state === undefined
      ? { startOffset: -1, deliveryCompleteCount: -1, leaderEpoch: 0, stateEpoch: 0 }
      : { startOffset: state.startOffset, deliveryCompleteCount: state.deliveryCompleteCount, leaderEpoch: state.leaderEpoch, stateEpoch: state.stateEpoch };
  }

  /** ShareCoordinatorShard.deleteState: the partition's tombstone; deleting what is not there is no error. */
  deleteState(groupId: string, topicId: string, partition: number): void {
    const key = ShareStateStore.key(groupId, topicId, partition);
    this.states.delete(key);
    this.updatesSinceSnapshot.delete(key);
  }

  /** The partitions of a group that have state, sorted. */
  partitionsOf(groupId: string): { topicId: string; partition: number }[] {
    const found: { topicId: string; partition: number }[] = [];
    for (const key of this.states.keys()) {
      const [group, topicId, partition] = JSON.parse(key) as [string, string, number];
      if (group === groupId) {
        found.push({ topicId, partition });
      }
    }
    return found.sort((a, b) => a.topicId.localeCompare(b.topicId) || a.partition - b.partition);
  }

  /** ShareCoordinatorShard.maybeCleanupShareState: a deleted topic's state goes, in every group. */
  deleteTopic(topicId: string): void {
    for (const key of [...this.states.keys()]) {
      if ((JSON.parse(key) as [string, string, number])[1] === topicId) {
        this.states.delete(key);
        this.updatesSinceSnapshot.delete(key);
      }
    }
  }
}

/**
 * The store as the group coordinator's persister: after new or deleted state, `stale` drops the cached share
 * partitions of those topics on their leaders, so their next fetch starts from the store.
 */
export function shareStatePersister(store: ShareStateStore, stale: (groupId: string, topicIds: ReadonlySet<string>) => void) {
  return {
    initializeState(groupId: string, stateEpoch: number, startOffsets: ReadonlyMap<string, ReadonlyMap<number, number>>): void {
      store.initializeGroupPartitions(groupId, stateEpoch, startOffsets);
      stale(groupId, new Set(startOffsets.keys()));
    },
    deleteState(groupId: string, partitions: ReadonlyMap<string, ReadonlySet<number>>): void {
      store.deleteGroupPartitions(groupId, partitions);
      stale(groupId, new Set(partitions.keys()));
    },
  };
}
