/**
 * The consumer's heartbeat thread (AbstractCoordinator.HeartbeatThread): separate from the poll
 * loop, it sends heartbeats while the member is in a generation and leaves the group when poll()
 * has not been called within max.poll.interval.ms. In virtual time it is one task, woken at the next
 * heartbeat or at the poll deadline, whichever comes first.
 */
import type { ScheduledTask } from '../../../common/clock';
import type { ConsumerHost } from '../consumerConfig';
import type { KafkaErrorCode } from '../../../common/errors';
import { Heartbeat } from './heartbeat';
import type { HeartbeatResponse } from '../../../common/requests';

/**
 * What the heartbeat thread reads of the classic membership it keeps alive and tells it of each reply
 * (Kafka's AbstractCoordinator, whose inner HeartbeatThread this is); the ConsumerCoordinator implements it.
 */
export interface HeartbeatMembership {
  readonly generationId: number;
  readonly memberId: string;
  canHeartbeat(): boolean;
  onHeartbeatResponse(error: KafkaErrorCode, sentGeneration: number, sentMemberId: string): void;
}

export class HeartbeatThread {
  heartbeat: Heartbeat;
  private enabled = false;
  private task: ScheduledTask | null = null;
  private wake = Infinity;
  private sentIncarnation = 0;
  private sentGeneration = -1;
  private sentMemberId = '';
  // Bound once: the heartbeat task runs hundreds of thousands of times. It needs no incarnation
  // guard because stop() cancels it.
  private readonly runTick = (): void => this.tick();
  private readonly onReply = (response: HeartbeatResponse): void => this.handleReply(response);

  constructor(
    private readonly host: ConsumerHost,
    private readonly coordinator: HeartbeatMembership,
  ) {
    this.heartbeat = new Heartbeat(host.config, host.env.clock.now);
  }

  /** A new incarnation of the consumer: fresh timers. */
  restart(now: number): void {
    this.heartbeat = new Heartbeat(this.host.config, now);
  }

  enable(): void {
    this.enabled = true;
    this.heartbeat.resetHeartbeatTimer(this.host.env.clock.now);
    this.arm();
  }

  disable(): void {
    this.enabled = false;
  }

  /** The consumer stops: no task, nothing in flight. */
  stop(): void {
    this.host.env.clock.cancel(this.task);
    this.task = null;
    this.wake = Infinity;
    this.enabled = false;
  }

  /** Wakes at the next heartbeat or at the poll deadline, whichever comes first. */
  arm(): void {
    const wake = Math.min(this.heartbeat.nextHeartbeatTime(), this.heartbeat.pollDeadline());
    if (this.task && !this.task.done && this.wake <= wake) {
      return;
    }
    this.host.env.clock.cancel(this.task);
    this.wake = wake;
    this.task = this.host.env.clock.scheduleAt(wake, this.runTick);
  }

  private tick(): void {
    this.task = null;
    this.wake = Infinity;
    if (!this.enabled || !this.coordinator.canHeartbeat()) {
      this.enabled = false;
      return;
    }
    const now = this.host.env.clock.now;
    if (this.host.blockedInPoll) {
      this.heartbeat.poll(now);
    }
    if (this.heartbeat.pollTimeoutExpired(now)) {
      this.host.onPollTimeout(now);
      return;
    }
    if (this.heartbeat.shouldHeartbeat(now) && !this.heartbeat.hasInflight()) {
      this.heartbeat.sentHeartbeat(now);
      this.send();
    }
    this.arm();
  }

  private send(): void {
    this.sentIncarnation = this.host.incarnation;
    this.sentGeneration = this.coordinator.generationId;
    this.sentMemberId = this.coordinator.memberId;
    const { groupId, groupInstanceId } = this.host.config;
    this.host.env.coordinator.heartbeat({ groupId, generationId: this.sentGeneration, memberId: this.sentMemberId, groupInstanceId }, this.onReply);
  }

  private handleReply(response: HeartbeatResponse): void {
    if (this.sentIncarnation !== this.host.incarnation) {
      return;
    }
    this.heartbeat.receiveHeartbeat(this.host.env.clock.now);
    this.coordinator.onHeartbeatResponse(response.errorCode, this.sentGeneration, this.sentMemberId);
  }
}
