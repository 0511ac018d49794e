/**
 * A simulated classic KafkaConsumer (AbstractCoordinator + ConsumerCoordinator): a heartbeat
 * thread separate from the poll loop, the JoinGroup/SyncGroup dance with MEMBER_ID_REQUIRED,
 * eager or cooperative rebalancing, static membership, auto-commit and max.poll.interval.ms.
 * The poll loop advances positions arithmetically: no per-record work.
 */
import type { RebalanceEvent, TopicPartition } from '../model/types';
import { assign, supportedRebalanceProtocols, type AssignInput, type RebalanceProtocol } from './assignors/index';
import type { ScheduledTask, VirtualClock } from './clock';
import type { SimCluster } from './cluster';
import type { AssignorName, SimulatedConsumerStatus } from './control';
import type { GroupCoordinator } from './coordinator';
import { FATAL_JOIN_ERRORS, type KafkaErrorCode } from './errors';
import type { EventLog } from './eventLog';
import type { DataWaiter, PartitionLog } from './partitionLog';
import { partitionsMinus, TopicPartitionSet } from './topicPartitionSet';
import type { IsolationLevel } from './transactionIndex';
import type { HeartbeatResponse, JoinGroupResponse, OffsetCommitRequest, SyncGroupResponse } from './protocol';
import { errorMessage } from '../protocol/errors';

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

/** AbstractCoordinator.MemberState */
type MemberState = 'UNJOINED' | 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE' | 'STABLE';

interface OwnedPartition extends TopicPartition {
  log: PartitionLog;
  /** Next offset to fetch; -1 until the committed offset has been fetched. */
  position: number;
  lastCommitted: number;
}

const NO_GENERATION = -1;

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

export class SimulatedConsumer {
  readonly rebalanceProtocol: RebalanceProtocol;
  private status: 'running' | 'stopped' | 'crashed' = 'stopped';
  private failure: string | null = null;
  /** Bumped on every start/stop/crash so callbacks of an old incarnation are ignored. */
  private incarnation = 0;

  private memberId = '';
  /** The last member id the coordinator gave, kept for events after a reset. */
  private lastMemberId = '';
  private generationId = NO_GENERATION;
  private protocolName: string | null = null;
  private state: MemberState = 'UNJOINED';
  private rejoinNeeded = true;
  private rejoinReason = '';
  private joinInFlight = false;
  private owned: OwnedPartition[] = [];

  private pollTask: ScheduledTask | null = null;
  private blockedInPoll = false;
  /** Blocked in poll() with nothing to fetch: woken by new data, a rejoin request or the auto-commit deadline. */
  private idle = false;
  private readonly dataWaiter: DataWaiter = { onData: () => this.wakeFromIdle() };
  // Bound once: the poll and heartbeat tasks run hundreds of thousands of times. They need no
  // incarnation guard because halt() cancels both.
  private readonly runPoll = (): void => this.poll();
  private readonly runHeartbeatTick = (): void => this.heartbeatTick();
  private readonly onHeartbeatReply = (response: HeartbeatResponse): void => this.handleHeartbeatReply(response);
  private heartbeatSentIncarnation = 0;
  private heartbeatSentGeneration = NO_GENERATION;
  private heartbeatSentMemberId = '';
  private lastPollTime = 0;
  private pausedUntil = 0;
  private nextAutoCommit = 0;
  private fetchCursor = 0;

  private heartbeatEnabled = false;
  private heartbeatTask: ScheduledTask | null = null;
  private heartbeatWake = Infinity;
  private nextHeartbeatAt = 0;
  private heartbeatInFlight = false;

  constructor(
    readonly handle: string,
    readonly config: ConsumerConfig,
    private readonly env: ConsumerEnvironment,
  ) {
    this.rebalanceProtocol = commonRebalanceProtocol(config.assignors);
  }

  get currentStatus(): SimulatedConsumerStatus {
    if (this.status === 'running' && this.env.clock.now < this.pausedUntil) {
      return 'paused';
    }
    return this.status;
  }

  /** Why a fatal error stopped the consumer, if one did. */
  get failureReason(): string | null {
    return this.failure;
  }

  get currentMemberId(): string | null {
    return this.status === 'running' && this.memberId !== '' ? this.memberId : null;
  }

