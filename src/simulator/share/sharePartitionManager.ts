/**
 * Kafka 4.4's SharePartitionManager on the simulator: the share partitions of every group on their leaders,
 * created from the share coordinator's state (ShareStateStore) at their first fetch; the share sessions of
 * each broker (newContext, acknowledgeSessionUpdate, releaseSession); acknowledgements; the release of a
 * member's records when its session ends; and the wake-up of parked share fetches when records become
 * available again.
 */
import { errorCodeOf } from '../../protocol/errorCodes';
import type { VirtualClock } from '../common/clock';
import { KafkaApiError } from '../common/errors';
import type { InFlightRange } from './inFlightRecords';
import { SharePartition, type DeadLetterRecords, type SharePartitionConfig } from './sharePartition';
import { FINAL_SHARE_SESSION_EPOCH, INITIAL_SHARE_SESSION_EPOCH, nextShareSessionEpoch, ShareSessionCache, type SharePartitionRef, type ShareSession } from './shareSessionCache';
import type { ShareStateStore } from './shareStateStore';
import type { ShareAcknowledgementBatch } from './shareAcknowledgements';
import { DEFAULT_SHARE_GROUP_SETTINGS, durationMs, type ShareGroupSettings } from './shareGroupConfigs';

export { DEFAULT_SHARE_GROUP_SETTINGS, type ShareGroupSettings };

/** What the manager reads of the partitions' logs, and where dead letters go. */
export interface SharePartitionLogs {
  /** The log's start offset and high watermark, or undefined when the topic partition does not exist. */
  offsets(topicId: string, partition: number): { logStartOffset: number; highWatermark: number } | undefined;
  /** The first offset stored at or after `timestampMs`, null when every record is older. */
  offsetForTimestamp(topicId: string, partition: number, timestampMs: number): number | null;
  /** Copies archived records of a share partition into the group's dead-letter topic; throws when it cannot. */
  writeDeadLetters(groupId: string, topicId: string, partition: number, records: DeadLetterRecords): void;
}

export interface SharePartitionManagerOptions {
  clock: VirtualClock;
  store: ShareStateStore;
  logs: SharePartitionLogs;
  log?(line: string): void;
}

/** The result of one partition's acknowledgement: 0 and null when it took effect. */
export interface AcknowledgeResult {
  errorCode: number;
  errorMessage: string | null;
}

/** ShareFetchContext: the partitions to fetch this time, and whether the session already existed. */
export interface ShareFetchContext {
  kind: 'initial' | 'subsequent' | 'final';
  session: ShareSession | null;
  /** The partitions to answer for: the request's for an initial context, the session's for a later one. */
  partitions: SharePartitionRef[];
}

interface Waiter {
  keys: ReadonlySet<string>;
  wake(): void;
}

function partitionKey(groupId: string, topicId: string, partition: number): string {
  return JSON.stringify([groupId, topicId, partition]);
}

/** SharePartition.maybeInitialize's mapping of persister errors to what the fetch answers. */
function initializationError(error: unknown): KafkaApiError {
  if (!(error instanceof KafkaApiError)) {
    return new KafkaApiError('UNKNOWN_SERVER_ERROR', String(error));
  }
  switch (error.errorName) {
    case 'GROUP_ID_NOT_FOUND':
    case 'UNKNOWN_TOPIC_OR_PARTITION':
    case 'FENCED_STATE_EPOCH':
      return error;
    case 'FENCED_LEADER_EPOCH':
      return new KafkaApiError('NOT_LEADER_OR_FOLLOWER', error.message);
    default:
      return new KafkaApiError('UNKNOWN_SERVER_ERROR', error.message);
  }
}

/** fencedSharePartitionHandler: the errors after which the cached share partition is dropped. */
const FENCING_ERRORS: ReadonlySet<string> = new Set(['NOT_LEADER_OR_FOLLOWER', 'FENCED_STATE_EPOCH', 'GROUP_ID_NOT_FOUND', 'UNKNOWN_TOPIC_OR_PARTITION']);

