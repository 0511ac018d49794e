/**
 * A simulated KafkaConsumer: the process (start, close, crash, pause) and its poll loop. Its parts
 * follow the Java client's. The group protocol is picked by group.protocol, as KafkaConsumer picks
 * ClassicKafkaConsumer or AsyncKafkaConsumer: the classic one in consumerClassicClient.ts
 * (consumerCoordinator.ts, the heartbeat thread in heartbeatThread.ts with Kafka's Heartbeat timers in
 * heartbeat.ts), KIP-848's in consumerProtocolClient.ts (consumerMembershipManager.ts,
 * heartbeatRequestManager.ts, consumerHeartbeatMessages.ts). The owned partitions and their fetch are in ownedPartitions.ts,
 * commits and committed-offset fetches in consumerOffsets.ts. The poll loop advances positions
 * arithmetically: no per-record work.
 */
import type { RebalanceEvent, TopicPartition } from '../../../model/types';
import type { ScheduledTask } from '../../common/clock';
import type { SimulatedConsumerStatus } from '../../common/control';
import { ClassicGroupClient } from './internals/consumerClassicClient';
import {
  commonRebalanceProtocol, type ConsumerConfig, type ConsumerEnvironment, type ConsumerEventKind, type ConsumerHost, type GroupProtocolClient,
} from './consumerConfig';
import { ConsumerOffsets } from './internals/consumerOffsets';
import { ConsumerProtocolClient } from './internals/consumerProtocolClient';
import { OwnedPartitions } from './internals/ownedPartitions';
import type { DataWaiter } from '../../log/partitionLog';

export { CONSUMER_DEFAULTS, commonRebalanceProtocol, type ConsumerConfig, type ConsumerEnvironment } from './consumerConfig';

export class SimulatedConsumer implements ConsumerHost {
  private status: 'running' | 'stopped' | 'crashed' = 'stopped';
  private failure: string | null = null;
  /** Bumped on every start/stop/crash so callbacks of an old incarnation are ignored. */
  incarnation = 0;

  private readonly owned: OwnedPartitions;
  /** The group protocol's client side: classic or KIP-848's consumer protocol. */
  private readonly group: GroupProtocolClient;
  private readonly offsets: ConsumerOffsets;

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
    this.owned = new OwnedPartitions(config, env.cluster);
    const group = config.groupProtocol !== 'classic'
      ? new ConsumerProtocolClient(this, this.owned)
      : new ClassicGroupClient(this, this.owned, commonRebalanceProtocol(config.assignors));
    this.group = group;
    this.offsets = new ConsumerOffsets(this, this.owned, group);
    group.connect(this.offsets);
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
    return this.status === 'running' && this.group.memberId !== '' ? this.group.memberId : null;
  }

  get assignment(): TopicPartition[] {
    return this.owned.assignment;
  }

  /** The classic generation, or the KIP-848 member epoch. */
  get generation(): number {
    return this.group.generationId;
  }

  /** The consumer-protocol member's MemberState (KIP-848), or null for a classic consumer. */
  get membershipState(): string | null {
    return this.group instanceof ConsumerProtocolClient ? this.group.state : null;
  }

  /** Next offset to fetch per owned partition (-1 until the committed offset has been fetched). */
  get positions(): Array<TopicPartition & { position: number }> {
    return this.owned.positions;
  }

  /** consumer.groupMetadata(), as a transactional producer's sendOffsetsToTransaction carries it. */
  get groupMetadata(): { groupId: string; generationId: number; memberId: string; groupInstanceId: string | null } {
    return { groupId: this.config.groupId, generationId: this.group.generationId, memberId: this.group.memberId, groupInstanceId: this.config.groupInstanceId };
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
    this.owned.clear();
    this.pausedUntil = 0;
    this.group.start(this.env.clock.now);
    this.nextAutoCommit = this.env.clock.now + this.config.autoCommitIntervalMs;
    this.schedulePoll(0);
  }

  /** KafkaConsumer.close(): commit, revoke, and leave (classic: dynamic members only; KIP-848: a static member with epoch -2). */
  close(): void {
    this.requireRunning('stop');
    this.group.close();
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
      this.group.onPoll(this.env.clock.now);
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
    this.owned.clear();
    this.group.halt();
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
    this.group.onPoll(now);
    if (this.group.needsJoin()) {
      // poll() blocks in ensureActiveGroup; the user's loop keeps calling it, so the poll timer stays fresh.
      this.blockedInPoll = true;
      this.group.maybeJoinGroup();
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
    this.group.onJoinReturned(this.env.clock.now);
    this.schedulePoll(0);
  }

  onPollTimeout(now: number): void {
    const lastPoll = this.group.lastPollTime();
    this.emit('poll-timeout', {
      cause: `consumer poll timeout has expired: no poll() for ${now - lastPoll} ms (max.poll.interval.ms=${this.config.maxPollIntervalMs})`,
    });
    this.group.leaveOnPollTimeout();
  }

  // ---------------------------------------------------------------- events

  emitAssignmentChange(revoked: TopicPartition[], assigned: TopicPartition[], cause: string): void {
    this.emit('assignment-changed', {
      cause,
      assignments: [{ memberId: this.group.memberId || this.group.lastMemberId, groupInstanceId: this.config.groupInstanceId, revoked, assigned }],
    });
  }

  emit(kind: ConsumerEventKind, details: { cause: string; assignments?: RebalanceEvent['assignments'] }): void {
    const event: RebalanceEvent = {
      groupId: this.config.groupId,
      time: this.env.clock.now,
      kind,
      generation: this.group.generationId,
      memberId: this.group.memberId || this.group.lastMemberId,
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