  get assignment(): TopicPartition[] {
    return this.owned.map(({ topic, partition }) => ({ topic, partition }));
  }

  get generation(): number {
    return this.generationId;
  }

  /** Next offset to fetch per owned partition (-1 until the committed offset has been fetched). */
  get positions(): Array<TopicPartition & { position: number }> {
    return this.owned.map(({ topic, partition, position }) => ({ topic, partition, position }));
  }

  /** consumer.groupMetadata(), as a transactional producer's sendOffsetsToTransaction carries it. */
  get groupMetadata(): { groupId: string; generationId: number; memberId: string; groupInstanceId: string | null } {
    return { groupId: this.config.groupId, generationId: this.generationId, memberId: this.memberId, groupInstanceId: this.config.groupInstanceId };
  }

  get isRunning(): boolean {
    return this.status === 'running';
  }

  /** Starts the process: a new client with no member id, as after a restart. */
  start(): void {
    if (this.status === 'running') {
      throw new Error(`Consumer ${this.handle} is already running`);
    }
    this.incarnation++;
    this.status = 'running';
    this.failure = null;
    this.memberId = '';
    this.generationId = NO_GENERATION;
    this.protocolName = null;
    this.state = 'UNJOINED';
    this.rejoinNeeded = true;
    this.rejoinReason = '';
    this.joinInFlight = false;
    this.owned = [];
    this.pausedUntil = 0;
    this.lastPollTime = this.env.clock.now;
    this.nextAutoCommit = this.env.clock.now + this.config.autoCommitIntervalMs;
    this.schedulePoll(0);
  }

  /** KafkaConsumer.close(): commit, revoke, and (dynamic members only) LeaveGroup. */
  close(): void {
    this.requireRunning('stop');
    this.maybeAutoCommitSync();
    if (this.owned.length > 0) {
      this.emitAssignmentChange(this.assignment, [], 'consumer is closing: partitions revoked');
    }
    this.maybeLeaveGroup('the consumer is being closed');
    this.halt('stopped');
  }

  /** The process dies: no commit, no LeaveGroup, heartbeats just stop. */
  crash(): void {
    this.requireRunning('crash');
    this.halt('crashed');
  }

  /**
   * Seeks every owned partition back to the group's committed offset, as an exactly-once application
   * does after aborting a transaction so the aborted input is processed again.
   */
  seekToCommitted(): void {
    this.requireRunning('seek');
    for (const p of this.owned) {
      p.position = -1;
    }
    this.fetchCommittedPositions(this.assignment);
  }

  /** The poll loop stalls (slow processing) for `durationMs`. */
  pausePolling(durationMs: number): void {
    this.requireRunning('pause');
    if (!(durationMs > 0)) {
      throw new Error(`Pause duration must be a positive number of milliseconds, got ${durationMs}`);
    }
    this.pausedUntil = Math.max(this.pausedUntil, this.env.clock.now + durationMs);
    if (this.idle) {
      // The last (empty) poll returns now and the loop gets stuck in processing.
      this.idle = false;
      this.blockedInPoll = false;
      this.lastPollTime = this.env.clock.now;
      this.schedulePoll(durationMs);
    }
  }

  private requireRunning(action: string): void {
    if (this.status !== 'running') {
      throw new Error(`Cannot ${action} consumer ${this.handle}: it is ${this.failure ? `stopped (${this.failure})` : this.status}`);
    }
  }

  private halt(status: 'stopped' | 'crashed'): void {
    this.incarnation++;
    this.status = status;
    this.idle = false;
    this.blockedInPoll = false;
    this.env.clock.cancel(this.pollTask);
    this.env.clock.cancel(this.heartbeatTask);
    this.pollTask = null;
    this.heartbeatTask = null;
    this.heartbeatWake = Infinity;
    this.heartbeatEnabled = false;
    this.heartbeatInFlight = false;
    this.owned = [];
    this.state = 'UNJOINED';
    this.memberId = '';
    this.generationId = NO_GENERATION;
  }

  private fail(reason: string): void {
    this.failure = reason;
    this.emit('member-left', { cause: `consumer stopped by a fatal error: ${reason}` });
    this.halt('stopped');
  }

