/**
 * The group coordinator as the simulated clients reach it: the requests they send and the replies they
 * wait for (in Kafka, what the client's NetworkClient carries to the broker coordinating its group). The
 * simulator's GroupCoordinator implements it; the clients never see the coordinator itself.
 */
import type { ConsumerGroupHeartbeatRequestData } from '../../protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../protocol/messages/consumerGroupHeartbeatResponse';
import type { StreamsGroupHeartbeatRequestData } from '../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsGroupHeartbeatResponseData } from '../../protocol/messages/streamsGroupHeartbeatResponse';
import type {
  ClientContext, HeartbeatRequest, HeartbeatResponse, JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest, LeaveGroupResponse, OffsetCommitRequest,
  OffsetCommitResponse, OffsetFetchRequest, OffsetFetchResponse, Respond, StreamsHeartbeatResult, SyncGroupRequest, SyncGroupResponse, TxnOffsetCommitRequest,
} from '../common/requests';
import type { TransactionResult } from '../log/transactionIndex';

/** Who sent a ConsumerGroupHeartbeat, and in which version of the request. */
export interface HeartbeatClientContext extends ClientContext {
  apiVersion: number;
}

export interface GroupCoordinatorClient {
  joinGroup(request: JoinGroupRequest, respond: Respond<JoinGroupResponse>): void;
  syncGroup(request: SyncGroupRequest, respond: Respond<SyncGroupResponse>): void;
  heartbeat(request: HeartbeatRequest, respond: Respond<HeartbeatResponse>): void;
  leaveGroup(request: LeaveGroupRequest, respond: Respond<LeaveGroupResponse>): void;
  consumerGroupHeartbeat(context: HeartbeatClientContext, request: ConsumerGroupHeartbeatRequestData, respond: Respond<ConsumerGroupHeartbeatResponseData>): void;
  /** StreamsGroupHeartbeat, answered with the internal topics the broker is to create (the client sees the response only). */
  streamsGroupHeartbeat(context: HeartbeatClientContext, request: StreamsGroupHeartbeatRequestData, respond: Respond<StreamsHeartbeatResult<StreamsGroupHeartbeatResponseData>>): void;
  offsetCommit(request: OffsetCommitRequest, respond: Respond<OffsetCommitResponse>): void;
  txnOffsetCommit(request: TxnOffsetCommitRequest, respond: Respond<OffsetCommitResponse>): void;
  offsetFetch(request: OffsetFetchRequest, respond: Respond<OffsetFetchResponse>): void;
  /** WriteTxnMarkers: the transaction coordinator tells the group coordinator how `producerId`'s transaction ended. */
  completeTransaction(groupId: string, producerId: number, result: TransactionResult): void;
}
