/**
 * The heartbeat of the consumer protocol and of Streams (Kafka 4.4's AbstractHeartbeatRequestManager;
 * what the two requests differ in is a HeartbeatMessages) on the simulator's virtual clock: the
 * background thread's loop as one task, woken at the next heartbeat, the poll deadline, the end of a
 * backoff, or at once when the member's state changes. It heartbeats at the interval the coordinator
 * returns, at once to join, acknowledge or leave, sends every field when joining and afterwards only
 * what changed, and handles the errors as the Java client does (fenced: rejoin; fatal: stop).
 */
import { errorName } from '../../../../protocol/errorCodes';
import type { ScheduledTask } from '../../../common/clock';
import type { ConsumerHost } from '../consumerConfig';
import type { ConsumerMembershipManager, LocalAssignment, TopicIdPartitions } from './consumerMembershipManager';

/** retry.backoff.max.ms default. */
const RETRY_BACKOFF_MAX_MS = 1000;

/** The fields every group heartbeat response has. */
export interface HeartbeatResponseData {
  errorCode: number;
  errorMessage: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
}

/**
 * What differs between the consumer protocol's heartbeat and Streams' (ConsumerHeartbeatRequestManager
 * and StreamsGroupHeartbeatRequestManager over AbstractHeartbeatRequestManager): the request, its
 * HeartbeatState of fields last sent, and where the assignment is in the response.
 */
export interface HeartbeatMessages<Request, Response extends HeartbeatResponseData> {
  /** The request's name, in the fatal error a failed heartbeat gives. */
  readonly apiName: string;
  /** HeartbeatState.buildRequestData: every field when joining, afterwards only what changed. */
  buildRequestData(joining: boolean, assignment: LocalAssignment): Request;
  /** HeartbeatState.reset: after a failed heartbeat the next one carries every field again. */
  reset(): void;
  send(request: Request, respond: (response: Response) => void): void;
  /** The target assignment a successful response carries, or null when it carries none (unchanged). */
  assignmentOf(response: Response): TopicIdPartitions | null;
}

export class HeartbeatRequestManager<Request, Response extends HeartbeatResponseData> {
  /** 0 until the coordinator gives one, so the first heartbeat goes at once. */
  private heartbeatIntervalMs = 0;
  private heartbeatDueAt = 0;
  private inFlight = false;
  private failedAttempts = 0;
  private backoffUntil = 0;
  private lastPoll = 0;
  private task: ScheduledTask | null = null;
  private wakeAt = Infinity;
  /** Between stop() and start(): the process is gone, nothing is scheduled. */
  private stopped = true;
  private readonly runLoop = (): void => this.run();

  constructor(
    private readonly host: ConsumerHost,
    private readonly membership: ConsumerMembershipManager,
    private readonly messages: HeartbeatMessages<Request, Response>,
  ) {}

  /** A new process: fresh timers, nothing sent yet. */
  start(now: number): void {
    this.heartbeatIntervalMs = 0;
    this.heartbeatDueAt = now;
    this.inFlight = false;
    this.failedAttempts = 0;
    this.backoffUntil = 0;
    this.lastPoll = now;
    this.messages.reset();
    this.stopped = false;
  }

  stop(): void {
    this.stopped = true;
    this.host.env.clock.cancel(this.task);
    this.task = null;
    this.wakeAt = Infinity;
  }

  lastPollTime(): number {
    return this.lastPoll;
  }

  /** resetPollTimer: poll() was called; past max.poll.interval.ms a STALE member rejoins. */
  resetPollTimer(now: number): void {
    if (this.pollTimerExpired(now)) {
      this.membership.maybeRejoinStaleMember();
    }
    this.lastPoll = now;
  }

  /** Run the loop now (the member's state changed). */
  wake(): void {
    this.arm(this.host.env.clock.now);
  }

  /** Sends the heartbeat of a member that is LEAVING right away, its answer ignored (close, expired poll timer). */
  sendLeaveHeartbeat(): void {
    if (this.membership.state !== 'LEAVING') {
      return;
    }
    this.send(this.host.env.clock.now, true);
    // The leave's answer is ignored: the member may join again before or after it.
    this.inFlight = false;
    this.failedAttempts = 0;
    this.backoffUntil = 0;
    this.messages.reset();
  }

  private arm(time: number): void {
    if (this.stopped) {
      return;
    }
    if (this.task !== null && !this.task.done && this.wakeAt <= time) {
      return;
    }
    this.host.env.clock.cancel(this.task);
    this.wakeAt = time;
    this.task = this.host.env.clock.scheduleAt(time, this.runLoop);
  }

