/**
 * The consumer's side of the classic group protocol (AbstractCoordinator + ConsumerCoordinator):
 * the JoinGroup/SyncGroup state machine with MEMBER_ID_REQUIRED, the generation and member id,
 * eager or cooperative revocation around a rebalance, heartbeat and LeaveGroup outcomes.
 */
import type { TopicPartition } from '../../../../model/types';
import type { RebalanceProtocol } from '../../../assignors/index';
import type { CommitMembership, ConsumerHost } from '../consumerConfig';
import type { ConsumerOffsets } from './consumerOffsets';
import { FATAL_JOIN_ERRORS, type KafkaErrorCode } from '../../../common/errors';
import type { HeartbeatThread } from './heartbeatThread';
import { runAssignor, type MemberAssignments } from './leaderAssignment';
import type { OwnedPartitions } from './ownedPartitions';
import type { JoinGroupResponse, SyncGroupResponse } from '../../../common/requests';
import { partitionsMinus } from '../../../common/topicPartitionSet';
import { errorMessage } from '../../../../protocol/errors';

/** AbstractCoordinator.MemberState */
type MemberState = 'UNJOINED' | 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE' | 'STABLE';

export const NO_GENERATION = -1;

/** The Java exception class Kafka's client names in its rejoin reasons. */
function exceptionName(error: KafkaErrorCode): string {
  const words = error.toLowerCase().split('_');
  return `${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}Exception`;
}

export class ConsumerCoordinator implements CommitMembership {
  memberId = '';
  /** The last member id the coordinator gave, kept for events after a reset. */
  lastMemberId = '';
  generationId = NO_GENERATION;
  private protocolName: string | null = null;
  private state: MemberState = 'UNJOINED';
  private rejoinNeeded = true;
  private rejoinReason = '';
  private joinInFlight = false;
  private offsets!: ConsumerOffsets;
  private heartbeatThread!: HeartbeatThread;

  constructor(
    private readonly host: ConsumerHost,
    private readonly owned: OwnedPartitions,
    private readonly rebalanceProtocol: RebalanceProtocol,
  ) {}

  /** The parts that need the coordinator themselves, given once they exist. */
  connect(offsets: ConsumerOffsets, heartbeatThread: HeartbeatThread): void {
    this.offsets = offsets;
    this.heartbeatThread = heartbeatThread;
  }

  /** A new client: no member id, no generation, a join needed. */
  start(): void {
    this.memberId = '';
    this.generationId = NO_GENERATION;
    this.protocolName = null;
    this.state = 'UNJOINED';
    this.rejoinNeeded = true;
    this.rejoinReason = '';
    this.joinInFlight = false;
  }

  /** The process stops: the member is gone with it. */
  halt(): void {
    this.state = 'UNJOINED';
    this.memberId = '';
    this.generationId = NO_GENERATION;
  }

  isStable(): boolean {
    return this.state === 'STABLE';
  }

  /** Heartbeats are sent once the JoinGroup answered, until the member leaves or rejoins. */
  canHeartbeat(): boolean {
    return this.state !== 'UNJOINED' && this.state !== 'PREPARING_REBALANCE';
  }

  /** poll() runs the join (ensureActiveGroup) when a rejoin is needed or the member is not Stable. */
  needsJoin(): boolean {
    return this.rejoinNeeded || this.state !== 'STABLE';
  }

  /** The join poll() would start, unless one is already in flight. */
  maybeJoinGroup(): void {
    if (!this.joinInFlight) {
      this.joinGroup();
    }
  }

  requestRejoin(reason: string): void {
    this.rejoinNeeded = true;
    this.rejoinReason = reason;
    this.host.wakeFromIdle();
  }

  resetStateOnResponseError(error: KafkaErrorCode): void {
    this.resetGeneration(error !== 'ILLEGAL_GENERATION');
    this.requestRejoin(`rebalance failed due to ${exceptionName(error)}`);
  }

  /** Only dynamic members send LeaveGroup (KIP-345); both reset their generation. */
  maybeLeaveGroup(reason: string): void {
    const { groupId, groupInstanceId } = this.host.config;
    if (groupInstanceId === null && this.state !== 'UNJOINED' && this.memberId !== '') {
      this.host.env.coordinator.leaveGroup({ groupId, members: [{ memberId: this.memberId, groupInstanceId: null, reason }] }, () => undefined);
    }
    this.resetGeneration(true);
    this.requestRejoin(reason);
  }

