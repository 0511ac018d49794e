/**
 * A simulated classic KafkaConsumer: the process (start, close, crash, pause) and its poll loop.
 * Its parts follow the Java client's: the group protocol in consumerCoordinator.ts, the heartbeat
 * thread in heartbeatThread.ts with Kafka's Heartbeat timers in heartbeat.ts, the owned partitions
 * and their fetch in ownedPartitions.ts, commits and committed-offset fetches in consumerOffsets.ts.
 * The poll loop advances positions arithmetically: no per-record work.
 */
import type { RebalanceEvent, TopicPartition } from '../model/types';
import type { RebalanceProtocol } from './assignors/index';
import type { ScheduledTask } from './clock';
import type { SimulatedConsumerStatus } from './control';
import { commonRebalanceProtocol, type ConsumerConfig, type ConsumerEnvironment, type ConsumerEventKind, type ConsumerHost } from './consumerConfig';
import { ConsumerCoordinator } from './consumerCoordinator';
import { ConsumerOffsets } from './consumerOffsets';
import { HeartbeatThread } from './heartbeatThread';
import { OwnedPartitions } from './ownedPartitions';
import type { DataWaiter } from './partitionLog';

export { CONSUMER_DEFAULTS, commonRebalanceProtocol, type ConsumerConfig, type ConsumerEnvironment } from './consumerConfig';

export class SimulatedConsumer implements ConsumerHost {
  readonly rebalanceProtocol: RebalanceProtocol;
  private status: 'running' | 'stopped' | 'crashed' = 'stopped';
  private failure: string | null = null;
  /** Bumped on every start/stop/crash so callbacks of an old incarnation are ignored. */
  incarnation = 0;

  private readonly owned: OwnedPartitions;
  private readonly coordinator: ConsumerCoordinator;
  private readonly offsets: ConsumerOffsets;
  private readonly heartbeatThread: HeartbeatThread;

  private pollTask: ScheduledTask | null = null;
  blockedInPoll = false;
  /** Blocked in poll() with nothing to fetch: woken by new data, a rejoin request or the auto-commit deadline. */
  private idle = false;
  private readonly dataWaiter: DataWaiter = { onData: () => this.wakeFromIdle() };
  // Bound once: the poll task runs hundreds of thousands of times. It needs no incarnation guard
  // because halt() cancels it.
  private readonly runPoll = (): void => this.poll();
  private pausedUntil = 0;
  private nextAutoCommit = 0;

  constructor(
    readonly handle: string,
    readonly config: ConsumerConfig,
    readonly env: ConsumerEnvironment,
  ) {
    this.rebalanceProtocol = commonRebalanceProtocol(config.assignors);
    this.owned = new OwnedPartitions(config, env.cluster);
    this.coordinator = new ConsumerCoordinator(this, this.owned, this.rebalanceProtocol);
    this.offsets = new ConsumerOffsets(this, this.owned, this.coordinator);
    this.heartbeatThread = new HeartbeatThread(this, this.coordinator);
    this.coordinator.connect(this.offsets, this.heartbeatThread);
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
    return this.status === 'running' && this.coordinator.memberId !== '' ? this.coordinator.memberId : null;
  }

  get assignment(): TopicPartition[] {
    return this.owned.assignment;
  }

  get generation(): number {
    return this.coordinator.generationId;
  }

  /** Next offset to fetch per owned partition (-1 until the committed offset has been fetched). */
  get positions(): Array<TopicPartition & { position: number }> {
    return this.owned.positions;
  }

  /** consumer.groupMetadata(), as a transactional producer's sendOffsetsToTransaction carries it. */
  get groupMetadata(): { groupId: string; generationId: number; memberId: string; groupInstanceId: string | null } {
    return { groupId: this.config.groupId, generationId: this.coordinator.generationId, memberId: this.coordinator.memberId, groupInstanceId: this.config.groupInstanceId };
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
    this.coordinator.start();
    this.owned.clear();
    this.pausedUntil = 0;
    this.heartbeatThread.restart(this.env.clock.now);
    this.nextAutoCommit = this.env.clock.now + this.config.autoCommitIntervalMs;
    this.schedulePoll(0);
  }

