/** The simulated classic consumer's configuration, its environment, and what its parts share. */
import type { RebalanceEvent, TopicPartition } from '../../../model/types';
import { supportedRebalanceProtocols, type RebalanceProtocol } from '../../assignors/index';
import type { VirtualClock } from '../../common/clock';
import type { SimCluster } from '../../log/cluster';
import type { AssignorName, ConsumerSpec, StreamsThreadSpec } from '../../common/control';
import type { ConfiguredInternalTopic } from '../../common/requests';
import { streamsThreadIssues } from './streamsThreadConfig';
import { compileTopicRegex } from '../../common/topicRegex';
import { errorMessage } from '../../../protocol/errors';
import type { EventLog } from '../../common/eventLog';
import type { GroupCoordinatorClient } from '../groupCoordinatorClient';
import type { KafkaErrorCode } from '../../common/errors';
import type { SeededRandom } from '../../common/random';
import type { IsolationLevel } from '../../log/transactionIndex';

/** group.protocol: the classic JoinGroup/SyncGroup protocol, KIP-848's consumer protocol, or a Streams thread's (KIP-1071). */
export type GroupProtocol = 'classic' | 'consumer' | 'streams';

/** group.remote.assignor: a server-side assignor of Kafka 4.4's group.consumer.assignors. */
export type GroupRemoteAssignor = 'uniform' | 'range';