  /** An OffsetCommit failed (ConsumerCoordinator.OffsetCommitResponseHandler). */
  onCommitError(error: KafkaErrorCode): void {
    if (error === 'REBALANCE_IN_PROGRESS') {
      this.requestRejoin('offset commit failed since group is already rebalancing');
    } else if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
      this.resetStateOnResponseError(error);
    } else if (error === 'FENCED_INSTANCE_ID') {
      this.host.fail('OffsetCommit failed with FENCED_INSTANCE_ID');
    }
  }

  onHeartbeatResponse(error: KafkaErrorCode, sentGeneration: number, sentMemberId: string): void {
    switch (error) {
      case 'NONE':
        return;
      case 'REBALANCE_IN_PROGRESS':
        if (this.state === 'STABLE') {
          this.requestRejoin('group is already rebalancing');
        }
        return;
      case 'FENCED_INSTANCE_ID':
        this.host.fail('FENCED_INSTANCE_ID: another consumer uses the same group.instance.id');
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

  private resetGeneration(resetMemberId: boolean): void {
    this.generationId = NO_GENERATION;
    this.protocolName = null;
    if (resetMemberId) {
      this.memberId = '';
    }
    this.state = 'UNJOINED';
    this.heartbeatThread.disable();
  }

  /** ConsumerCoordinator.onJoinPrepare: commit, then revoke (eager: everything) or lose (after a reset). */
  private onJoinPrepare(): void {
    this.offsets.maybeAutoCommitSync();
    if (this.owned.size === 0) {
      return;
    }
    if (this.generationId === NO_GENERATION || this.memberId === '') {
      this.host.emitAssignmentChange(this.owned.assignment, [], 'partitions lost: the generation was reset');
      this.owned.clear();
    } else if (this.rebalanceProtocol === 'EAGER') {
      this.host.emitAssignmentChange(this.owned.assignment, [], 'eager rebalance: every partition is revoked before rejoining');
      this.owned.clear();
    } else {
      const subscribed = new Set(this.host.config.topics);
      const revoked = this.owned.list.filter((p) => !subscribed.has(p.topic));
      if (revoked.length > 0) {
        this.host.emitAssignmentChange(revoked, [], 'partitions of unsubscribed topics revoked');
        this.owned.list = this.owned.list.filter((p) => subscribed.has(p.topic));
      }
    }
  }

  private joinGroup(): void {
    this.onJoinPrepare();
    this.joinInFlight = true;
    this.rejoinNeeded = false;
    this.state = 'PREPARING_REBALANCE';
    this.heartbeatThread.disable();
    const config = this.host.config;
    const owned = this.owned.assignment;
    this.host.env.coordinator.joinGroup(
      {
        groupId: config.groupId,
        sessionTimeoutMs: config.sessionTimeoutMs,
        rebalanceTimeoutMs: config.maxPollIntervalMs,
        memberId: this.memberId,
        groupInstanceId: config.groupInstanceId,
        protocolType: 'consumer',
        protocols: config.assignors.map((name) => ({
          name,
          metadata: { topics: config.topics.slice(), ownedPartitions: owned, generationId: this.generationId },
        })),
        reason: this.rejoinReason,
        clientId: config.clientId,
        clientHost: config.clientHost,
      },
      this.host.guard((response: JoinGroupResponse) => this.onJoinResponse(response)),
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
      this.heartbeatThread.enable();
      const isLeader = response.leader === this.memberId;
      let assignments: MemberAssignments = [];
      if (isLeader && !response.skipAssignment) {
        try {
          assignments = runAssignor(this.host.env.cluster, response);
        } catch (e) {
          this.host.fail(`assignor ${response.protocolName} failed: ${errorMessage(e)}`);
          return;
        }
      }
      this.host.env.coordinator.syncGroup(
        {
          groupId: this.host.config.groupId,
          generationId: this.generationId,
          memberId: this.memberId,
          groupInstanceId: this.host.config.groupInstanceId,
          protocolType: 'consumer',
          protocolName: this.protocolName,
          assignments,
        },
        this.host.guard((sync: SyncGroupResponse) => this.onSyncResponse(sync)),
      );
      return;
    }
    this.joinInFlight = false;
    if (FATAL_JOIN_ERRORS.has(error)) {
      this.host.fail(`JoinGroup failed with ${error}`);
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
    const immediate = error === 'MEMBER_ID_REQUIRED' || error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION' || error === 'REBALANCE_IN_PROGRESS';
    this.retryJoin(immediate ? 0 : this.host.config.retryBackoffMs);
  }

  /** joinGroupIfNeeded loops inside poll(): the retry happens without waiting for the next poll. */
  private retryJoin(delayMs: number): void {
    this.host.schedulePoll(delayMs);
  }

  private onSyncResponse(response: SyncGroupResponse): void {
    this.joinInFlight = false;
    const error = response.errorCode;
    if (error === 'NONE') {
      this.state = 'STABLE';
      this.onJoinComplete(response.assignment.partitions);
      this.host.resumePolling();
      return;
    }
    if (error === 'FENCED_INSTANCE_ID') {
      this.host.fail('SyncGroup failed with FENCED_INSTANCE_ID');
      return;
    }
    if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
      this.resetStateOnResponseError(error);
    } else {
      this.state = 'UNJOINED';
      this.requestRejoin(`rebalance failed due to ${exceptionName(error)}`);
    }
    this.retryJoin(error === 'COORDINATOR_NOT_AVAILABLE' ? this.host.config.retryBackoffMs : 0);
  }

  /** ConsumerCoordinator.onJoinComplete: apply the assignment; cooperative members revoke owned − assigned and rejoin. */
  private onJoinComplete(assigned: TopicPartition[]): void {
    const revokedOwned = partitionsMinus(this.owned.list, assigned);
    const revoked = revokedOwned.map(({ topic, partition }) => ({ topic, partition }));
    const added = partitionsMinus(assigned, this.owned.list);
    if (revokedOwned.length > 0) {
      this.offsets.commitPartitions(revokedOwned);
      this.owned.remove(revokedOwned);
    }
    for (const tp of added) {
      this.owned.add(tp);
    }
    if (revoked.length > 0 || added.length > 0) {
      const cause =
        this.rebalanceProtocol === 'COOPERATIVE' && revoked.length > 0
          ? 'cooperative rebalance: owned partitions not in the new assignment are revoked'
          : `assignment received for generation ${this.generationId}`;
      this.host.emitAssignmentChange(revoked, added, cause);
    }
    this.offsets.fetchCommittedPositions(added);
    const subscribed = new Set(this.host.config.topics);
    if (assigned.some((tp) => !subscribed.has(tp.topic))) {
      this.requestRejoin('received assignment does not match the current subscription');
    } else if (this.rebalanceProtocol === 'COOPERATIVE' && revoked.length > 0) {
      this.requestRejoin('need to revoke partitions and re-join');
    }
  }
}