  /** KafkaConsumer.close(): commit, revoke, and (dynamic members only) LeaveGroup. */
  close(): void {
    this.requireRunning('stop');
    this.offsets.maybeAutoCommitSync();
    if (this.owned.size > 0) {
      this.emitAssignmentChange(this.assignment, [], 'consumer is closing: partitions revoked');
    }
    this.coordinator.maybeLeaveGroup('the consumer is being closed');
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
    for (const p of this.owned.list) {
      p.position = -1;
    }
    this.offsets.fetchCommittedPositions(this.assignment);
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
      this.heartbeatThread.heartbeat.poll(this.env.clock.now);
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
    this.pollTask = null;
    this.heartbeatThread.stop();
    this.owned.clear();
    this.coordinator.halt();
  }

  fail(reason: string): void {
    this.failure = reason;
    this.emit('member-left', { cause: `consumer stopped by a fatal error: ${reason}` });
    this.halt('stopped');
  }

  guard<T>(callback: (value: T) => void): (value: T) => void {
    const incarnation = this.incarnation;
    return (value: T) => {
      if (this.incarnation === incarnation) {
        callback(value);
      }
    };
  }

  // ---------------------------------------------------------------- poll loop

  schedulePoll(delayMs: number): void {
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
    this.heartbeatThread.heartbeat.poll(now);
    if (this.coordinator.needsJoin()) {
      // poll() blocks in ensureActiveGroup; the user's loop keeps calling it, so the poll timer stays fresh.
      this.blockedInPoll = true;
      this.coordinator.maybeJoinGroup();
      return;
    }
    this.blockedInPoll = false;
    if (this.config.enableAutoCommit && now >= this.nextAutoCommit) {
      this.nextAutoCommit = now + this.config.autoCommitIntervalMs;
      this.offsets.commitPositions();
    }
    if (this.owned.fetch() > 0) {
      this.blockedInPoll = false;
      this.schedulePoll(Math.max(1, this.config.processingTimeMs));
      return;
    }
    // Nothing to fetch: the user's loop keeps calling poll(), which changes nothing until data arrives,
    // so sleep until then (or until auto-commit is due) instead of waking every fetch.max.wait.ms.
    this.idle = true;
    this.blockedInPoll = true;
    for (const p of this.owned.list) {
      p.log.waitForData(this.dataWaiter);
    }
    if (this.config.enableAutoCommit && this.owned.hasUncommittedPositions()) {
      this.schedulePoll(Math.max(this.config.fetchMaxWaitMs, this.nextAutoCommit - now));
    } else {
      this.env.clock.cancel(this.pollTask);
      this.pollTask = null;
    }
  }

  wakeFromIdle(): void {
    if (this.idle && this.status === 'running') {
      this.idle = false;
      this.schedulePoll(0);
    }
  }

  resumePolling(): void {
    this.blockedInPoll = false;
    this.heartbeatThread.heartbeat.poll(this.env.clock.now);
    this.heartbeatThread.arm();
    this.schedulePoll(0);
  }

  onPollTimeout(now: number): void {
    const lastPoll = this.heartbeatThread.heartbeat.lastPollTime();
    this.emit('poll-timeout', {
      cause: `consumer poll timeout has expired: no poll() for ${now - lastPoll} ms (max.poll.interval.ms=${this.config.maxPollIntervalMs})`,
    });
    this.coordinator.maybeLeaveGroup('consumer poll timeout has expired.');
  }

  // ---------------------------------------------------------------- events

  emitAssignmentChange(revoked: TopicPartition[], assigned: TopicPartition[], cause: string): void {
    this.emit('assignment-changed', {
      cause,
      assignments: [{ memberId: this.coordinator.memberId || this.coordinator.lastMemberId, groupInstanceId: this.config.groupInstanceId, revoked, assigned }],
    });
  }

  emit(kind: ConsumerEventKind, details: { cause: string; assignments?: RebalanceEvent['assignments'] }): void {
    const event: RebalanceEvent = {
      groupId: this.config.groupId,
      time: this.env.clock.now,
      kind,
      generation: this.coordinator.generationId,
      memberId: this.coordinator.memberId || this.coordinator.lastMemberId,
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
