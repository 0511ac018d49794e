/**
 * KIP-848's consumer protocol as a simulated consumer's process sees it (AsyncKafkaConsumer's group
 * side): the membership manager and its heartbeat request manager. Unlike the classic protocol,
 * poll() never blocks in a join: the member joins, reconciles and leaves from the background thread.
 * The member's epochs and reconciliation reach the timeline from the coordinator's records.
 */
import type { ConsumerHost, GroupProtocolClient } from '../consumerConfig';
import { ConsumerHeartbeatMessages } from './consumerHeartbeatMessages';
import { HeartbeatRequestManager, type HeartbeatResponseData } from './heartbeatRequestManager';
import { streamsTaskResolver } from './streamsAssignment';
import { StreamsHeartbeatMessages } from './streamsHeartbeatMessages';
import { ConsumerMembershipManager } from './consumerMembershipManager';
import type { ConsumerOffsets } from './consumerOffsets';
import type { OwnedPartitions } from './ownedPartitions';

/** Kafka's Uuid.randomUuid().toString(): 16 random bytes in URL-safe base64 without padding. */
function randomMemberId(host: ConsumerHost): string {
  return Buffer.from(host.env.random.uuid().replace(/-/g, ''), 'hex').toString('base64url');
}

export class ConsumerProtocolClient implements GroupProtocolClient {
  private readonly membership: ConsumerMembershipManager;
  private readonly heartbeat: HeartbeatRequestManager<unknown, HeartbeatResponseData>;
  private offsets!: ConsumerOffsets;

  constructor(
    private readonly host: ConsumerHost,
    owned: OwnedPartitions,
  ) {
    const streams = host.config.streams;
    // A Streams thread's consumer reconciles tasks the same way (AsyncKafkaConsumer with StreamsMembershipManager).
    const resolver = streams === null ? undefined : streamsTaskResolver(host.env.cluster, streams.subtopologies);
    this.membership = new ConsumerMembershipManager(host, owned, () => this.heartbeat.wake(), resolver);
    const messages = streams === null ? new ConsumerHeartbeatMessages(host, this.membership) : new StreamsHeartbeatMessages(host, this.membership, streams);
    this.heartbeat = new HeartbeatRequestManager<unknown, HeartbeatResponseData>(host, this.membership, messages);
  }

  connect(offsets: ConsumerOffsets): void {
    this.offsets = offsets;
    this.membership.connect(offsets);
  }

  /** The client's state (MemberState), for tests and views. */
  get state(): ConsumerMembershipManager['state'] {
    return this.membership.state;
  }

  get memberId(): string {
    return this.membership.memberId;
  }

  get lastMemberId(): string {
    return this.membership.memberId;
  }

  /** The member epoch stands where the classic generation does (OffsetCommit, groupMetadata()). */
  get generationId(): number {
    return this.membership.memberEpoch;
  }

  isStable(): boolean {
    return this.membership.state === 'STABLE';
  }

  /**
   * A failed commit changes nothing of the membership (CommitRequestManager): a stale epoch or an
   * unknown member is fixed by the heartbeat, and the positions are committed again later.
   */
  onCommitError(): void {
    return;
  }

  start(now: number): void {
    this.heartbeat.start(now);
    this.membership.start(randomMemberId(this.host));
  }

  halt(): void {
    this.heartbeat.stop();
    this.membership.halt();
  }

  onPoll(now: number): void {
    this.heartbeat.resetPollTimer(now);
    this.membership.onConsumerPoll();
  }

  lastPollTime(): number {
    return this.heartbeat.lastPollTime();
  }

  needsJoin(): boolean {
    return false;
  }

  maybeJoinGroup(): void {
    return;
  }

  onJoinReturned(): void {
    return;
  }

  /** close(): commit what was consumed, release the partitions, and send the leave heartbeat (-1, or -2 when static). */
  close(): void {
    if (this.host.config.enableAutoCommit && !this.membership.isLeavingGroup()) {
      this.offsets.commitPositions();
    }
    if (this.membership.leaveGroupOnClose()) {
      this.heartbeat.sendLeaveHeartbeat();
    }
  }

  leaveOnPollTimeout(): void {
    this.membership.transitionToSendingLeaveGroup(true);
    this.heartbeat.sendLeaveHeartbeat();
  }
}