export class SharePartitionManager {
  private readonly partitions = new Map<string, { groupId: string; topicId: string; partition: number; sharePartition: SharePartition }>();
  private readonly sessions: ShareSessionCache;
  private readonly waiters = new Set<Waiter>();
  private readonly groupSettings = new Map<string, Partial<ShareGroupSettings>>();

  constructor(private readonly options: SharePartitionManagerOptions, maxSessions?: number) {
    this.sessions = new ShareSessionCache({
      onMemberLeave: (session) => this.releaseSessionRecords(session),
      onGroupEmpty: (_brokerId, groupId) => this.dropGroup(groupId),
    }, maxSessions);
  }

  /** A share group's share.* configs, read at each use: Kafka 4.4's defaults with what was set for the group. */
  settings(groupId: string): ShareGroupSettings {
    return { ...DEFAULT_SHARE_GROUP_SETTINGS, ...this.groupSettings.get(groupId) };
  }

  /** Sets some of a share group's share.* configs (IncrementalAlterConfigs on the GROUP resource). */
  setSettings(groupId: string, settings: Partial<ShareGroupSettings>): void {
    this.groupSettings.set(groupId, { ...this.groupSettings.get(groupId), ...settings });
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  get waiterCount(): number {
    return this.waiters.size;
  }

  session(brokerId: number, groupId: string, memberId: string): ShareSession | undefined {
    return this.sessions.get(brokerId, groupId, memberId);
  }

  /** The cached share partition, else undefined (it is created by the first fetch). */
  cached(groupId: string, topicId: string, partition: number): SharePartition | undefined {
    return this.partitions.get(partitionKey(groupId, topicId, partition))?.sharePartition;
  }

  /**
   * getOrCreateSharePartition and maybeInitialize: the share partition, created from the coordinator's state;
   * throws what the fetch answers for this partition when it cannot be (uninitialized state, no such partition).
   */
  sharePartition(groupId: string, topicId: string, partition: number): SharePartition {
    const key = partitionKey(groupId, topicId, partition);
    const cached = this.partitions.get(key);
    if (cached !== undefined) {
      return cached.sharePartition;
    }
    const offsets = this.options.logs.offsets(topicId, partition);
    if (offsets === undefined) {
      throw new KafkaApiError('UNKNOWN_TOPIC_OR_PARTITION', 'This server does not host this topic-partition.');
    }
    const leaderEpoch = 0;
    let persisted;
    try {
      persisted = this.options.store.readState(groupId, topicId, partition, leaderEpoch);
    } catch (error) {
      throw initializationError(error);
    }
    const settings = (): ShareGroupSettings => this.settings(groupId);
    const config: SharePartitionConfig = {
      recordLockDurationMs: () => settings().recordLockDurationMs,
      deliveryCountLimit: () => settings().deliveryCountLimit,
      partitionMaxRecordLocks: () => settings().partitionMaxRecordLocks,
      renewAcknowledgeEnabled: () => settings().renewAcknowledgeEnable,
      deadLetterTopic: () => settings().deadLetterTopic,
    };
    const sharePartition = new SharePartition({
      clock: this.options.clock,
      leaderEpoch,
      config,
      persister: { writeState: (write) => void this.options.store.writeState(groupId, topicId, partition, write) },
      writeDeadLetters: (records) => {
        try {
          this.options.logs.writeDeadLetters(groupId, topicId, partition, records);
        } catch (error) {
          this.options.log?.(`share group ${groupId}: the dead-letter write to ${records.topic} failed (${String(error)}); the records are archived all the same`);
        }
      },
      onStateChanged: () => this.notify(key),
    }, persisted, () => this.offsetForReset(settings().autoOffsetReset, topicId, partition, offsets));
    this.partitions.set(key, { groupId, topicId, partition, sharePartition });
    return sharePartition;
  }

  /**
   * ShareFetchUtils.offsetForEarliestTimestamp / offsetForLatestTimestamp (read_uncommitted: the high watermark)
   * / offsetForTimestamp for by_duration, whose first record at or after now - duration starts the partition.
   */
  private offsetForReset(strategy: string, topicId: string, partition: number, fallback: { logStartOffset: number; highWatermark: number }): number {
    const now = this.options.logs.offsets(topicId, partition) ?? fallback;
    if (strategy === 'earliest') {
      return now.logStartOffset;
    }
    const duration = strategy.startsWith('by_duration:') ? durationMs(strategy.slice('by_duration:'.length)) : null;
    if (duration !== null) {
      return this.options.logs.offsetForTimestamp(topicId, partition, this.options.clock.now - duration) ?? now.highWatermark;
    }
    return now.highWatermark;
  }

  /** The share.* configs set on the group (IncrementalAlterConfigs), without the defaults. */
  explicitSettings(groupId: string): Partial<ShareGroupSettings> {
    return { ...this.groupSettings.get(groupId) };
  }

  /** Replaces what was set on the group (an IncrementalAlterConfigs that passed its checks). */
  replaceSettings(groupId: string, settings: Partial<ShareGroupSettings>): void {
    this.groupSettings.set(groupId, { ...settings });
  }

  // ---------------------------------------------------------------- share sessions

  /**
   * SharePartitionManager.newContext: epoch 0 opens a session (replacing the member's), -1 asks for the final
   * context of an existing one, any other epoch must be the session's next.
   */
  newContext(brokerId: number, groupId: string, memberId: string, epoch: number, fetchData: readonly SharePartitionRef[], forgotten: readonly SharePartitionRef[], acknowledgeDataPresent: boolean, onConnectionClose: (listener: () => void) => () => void): ShareFetchContext {
    if (epoch === FINAL_SHARE_SESSION_EPOCH) {
      const session = this.sessions.get(brokerId, groupId, memberId);
      if (session === undefined) {
        throw new KafkaApiError('SHARE_SESSION_NOT_FOUND', 'The share session was not found.');
      }
      return { kind: 'final', session, partitions: [] };
    }
    if (epoch === INITIAL_SHARE_SESSION_EPOCH) {
      if (acknowledgeDataPresent) {
        throw new KafkaApiError('INVALID_REQUEST', 'Acknowledge data present in Initial Fetch Request');
      }
      const session = this.sessions.create(brokerId, groupId, memberId, fetchData, onConnectionClose);
      // The request's partitions once each: a partition named twice is fetched and answered once.
      return { kind: 'initial', session, partitions: [...session.partitions.values()].map((ref) => ({ ...ref })) };
    }
    const session = this.sessions.get(brokerId, groupId, memberId);
    if (session === undefined) {
      throw new KafkaApiError('SHARE_SESSION_NOT_FOUND', 'The share session was not found.');
    }
    if (session.epoch !== epoch) {
      throw new KafkaApiError('INVALID_SHARE_SESSION_EPOCH', 'The share session epoch is invalid.');
    }
    ShareSessionCache.update(session, fetchData, forgotten);
    session.epoch = nextShareSessionEpoch(session.epoch);
    return { kind: 'subsequent', session, partitions: [...session.partitions.values()].map((ref) => ({ ...ref })) };
  }

  /** SharePartitionManager.acknowledgeSessionUpdate: ShareAcknowledge's check and bump of the session epoch. */
  acknowledgeSessionUpdate(brokerId: number, groupId: string, memberId: string, epoch: number): void {
    if (epoch === INITIAL_SHARE_SESSION_EPOCH) {
      throw new KafkaApiError('INVALID_SHARE_SESSION_EPOCH', 'The share session epoch is invalid.');
    }
    const session = this.sessions.get(brokerId, groupId, memberId);
    if (session === undefined) {
      throw new KafkaApiError('SHARE_SESSION_NOT_FOUND', 'The share session was not found.');
    }
    if (epoch === FINAL_SHARE_SESSION_EPOCH) {
      return;
    }
    if (session.epoch !== epoch) {
      throw new KafkaApiError('INVALID_SHARE_SESSION_EPOCH', 'The share session epoch is invalid.');
    }
    session.epoch = nextShareSessionEpoch(session.epoch);
  }

  /** SharePartitionManager.releaseSession: the session ends and its member's acquired records go back. */
  releaseSession(brokerId: number, groupId: string, memberId: string): void {
    const session = this.sessions.get(brokerId, groupId, memberId);
    if (session === undefined) {
      throw new KafkaApiError('SHARE_SESSION_NOT_FOUND', 'The share session was not found.');
    }
    this.releaseSessionRecords(session);
  }

  private releaseSessionRecords(session: ShareSession): void {
    this.sessions.remove(session);
    for (const ref of session.partitions.values()) {
      const key = partitionKey(session.groupId, ref.topicId, ref.partition);
      const cached = this.partitions.get(key);
      if (cached === undefined) {
        continue;
      }
      try {
        cached.sharePartition.releaseAcquiredRecords(session.memberId);
      } catch (error) {
        this.failed(key, error, `releasing ${session.memberId}'s records`);
      }
      this.notify(key);
    }
  }

  // ---------------------------------------------------------------- acknowledgements

  /** SharePartitionManager.acknowledge for one partition: UNKNOWN_TOPIC_OR_PARTITION when it is not cached. */
  acknowledge(groupId: string, memberId: string, topicId: string, partition: number, batches: readonly ShareAcknowledgementBatch[]): AcknowledgeResult {
    const key = partitionKey(groupId, topicId, partition);
    const cached = this.partitions.get(key);
    if (cached === undefined) {
      return { errorCode: errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION'), errorMessage: 'This server does not host this topic-partition.' };
    }
    try {
      cached.sharePartition.acknowledge(memberId, batches);
      return { errorCode: 0, errorMessage: null };
    } catch (error) {
      const failure = this.failed(key, error, `acknowledging for ${memberId}`);
      return { errorCode: failure.errorCode, errorMessage: failure.message };
    } finally {
      this.notify(key);
    }
  }

  /** A share partition's error: fencing ones drop it from the cache (fencedSharePartitionHandler). */
  private failed(key: string, error: unknown, what: string): KafkaApiError {
    const failure = error instanceof KafkaApiError ? error : new KafkaApiError('UNKNOWN_SERVER_ERROR', String(error));
    if (FENCING_ERRORS.has(failure.errorName)) {
      this.options.log?.(`share partition ${key} is fenced while ${what}: ${failure.message}`);
      this.remove(key);
    }
    return failure;
  }

  // ---------------------------------------------------------------- fencing

  private remove(key: string): void {
    const cached = this.partitions.get(key);
    if (cached !== undefined) {
      this.partitions.delete(key);
      cached.sharePartition.markFenced();
      this.notify(key);
    }
  }

  /** onGroupEmpty, and an offsets reset or delete: the group's share partitions start again from the store. */
  dropGroup(groupId: string, topicIds?: ReadonlySet<string>): void {
    for (const [key, cached] of [...this.partitions]) {
      if (cached.groupId === groupId && (topicIds === undefined || topicIds.has(cached.topicId))) {
        this.remove(key);
      }
    }
  }

  /** A deleted topic: its share partitions in every group (SharePartitionListener.onDeleted). */
  dropTopic(topicId: string): void {
    for (const [key, cached] of [...this.partitions]) {
      if (cached.topicId === topicId) {
        this.remove(key);
      }
    }
  }

  // ---------------------------------------------------------------- parked fetches

  /** DelayedShareFetch's watch keys: `wake` runs once when one of these partitions may have records to give. */
  waitForStateChange(refs: readonly { groupId: string; topicId: string; partition: number }[], wake: () => void): () => void {
    const waiter: Waiter = { keys: new Set(refs.map((ref) => partitionKey(ref.groupId, ref.topicId, ref.partition))), wake };
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  private notify(key: string): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.keys.has(key)) {
        this.waiters.delete(waiter);
        waiter.wake();
      }
    }
  }

  // ---------------------------------------------------------------- views

  /** The delivery view of a share partition that is cached on its leader, else undefined. */
  deliveryState(groupId: string, topicId: string, partition: number): { startOffset: number; endOffset: number; deliveryCompleteCount: number; ranges: InFlightRange[] } | undefined {
    const sharePartition = this.cached(groupId, topicId, partition);
    return sharePartition === undefined
      ? undefined
      : { startOffset: sharePartition.startOffset, endOffset: sharePartition.endOffset, deliveryCompleteCount: sharePartition.deliveryCompleteCount, ranges: sharePartition.inFlightRanges() };
  }
}
