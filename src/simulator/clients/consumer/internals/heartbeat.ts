/**
 * The Java consumer's heartbeat bookkeeping (org.apache.kafka.clients.consumer.internals.Heartbeat):
 * the heartbeat, session and poll timers and whether a heartbeat is in flight, in virtual time. It
 * decides nothing by itself: the heartbeat thread asks it.
 */
export interface HeartbeatConfig {
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  maxPollIntervalMs: number;
}

export class Heartbeat {
  private heartbeatDeadline = 0;
  private sessionDeadline = 0;
  private lastPoll = 0;
  private inFlight = false;

  constructor(
    private readonly config: HeartbeatConfig,
    now: number,
  ) {
    this.resetTimeouts(now);
  }

  /** The user's loop called poll(): the poll timer restarts. */
  poll(now: number): void {
    this.lastPoll = now;
  }

  lastPollTime(): number {
    return this.lastPoll;
  }

  /** When max.poll.interval.ms runs out without a poll(). */
  pollDeadline(): number {
    return this.lastPoll + this.config.maxPollIntervalMs;
  }

  pollTimeoutExpired(now: number): boolean {
    return now - this.lastPoll >= this.config.maxPollIntervalMs;
  }

  hasInflight(): boolean {
    return this.inFlight;
  }

  sentHeartbeat(now: number): void {
    this.inFlight = true;
    this.heartbeatDeadline = now + this.config.heartbeatIntervalMs;
  }

  receiveHeartbeat(now: number): void {
    this.inFlight = false;
    this.sessionDeadline = now + this.config.sessionTimeoutMs;
  }

  /** When the next heartbeat is due. */
  nextHeartbeatTime(): number {
    return this.heartbeatDeadline;
  }

  shouldHeartbeat(now: number): boolean {
    return now >= this.heartbeatDeadline;
  }

  timeToNextHeartbeat(now: number): number {
    return Math.max(0, this.heartbeatDeadline - now);
  }

  /** No heartbeat answered for session.timeout.ms: the client would consider its coordinator lost. */
  sessionTimeoutExpired(now: number): boolean {
    return now >= this.sessionDeadline;
  }

  /** Every timer starts over, as for a new consumer. */
  resetTimeouts(now: number): void {
    this.sessionDeadline = now + this.config.sessionTimeoutMs;
    this.lastPoll = now;
    this.heartbeatDeadline = now + this.config.heartbeatIntervalMs;
  }

  /**
   * The heartbeat thread is enabled (the JoinGroup answered): the first heartbeat is one interval away.
   * Kafka's HeartbeatThread.enable() calls resetTimeouts(), which also restarts the poll and session
   * timers; here the poll timer is kept fresh by the poll() blocked in the join instead.
   */
  resetHeartbeatTimer(now: number): void {
    this.heartbeatDeadline = now + this.config.heartbeatIntervalMs;
  }
}
