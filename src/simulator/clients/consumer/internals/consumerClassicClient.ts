/**
 * The classic group protocol as a simulated consumer's process sees it (ClassicKafkaConsumer's
 * group side): the ConsumerCoordinator's JoinGroup/SyncGroup state machine and its heartbeat thread.
 */
import type { RebalanceProtocol } from '../../../assignors/index';
import type { ConsumerHost, GroupProtocolClient } from '../consumerConfig';
import { ConsumerCoordinator } from './consumerCoordinator';
import type { ConsumerOffsets } from './consumerOffsets';
import type { KafkaErrorCode } from '../../../common/errors';
import { HeartbeatThread } from './heartbeatThread';
import type { OwnedPartitions } from './ownedPartitions';

export class ClassicGroupClient implements GroupProtocolClient {
  private readonly coordinator: ConsumerCoordinator;
  private readonly heartbeatThread: HeartbeatThread;
  private offsets!: ConsumerOffsets;

  constructor(
    private readonly host: ConsumerHost,
    private readonly owned: OwnedPartitions,
    rebalanceProtocol: RebalanceProtocol,
  ) {
    this.coordinator = new ConsumerCoordinator(host, owned, rebalanceProtocol);
    this.heartbeatThread = new HeartbeatThread(host, this.coordinator);
  }

  /** The offsets part, given once it exists (it commits through this client). */
  connect(offsets: ConsumerOffsets): void {
    this.offsets = offsets;
    this.coordinator.connect(offsets, this.heartbeatThread);
  }

  get memberId(): string {
    return this.coordinator.memberId;
  }

  get lastMemberId(): string {
    return this.coordinator.lastMemberId;
  }

  get generationId(): number {
    return this.coordinator.generationId;
  }

  isStable(): boolean {
    return this.coordinator.isStable();
  }

  onCommitError(error: KafkaErrorCode): void {
    this.coordinator.onCommitError(error);
  }

  start(now: number): void {
    this.coordinator.start();
    this.heartbeatThread.restart(now);
  }

  halt(): void {
    this.heartbeatThread.stop();
    this.coordinator.halt();
  }

  onPoll(now: number): void {
    this.heartbeatThread.heartbeat.poll(now);
  }

  lastPollTime(): number {
    return this.heartbeatThread.heartbeat.lastPollTime();
  }

  needsJoin(): boolean {
    return this.coordinator.needsJoin();
  }

  maybeJoinGroup(): void {
    this.coordinator.maybeJoinGroup();
  }

  onJoinReturned(now: number): void {
    this.heartbeatThread.heartbeat.poll(now);
    this.heartbeatThread.arm();
  }

  close(): void {
    this.offsets.maybeAutoCommitSync();
    if (this.owned.size > 0) {
      this.host.emitAssignmentChange(this.owned.assignment, [], 'consumer is closing: partitions revoked');
    }
    this.coordinator.maybeLeaveGroup('the consumer is being closed');
  }

  leaveOnPollTimeout(): void {
    this.coordinator.maybeLeaveGroup('consumer poll timeout has expired.');
  }
}