export interface ConsumerConfig {
  groupId: string;
  clientId: string;
  groupInstanceId: string | null;
  /** group.protocol; the classic protocol unless "consumer" (KIP-848) or "streams" (KIP-1071). */
  groupProtocol: GroupProtocol;
  /** group.protocol=streams: the thread's process and topology; null otherwise. */
  streams: StreamsThreadSpec | null;
  topics: string[];
  /** partition.assignment.strategy (classic protocol only; empty for the consumer protocol). */
  assignors: AssignorName[];
  /** group.remote.assignor (consumer protocol only); null lets the coordinator choose. */
  groupRemoteAssignor: GroupRemoteAssignor | null;
  /** subscribe(SubscriptionPattern): a regex the coordinator resolves (consumer protocol only), or null. */
  subscribedTopicRegex: string | null;
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
  coordinator: GroupCoordinatorClient;
  events: EventLog;
  /** The simulation's seeded randomness (a consumer-protocol member draws its member id from it). */
  random: SeededRandom;
  /**
   * The broker's AutoTopicCreationManager: KafkaApis creates the internal topics a StreamsGroupHeartbeat
   * names missing, after answering it.
   */
  createStreamsInternalTopics(topics: ReadonlyMap<string, ConfiguredInternalTopic>): void;
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

export const GROUP_PROTOCOLS: readonly GroupProtocol[] = ['classic', 'consumer', 'streams'];
export const GROUP_REMOTE_ASSIGNORS: readonly GroupRemoteAssignor[] = ['uniform', 'range'];

/** A problem with a consumer's group.protocol settings: the spec's field and what is wrong. */
export interface GroupProtocolIssue {
  field: keyof ConsumerSpec;
  message: string;
}

/** The spec's fields the consumer protocol refuses, with the Java config each one stands for. */
const CONSUMER_PROTOCOL_UNSUPPORTED: ReadonlyArray<readonly [keyof ConsumerSpec, string]> = [
  ['assignors', 'partition.assignment.strategy'],
  ['sessionTimeoutMs', 'session.timeout.ms'],
  ['heartbeatIntervalMs', 'heartbeat.interval.ms'],
];

/**
 * The Java consumer's checks of group.protocol and the configs that go with it (ConsumerConfig:
 * "X cannot be set when group.protocol=CONSUMER", group.remote.assignor only with the consumer
 * protocol), and the subscription: topics or, for the consumer protocol, a regex, not both.
 */
export function groupProtocolIssues(spec: Partial<Record<keyof ConsumerSpec, unknown>>): GroupProtocolIssue[] {
  const issues: GroupProtocolIssue[] = [];
  const protocol = spec.groupProtocol ?? 'classic';
  if (!GROUP_PROTOCOLS.includes(protocol as GroupProtocol)) {
    return [{ field: 'groupProtocol', message: `expected "classic", "consumer" or "streams", got ${JSON.stringify(protocol)}` }];
  }
  if (protocol === 'streams') {
    return streamsThreadIssues(spec);
  }
  if (spec.streams !== undefined) {
    issues.push({ field: 'streams', message: 'a Streams topology needs group.protocol=streams' });
  }
  const regex = spec.subscribedTopicRegex;
  const hasTopics = Array.isArray(spec.topics) && spec.topics.length > 0;
  if (protocol === 'consumer') {
    for (const [field, javaName] of CONSUMER_PROTOCOL_UNSUPPORTED) {
      if (spec[field] !== undefined) {
        issues.push({ field, message: `${javaName} cannot be set when group.protocol=CONSUMER (the coordinator decides it; see groupRemoteAssignor)` });
      }
    }
    if (spec.groupRemoteAssignor !== undefined && !GROUP_REMOTE_ASSIGNORS.includes(spec.groupRemoteAssignor as GroupRemoteAssignor)) {
      issues.push({ field: 'groupRemoteAssignor', message: `expected "uniform" or "range", got ${JSON.stringify(spec.groupRemoteAssignor)}` });
    }
    if (regex !== undefined) {
      if (typeof regex !== 'string' || regex === '') {
        issues.push({ field: 'subscribedTopicRegex', message: `expected a non-empty regular expression, got ${JSON.stringify(regex)}` });
      } else {
        try {
          compileTopicRegex(regex);
        } catch (e) {
          issues.push({ field: 'subscribedTopicRegex', message: errorMessage(e) });
        }
      }
      if (hasTopics) {
        issues.push({ field: 'subscribedTopicRegex', message: 'a consumer subscribes to topics or to a pattern, not both: leave topics out' });
      }
    } else if (!hasTopics) {
      issues.push({ field: 'topics', message: 'expected at least one topic, or a subscribedTopicRegex' });
    }
  } else {
    if (spec.groupRemoteAssignor !== undefined) {
      issues.push({ field: 'groupRemoteAssignor', message: 'group.remote.assignor cannot be set when group.protocol=CLASSIC (use assignors)' });
    }
    if (regex !== undefined) {
      issues.push({ field: 'subscribedTopicRegex', message: 'a regex subscription resolved by the coordinator needs group.protocol=CONSUMER' });
    }
  }
  return issues;
}

export type ConsumerEventKind = 'poll-timeout' | 'assignment-changed' | 'member-left';

/** What the consumer's offset commits need of its group membership, whichever the protocol. */
export interface CommitMembership {
  /** The member id, or '' while the consumer has none. */
  readonly memberId: string;
  /** The classic generation, or the KIP-848 member epoch: what OffsetCommit carries as generation. */
  readonly generationId: number;
  /** Whether the member is stable in its group (auto-commit before a classic rebalance needs it). */
  isStable(): boolean;
  /** An OffsetCommit failed with this error. */
  onCommitError(error: KafkaErrorCode): void;
}

/**
 * The consumer's side of its group protocol as the process and its poll loop see it: the classic
 * protocol (ConsumerCoordinator and its heartbeat thread) or the consumer protocol (KIP-848's
 * membership manager and heartbeat request manager), picked by group.protocol as KafkaConsumer
 * picks ClassicKafkaConsumer or AsyncKafkaConsumer.
 */
export interface GroupProtocolClient extends CommitMembership {
  /** The last member id the coordinator knew this consumer by, kept for events after a reset. */
  readonly lastMemberId: string;
  /** A new incarnation of the process: no member, fresh timers. */
  start(now: number): void;
  /** The process stops: timers cancelled, nothing more is sent. */
  halt(): void;
  /** The user's loop called poll(): the poll timer restarts. */
  onPoll(now: number): void;
  /** When poll() was last called (for the poll-timeout event's cause). */
  lastPollTime(): number;
  /** Whether poll() must first (re)join and blocks in it (the classic protocol's ensureActiveGroup). */
  needsJoin(): boolean;
  maybeJoinGroup(): void;
  /** poll() returned from a blocking join: the heartbeat thread wakes for the poll deadline. */
  onJoinReturned(now: number): void;
  /** KafkaConsumer.close(): commit, release the partitions and leave the group. */
  close(): void;
  /** max.poll.interval.ms expired: the member leaves the group. */
  leaveOnPollTimeout(): void;
}

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