  /** Wraps a callback so it is dropped if the consumer stopped or restarted meanwhile. */
  private guard<T>(callback: (value: T) => void): (value: T) => void {
    const incarnation = this.incarnation;
    return (value: T) => {
      if (this.incarnation === incarnation) {
        callback(value);
      }
    };
  }

  // ---------------------------------------------------------------- poll loop

  private schedulePoll(delayMs: number): void {
    this.env.clock.cancel(this.pollTask);
    this.pollTask = this.env.clock.schedule(delayMs, this.runPoll);
  }

  private poll(): void {
    this.pollTask = null;
    this.idle = false;
    const now = this.env.clock.now;
    if (now < this.pausedUntil) {
      this.schedulePoll(this.pausedUntil - now);
      return;
    }
    this.lastPollTime = now;
    if (this.rejoinNeeded || this.state !== 'STABLE') {
      // poll() blocks in ensureActiveGroup; the user's loop keeps calling it, so the poll timer stays fresh.
      this.blockedInPoll = true;
      if (!this.joinInFlight) {
        this.joinGroup();
      }
      return;
    }
    this.blockedInPoll = false;
    if (this.config.enableAutoCommit && now >= this.nextAutoCommit) {
      this.nextAutoCommit = now + this.config.autoCommitIntervalMs;
      this.commitPositions();
    }
    if (this.fetch() > 0) {
      this.blockedInPoll = false;
      this.schedulePoll(Math.max(1, this.config.processingTimeMs));
      return;
    }
    // Nothing to fetch: the user's loop keeps calling poll(), which changes nothing until data arrives,
    // so sleep until then (or until auto-commit is due) instead of waking every fetch.max.wait.ms.
    this.idle = true;
    this.blockedInPoll = true;
    for (const p of this.owned) {
      p.log.waitForData(this.dataWaiter);
    }
    if (this.config.enableAutoCommit && this.owned.some((p) => p.position >= 0 && p.position !== p.lastCommitted)) {
      this.schedulePoll(Math.max(this.config.fetchMaxWaitMs, this.nextAutoCommit - now));
    } else {
      this.env.clock.cancel(this.pollTask);
      this.pollTask = null;
    }
  }

  private wakeFromIdle(): void {
    if (this.idle && this.status === 'running') {
      this.idle = false;
      this.schedulePoll(0);
    }
  }

  /**
   * Takes up to max.poll.records from the owned partitions, round-robin; returns how many. Control
   * markers (and, read_committed, aborted batches) move the position without counting as records.
   */
  private fetch(): number {
    const owned = this.owned;
    const n = owned.length;
    let budget = this.config.maxPollRecords;
    let taken = 0;
    for (let i = 0; i < n && budget > 0; i++) {
      const p = owned[(this.fetchCursor + i) % n];
      if (p.position < 0) {
        continue;
      }
      if (p.position < p.log.logStartOffset) {
        p.position = this.resetPosition(p.log);
      }
      const read = p.log.read(p.position, budget, this.config.isolationLevel);
      p.position = read.nextPosition;
      budget -= read.records;
      taken += read.records;
    }
    if (n > 0) {
      this.fetchCursor = (this.fetchCursor + 1) % n;
    }
    return taken;
  }

  /** ListOffsets(latest) answers the LSO to a read_committed consumer, the HW otherwise. */
  private resetPosition(log: PartitionLog): number {
    if (this.config.autoOffsetReset === 'earliest') {
      return log.logStartOffset;
    }
    return this.config.isolationLevel === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  }

  // ---------------------------------------------------------------- heartbeat thread

  private enableHeartbeat(): void {
    this.heartbeatEnabled = true;
    this.nextHeartbeatAt = this.env.clock.now + this.config.heartbeatIntervalMs;
    this.armHeartbeat();
  }

  private disableHeartbeat(): void {
    this.heartbeatEnabled = false;
  }

  /** Wakes at the next heartbeat or at the poll deadline, whichever comes first. */
  private armHeartbeat(): void {
    const pollDeadline = this.lastPollTime + this.config.maxPollIntervalMs;
    const wake = Math.min(this.nextHeartbeatAt, pollDeadline);
    if (this.heartbeatTask && !this.heartbeatTask.done && this.heartbeatWake <= wake) {
      return;
    }
    this.env.clock.cancel(this.heartbeatTask);
    this.heartbeatWake = wake;
    this.heartbeatTask = this.env.clock.scheduleAt(wake, this.runHeartbeatTick);
  }