  private pollTimerExpired(now: number): boolean {
    return now - this.lastPoll >= this.host.config.maxPollIntervalMs;
  }

  /** One turn of the background thread: the membership's poll, then the heartbeat's. */
  private run(): void {
    this.task = null;
    this.wakeAt = Infinity;
    const now = this.host.env.clock.now;
    this.membership.poll();
    if (this.membership.shouldSkipHeartbeat()) {
      return; // woken again by poll() (a rejoin) or a state change
    }
    if (this.host.blockedInPoll) {
      this.lastPoll = now; // the application is inside poll(), waiting for records
    }
    if (this.pollTimerExpired(now) && !this.membership.isLeavingGroup()) {
      this.host.onPollTimeout(now);
      return;
    }
    const heartbeatNow = this.membership.state === 'LEAVING' || (this.membership.shouldHeartbeatNow() && !this.inFlight);
    if (heartbeatNow || this.canSendRequest(now)) {
      this.send(now, false);
    }
    const nextHeartbeat = this.inFlight ? Infinity : Math.max(this.heartbeatDueAt, this.backoffUntil);
    const next = Math.min(nextHeartbeat, this.lastPoll + this.host.config.maxPollIntervalMs);
    if (Number.isFinite(next)) {
      this.arm(Math.max(now, next));
    }
  }

  private canSendRequest(now: number): boolean {
    return !this.inFlight && now >= this.heartbeatDueAt && now >= this.backoffUntil;
  }

  private send(now: number, ignoreResponse: boolean): void {
    const request = this.messages.buildRequestData(this.membership.state === 'JOINING', this.membership.assignment);
    this.inFlight = true;
    this.membership.onHeartbeatRequestGenerated();
    this.heartbeatDueAt = now + this.heartbeatIntervalMs;
    const respond = ignoreResponse ? () => undefined : this.host.guard((response: Response) => this.onResponse(response));
    this.messages.send(request, respond);
  }

  private onResponse(response: Response): void {
    const now = this.host.env.clock.now;
    this.inFlight = false;
    if (response.errorCode === 0) {
      if (response.heartbeatIntervalMs !== this.heartbeatIntervalMs) {
        this.heartbeatIntervalMs = response.heartbeatIntervalMs;
        this.heartbeatDueAt = now + response.heartbeatIntervalMs;
      }
      this.failedAttempts = 0;
      this.backoffUntil = 0;
      this.membership.onHeartbeatSuccess(response.memberEpoch, this.messages.assignmentOf(response));
    } else {
      this.onErrorResponse(response, now);
    }
    this.wake();
  }

  private onErrorResponse(response: Response, now: number): void {
    const error = errorName(response.errorCode);
    this.messages.reset();
    if (this.membership.shouldSkipHeartbeat()) {
      return; // the answer to a heartbeat sent before the member left (STALE, UNSUBSCRIBED): nothing to do
    }
    // onFailedAttempt: the next heartbeat needs no interval, only the (exponential) backoff. No jitter, to stay deterministic.
    this.heartbeatDueAt = now;
    this.failedAttempts++;
    this.backoffUntil = now + Math.min(RETRY_BACKOFF_MAX_MS, this.host.config.retryBackoffMs * 2 ** (this.failedAttempts - 1));
    switch (error) {
      case 'NOT_COORDINATOR':
      case 'COORDINATOR_NOT_AVAILABLE':
      case 'COORDINATOR_LOAD_IN_PROGRESS':
        // Kafka retries as soon as it found the coordinator again; here the coordinator never moves, so back off.
        return;
      case 'FENCED_MEMBER_EPOCH':
      case 'UNKNOWN_MEMBER_ID':
        this.membership.transitionToFenced();
        if (this.failedAttempts === 1) {
          this.backoffUntil = 0; // rejoin at once, once the partitions are released; a repeated failure backs off
        }
        return;
      case 'TOPIC_AUTHORIZATION_FAILED':
        // Reported to the application, which goes on heartbeating (both requests).
        return;
      default:
        // GROUP_AUTHORIZATION_FAILED, INVALID_REQUEST, GROUP_MAX_SIZE_REACHED, UNSUPPORTED_ASSIGNOR,
        // INVALID_REGULAR_EXPRESSION, UNRELEASED_INSTANCE_ID, FENCED_INSTANCE_ID, Streams' STREAMS_INVALID_TOPOLOGY,
        // STREAMS_INVALID_TOPOLOGY_EPOCH and STREAMS_TOPOLOGY_FENCED, and anything unexpected.
        this.membership.transitionToFatal();
        this.host.fail(`${this.messages.apiName} failed with ${error}${response.errorMessage ? `: ${response.errorMessage}` : ''}`);
    }
  }
}
