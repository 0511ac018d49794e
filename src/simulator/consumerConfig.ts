/** The simulated classic consumer's configuration, its environment, and what its parts share. */
import type { RebalanceEvent, TopicPartition } from '../model/types';
import { supportedRebalanceProtocols, type RebalanceProtocol } from './assignors/index';
import type { VirtualClock } from './clock';
import type { SimCluster } from './cluster';
import type { AssignorName } from './control';
import type { GroupCoordinator } from './coordinator';
import type { EventLog } from './eventLog';
import type { IsolationLevel } from './transactionIndex';

export interface ConsumerConfig {
  groupId: string;
  clientId: string;
  groupInstanceId: string | null;
  topics: string[];
  assignors: AssignorName[];
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  maxPollIntervalMs: number;
  /** Virtual time spent processing each non-empty batch. */
  processingTimeMs: number;
  maxPollRecords: number;
  clientHost: string;
  enableAutoCommit: boolean;
  autoCommitIntervalMs: number;
  autoOffsetReset: 'earliest' | 'latest';
  /** isolation.level: read_committed stops at the last stable offset and skips aborted records. */
  isolationLevel: IsolationLevel;
  /** How long a poll waits when nothing is fetchable (fetch.max.wait.ms). */
  fetchMaxWaitMs: number;
  /** retry.backoff.ms */
  retryBackoffMs: number;
}

export const CONSUMER_DEFAULTS = {
  assignors: ['range', 'cooperative-sticky'] as AssignorName[],
  sessionTimeoutMs: 45000,
  heartbeatIntervalMs: 3000,
  maxPollIntervalMs: 300000,
  processingTimeMs: 10,
  maxPollRecords: 500,
  clientHost: '/127.0.0.1',
  enableAutoCommit: true,
  autoCommitIntervalMs: 5000,
  autoOffsetReset: 'latest' as const,
  isolationLevel: 'read_uncommitted' as IsolationLevel,
  fetchMaxWaitMs: 500,
  retryBackoffMs: 100,
};

export interface ConsumerEnvironment {
  clock: VirtualClock;
  cluster: SimCluster;
  coordinator: GroupCoordinator;
  events: EventLog;
}

/** The highest rebalance protocol every configured assignor supports (ConsumerCoordinator constructor). */
export function commonRebalanceProtocol(assignors: AssignorName[]): RebalanceProtocol {
  let common: RebalanceProtocol[] | null = null;
  for (const name of assignors) {
    const supported = supportedRebalanceProtocols(name);
    common = common === null ? supported : common.filter((p) => supported.includes(p));
  }
  if (!common || common.length === 0) {
    throw new Error(`Assignors ${assignors.join(', ')} have no rebalance protocol in common`);
  }
  return common.includes('COOPERATIVE') ? 'COOPERATIVE' : 'EAGER';
}

export type ConsumerEventKind = 'poll-timeout' | 'assignment-changed' | 'member-left';

/**
 * What the consumer's parts (coordinator, heartbeat thread, offsets) reach of the consumer itself:
 * its incarnation, its poll loop and its event log.
 */
export interface ConsumerHost {
  readonly config: ConsumerConfig;
  readonly env: ConsumerEnvironment;
  /** Bumped on every start/stop/crash so callbacks of an old incarnation are ignored. */
  readonly incarnation: number;
  /** Whether poll() is blocked (rejoining, or waiting for data): the user's loop is still calling it. */
  readonly blockedInPoll: boolean;
  /** Wraps a callback so it is dropped if the consumer stopped or restarted meanwhile. */
  guard<T>(callback: (value: T) => void): (value: T) => void;
  /** A fatal error: the consumer stops. */
  fail(reason: string): void;
  wakeFromIdle(): void;
  schedulePoll(delayMs: number): void;
  /** The rebalance completed: poll() returns and the loop runs again. */
  resumePolling(): void;
  /** The heartbeat thread found no poll() within max.poll.interval.ms. */
  onPollTimeout(now: number): void;
  emit(kind: ConsumerEventKind, details: { cause: string; assignments?: RebalanceEvent['assignments'] }): void;
  emitAssignmentChange(revoked: TopicPartition[], assigned: TopicPartition[], cause: string): void;
}