  private heartbeatTick(): void {
    this.heartbeatTask = null;
    this.heartbeatWake = Infinity;
    if (!this.heartbeatEnabled || this.state === 'UNJOINED' || this.state === 'PREPARING_REBALANCE') {
      this.heartbeatEnabled = false;
      return;
    }
    const now = this.env.clock.now;
    if (this.blockedInPoll) {
      this.lastPollTime = now;
    }
    if (now - this.lastPollTime >= this.config.maxPollIntervalMs) {
      this.handlePollTimeout(now);
      return;
    }
    if (now >= this.nextHeartbeatAt && !this.heartbeatInFlight) {
      this.sendHeartbeat();
      this.nextHeartbeatAt = now + this.config.heartbeatIntervalMs;
    }
    this.armHeartbeat();
  }

  private sendHeartbeat(): void {
    this.heartbeatInFlight = true;
    this.heartbeatSentIncarnation = this.incarnation;
    this.heartbeatSentGeneration = this.generationId;
    this.heartbeatSentMemberId = this.memberId;
    this.env.coordinator.heartbeat(
      { groupId: this.config.groupId, generationId: this.generationId, memberId: this.memberId, groupInstanceId: this.config.groupInstanceId },
      this.onHeartbeatReply,
    );
  }

  private handleHeartbeatReply(response: HeartbeatResponse): void {
    if (this.heartbeatSentIncarnation !== this.incarnation) {
      return;
    }
    this.heartbeatInFlight = false;
    this.onHeartbeatResponse(response.errorCode, this.heartbeatSentGeneration, this.heartbeatSentMemberId);
  }

  private onHeartbeatResponse(error: KafkaErrorCode, sentGeneration: number, sentMemberId: string): void {
    switch (error) {
      case 'NONE':
        return;
      case 'REBALANCE_IN_PROGRESS':
        if (this.state === 'STABLE') {
          this.requestRejoin('group is already rebalancing');
        }
        return;
      case 'FENCED_INSTANCE_ID':
        this.fail('FENCED_INSTANCE_ID: another consumer uses the same group.instance.id');
        return;
      case 'ILLEGAL_GENERATION':
      case 'UNKNOWN_MEMBER_ID':
        if (sentGeneration === this.generationId && sentMemberId === this.memberId) {
          this.resetStateOnResponseError(error);
        }
        return;
      default:
        return;
    }
  }

  private handlePollTimeout(now: number): void {
    this.emit('poll-timeout', {
      cause: `consumer poll timeout has expired: no poll() for ${now - this.lastPollTime} ms (max.poll.interval.ms=${this.config.maxPollIntervalMs})`,
    });
    this.maybeLeaveGroup('consumer poll timeout has expired.');
  }

  /** Only dynamic members send LeaveGroup (KIP-345); both reset their generation. */
  private maybeLeaveGroup(reason: string): void {
    if (this.config.groupInstanceId === null && this.state !== 'UNJOINED' && this.memberId !== '') {
      this.env.coordinator.leaveGroup(
        { groupId: this.config.groupId, members: [{ memberId: this.memberId, groupInstanceId: null, reason }] },
        () => undefined,
      );
    }
    this.resetGeneration(true);
    this.requestRejoin(reason);
  }

  // ---------------------------------------------------------------- join / sync

  private requestRejoin(reason: string): void {
    this.rejoinNeeded = true;
    this.rejoinReason = reason;
    this.wakeFromIdle();
  }

  private resetGeneration(resetMemberId: boolean): void {
    this.generationId = NO_GENERATION;
    this.protocolName = null;
    if (resetMemberId) {
      this.memberId = '';
    }
    this.state = 'UNJOINED';
    this.disableHeartbeat();
  }

  private resetStateOnResponseError(error: KafkaErrorCode): void {
    this.resetGeneration(error !== 'ILLEGAL_GENERATION');
    this.requestRejoin(`rebalance failed due to ${exceptionName(error)}`);
  }

  /** ConsumerCoordinator.onJoinPrepare: commit, then revoke (eager: everything) or lose (after a reset). */
  private onJoinPrepare(): void {
    this.maybeAutoCommitSync();
    if (this.owned.length === 0) {
      return;
    }
    if (this.generationId === NO_GENERATION || this.memberId === '') {
      this.emitAssignmentChange(this.assignment, [], 'partitions lost: the generation was reset');
      this.owned = [];
    } else if (this.rebalanceProtocol === 'EAGER') {
      this.emitAssignmentChange(this.assignment, [], 'eager rebalance: every partition is revoked before rejoining');
      this.owned = [];
    } else {
      const subscribed = new Set(this.config.topics);
      const revoked = this.owned.filter((p) => !subscribed.has(p.topic));
      if (revoked.length > 0) {
        this.emitAssignmentChange(revoked, [], 'partitions of unsubscribed topics revoked');
        this.owned = this.owned.filter((p) => subscribed.has(p.topic));
      }
    }
  }

  private joinGroup(): void {
    this.onJoinPrepare();
    this.joinInFlight = true;
    this.rejoinNeeded = false;
    this.state = 'PREPARING_REBALANCE';
    this.disableHeartbeat();
    const owned = this.assignment;
    this.env.coordinator.joinGroup(
      {
        groupId: this.config.groupId,
        sessionTimeoutMs: this.config.sessionTimeoutMs,
        rebalanceTimeoutMs: this.config.maxPollIntervalMs,
        memberId: this.memberId,
        groupInstanceId: this.config.groupInstanceId,
        protocolType: 'consumer',
        protocols: this.config.assignors.map((name) => ({
          name,
          metadata: { topics: this.config.topics.slice(), ownedPartitions: owned, generationId: this.generationId },
        })),
        reason: this.rejoinReason,
        clientId: this.config.clientId,
        clientHost: this.config.clientHost,
      },
      this.guard((response: JoinGroupResponse) => this.onJoinResponse(response)),
    );
  }

  private onJoinResponse(response: JoinGroupResponse): void {
    const error = response.errorCode;
    if (error === 'NONE') {
      this.memberId = response.memberId;
      this.lastMemberId = response.memberId;
      this.generationId = response.generationId;
      this.protocolName = response.protocolName;
      this.rejoinReason = '';
      this.state = 'COMPLETING_REBALANCE';
      this.enableHeartbeat();
      const isLeader = response.leader === this.memberId;
      let assignments: Array<{ memberId: string; assignment: { partitions: TopicPartition[] } }> = [];
      if (isLeader && !response.skipAssignment) {
        try {
          assignments = this.runAssignor(response);
        } catch (e) {
          this.fail(`assignor ${response.protocolName} failed: ${errorMessage(e)}`);
          return;
        }
      }
      this.env.coordinator.syncGroup(
        {
          groupId: this.config.groupId,
          generationId: this.generationId,
          memberId: this.memberId,
          groupInstanceId: this.config.groupInstanceId,
          protocolType: 'consumer',
          protocolName: this.protocolName,
          assignments,
        },
        this.guard((sync: SyncGroupResponse) => this.onSyncResponse(sync)),
      );
      return;
    }
    this.joinInFlight = false;
    if (FATAL_JOIN_ERRORS.has(error)) {
      this.fail(`JoinGroup failed with ${error}`);
      return;
    }
    switch (error) {
      case 'MEMBER_ID_REQUIRED':
        this.memberId = response.memberId;
        this.requestRejoin(`need to re-join with the given member-id: ${response.memberId}`);
        break;
      case 'UNKNOWN_MEMBER_ID':
      case 'ILLEGAL_GENERATION':
        this.resetStateOnResponseError(error);
        break;
      default:
        this.requestRejoin(`rebalance failed due to ${exceptionName(error)}`);
    }
    this.retryJoin(error === 'MEMBER_ID_REQUIRED' || error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION' || error === 'REBALANCE_IN_PROGRESS' ? 0 : this.config.retryBackoffMs);
  }

  /** joinGroupIfNeeded loops inside poll(): the retry happens without waiting for the next poll. */
  private retryJoin(delayMs: number): void {
    this.schedulePoll(delayMs);
  }

  private runAssignor(response: JoinGroupResponse): Array<{ memberId: string; assignment: { partitions: TopicPartition[] } }> {
    const protocol = response.protocolName as AssignorName;
    const partitionsPerTopic: Record<string, number> = {};
    for (const member of response.members) {
      for (const topic of member.metadata.topics) {
        const count = this.env.cluster.partitionCount(topic);
        if (count > 0) {
          partitionsPerTopic[topic] = count;
        }
      }
    }
    const input: AssignInput = {
      partitionsPerTopic,
      members: response.members.map((m) => ({
        memberId: m.memberId,
        ...(m.groupInstanceId !== null ? { groupInstanceId: m.groupInstanceId } : {}),
        topics: m.metadata.topics.filter((t) => partitionsPerTopic[t] !== undefined),
        owned: m.metadata.ownedPartitions,
        generation: m.metadata.generationId,
      })),
    };
    const result = assign(protocol, input);
    return response.members.map((m) => ({ memberId: m.memberId, assignment: { partitions: result[m.memberId] ?? [] } }));
  }

  private onSyncResponse(response: SyncGroupResponse): void {
    this.joinInFlight = false;
    const error = response.errorCode;
    if (error === 'NONE') {
      this.state = 'STABLE';
      this.onJoinComplete(response.assignment.partitions);
      this.blockedInPoll = false;
      this.lastPollTime = this.env.clock.now;
      this.armHeartbeat();
      this.schedulePoll(0);
      return;
    }
    if (error === 'FENCED_INSTANCE_ID') {
      this.fail('SyncGroup failed with FENCED_INSTANCE_ID');
      return;
    }
    if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
      this.resetStateOnResponseError(error);
    } else {
      this.state = 'UNJOINED';
      this.requestRejoin(`rebalance failed due to ${exceptionName(error)}`);
    }
    this.retryJoin(error === 'COORDINATOR_NOT_AVAILABLE' ? this.config.retryBackoffMs : 0);
  }

  /** ConsumerCoordinator.onJoinComplete: apply the assignment; cooperative members revoke owned − assigned and rejoin. */
  private onJoinComplete(assigned: TopicPartition[]): void {
    const revokedOwned = partitionsMinus(this.owned, assigned);
    const revoked = revokedOwned.map(({ topic, partition }) => ({ topic, partition }));
    const added = partitionsMinus(assigned, this.owned);
    if (revokedOwned.length > 0) {
      this.commitPartitions(revokedOwned);
      const gone = new TopicPartitionSet(revokedOwned);
      this.owned = this.owned.filter((p) => !gone.has(p));
    }
    for (const tp of added) {
      const log = this.env.cluster.partition(tp.topic, tp.partition);
      if (log) {
        this.owned.push({ topic: tp.topic, partition: tp.partition, log, position: -1, lastCommitted: -1 });
      }
    }
    if (revoked.length > 0 || added.length > 0) {
      const cause =
        this.rebalanceProtocol === 'COOPERATIVE' && revoked.length > 0
          ? 'cooperative rebalance: owned partitions not in the new assignment are revoked'
          : `assignment received for generation ${this.generationId}`;
      this.emitAssignmentChange(revoked, added, cause);
    }
    this.fetchCommittedPositions(added);
    const subscribed = new Set(this.config.topics);
    if (assigned.some((tp) => !subscribed.has(tp.topic))) {
      this.requestRejoin('received assignment does not match the current subscription');
    } else if (this.rebalanceProtocol === 'COOPERATIVE' && revoked.length > 0) {
      this.requestRejoin('need to revoke partitions and re-join');
    }
  }

  private fetchCommittedPositions(partitions: TopicPartition[]): void {
    if (partitions.length === 0) {
      return;
    }
    this.env.coordinator.offsetFetch(
      { groupId: this.config.groupId, topics: groupByTopic(partitions, (tp) => tp.partition), requireStable: true },
      this.guard((response) => {
        const owned = new Map<string, Map<number, OwnedPartition>>();
        for (const p of this.owned) {
          let byPartition = owned.get(p.topic);
          if (!byPartition) {
            byPartition = new Map();
            owned.set(p.topic, byPartition);
          }
          byPartition.set(p.partition, p);
        }
        const unstable: TopicPartition[] = [];
        for (const topic of response.topics) {
          for (const p of topic.partitions) {
            const target = owned.get(topic.name)?.get(p.partition);
            if (target && p.errorCode === 'UNSTABLE_OFFSET_COMMIT') {
              // A transaction's offsets await their marker: retry after retry.backoff.ms.
              unstable.push({ topic: topic.name, partition: p.partition });
            } else if (target && target.position < 0) {
              target.position = p.committedOffset >= 0 ? p.committedOffset : this.resetPosition(target.log);
              target.lastCommitted = p.committedOffset;
            }
          }
        }
        if (unstable.length > 0) {
          this.env.clock.schedule(this.config.retryBackoffMs, this.guard<void>(() => this.fetchCommittedPositions(unstable.filter((tp) => this.ownsUnpositioned(tp)))));
        }
        this.wakeFromIdle();
      }),
    );
  }

  private ownsUnpositioned(tp: TopicPartition): boolean {
    return this.owned.some((p) => p.topic === tp.topic && p.partition === tp.partition && p.position < 0);
  }

  // ---------------------------------------------------------------- commits

  private maybeAutoCommitSync(): void {
    if (this.config.enableAutoCommit && this.state === 'STABLE') {
      this.commitPositions();
    }
  }

  private commitPositions(): void {
    this.commitPartitions(this.owned);
  }

  private commitPartitions(partitions: OwnedPartition[]): void {
    const changed = partitions.filter((p) => p.position >= 0 && p.position !== p.lastCommitted);
    if (changed.length === 0 || this.memberId === '') {
      return;
    }
    const request: OffsetCommitRequest = {
      groupId: this.config.groupId,
      generationId: this.generationId,
      memberId: this.memberId,
      groupInstanceId: this.config.groupInstanceId,
      topics: groupByTopic(changed, (p) => ({ partition: p.partition, offset: p.position, metadata: '' })),
    };
    const sent = changed.map((p) => [p, p.position] as const);
    this.env.coordinator.offsetCommit(
      request,
      this.guard((response) => {
        const error = response.topics[0]?.partitions[0]?.errorCode ?? 'NONE';
        if (error === 'NONE') {
          for (const [p, offset] of sent) {
            p.lastCommitted = offset;
          }
        } else if (error === 'REBALANCE_IN_PROGRESS') {
          this.requestRejoin('offset commit failed since group is already rebalancing');
        } else if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
          this.resetStateOnResponseError(error);
        } else if (error === 'FENCED_INSTANCE_ID') {
          this.fail('OffsetCommit failed with FENCED_INSTANCE_ID');
        }
      }),
    );
  }

  // ---------------------------------------------------------------- events

  private emitAssignmentChange(revoked: TopicPartition[], assigned: TopicPartition[], cause: string): void {
    this.emit('assignment-changed', {
      cause,
      assignments: [{ memberId: this.memberId || this.lastMemberId, groupInstanceId: this.config.groupInstanceId, revoked, assigned }],
    });
  }

  private emit(kind: 'poll-timeout' | 'assignment-changed' | 'member-left', details: { cause: string; assignments?: RebalanceEvent['assignments'] }): void {
    const event: RebalanceEvent = {
      groupId: this.config.groupId,
      time: this.env.clock.now,
      kind,
      generation: this.generationId,
      memberId: this.memberId || this.lastMemberId,
      groupInstanceId: this.config.groupInstanceId,
      clientId: this.config.clientId,
      cause: details.cause,
    };
    if (details.assignments) {
      event.assignments = details.assignments;
    }
    this.env.events.emit(event);
  }
}

function groupByTopic<T extends TopicPartition, V>(partitions: readonly T[], value: (tp: T) => V): Array<{ name: string; partitions: V[] }> {
  const byTopic = new Map<string, V[]>();
  for (const tp of partitions) {
    const list = byTopic.get(tp.topic);
    if (list) {
      list.push(value(tp));
    } else {
      byTopic.set(tp.topic, [value(tp)]);
    }
  }
  return [...byTopic].map(([name, values]) => ({ name, partitions: values }));
}

/** The Java exception class Kafka's client names in its rejoin reasons. */
function exceptionName(error: KafkaErrorCode): string {
  const words = error.toLowerCase().split('_');
  return `${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}Exception`;
}
