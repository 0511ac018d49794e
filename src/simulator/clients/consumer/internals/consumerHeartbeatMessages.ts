/**
 * ConsumerGroupHeartbeat as ConsumerHeartbeatRequestManager sends it (Kafka 4.4): its HeartbeatState
 * sends every field when joining and afterwards only the subscription, assignor and owned partitions
 * that changed since the last request.
 */
import type { ConsumerGroupHeartbeatRequestData } from '../../../../protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../protocol/messages/consumerGroupHeartbeatResponse';
import type { ConsumerHost } from '../consumerConfig';
import type { LocalAssignment, TopicIdPartitions } from './consumerMembershipManager';
import type { HeartbeatMessages } from './heartbeatRequestManager';

/** ConsumerGroupHeartbeat v1: the member id comes from the client. */
const HEARTBEAT_API_VERSION = 1;

/** HeartbeatState.SentFields: what the last request carried, so unchanged fields are left out. */
interface SentFields {
  rebalanceTimeoutMs: number;
  subscribedTopicNames: string | null;
  pattern: string | null;
  serverAssignor: string | null;
  localAssignment: LocalAssignment | null;
}

function noSentFields(): SentFields {
  return { rebalanceTimeoutMs: -1, subscribedTopicNames: null, pattern: null, serverAssignor: null, localAssignment: null };
}

export class ConsumerHeartbeatMessages implements HeartbeatMessages<ConsumerGroupHeartbeatRequestData, ConsumerGroupHeartbeatResponseData> {
  readonly apiName = 'ConsumerGroupHeartbeat';
  private sent = noSentFields();

  constructor(
    private readonly host: ConsumerHost,
    private readonly member: { readonly memberId: string; readonly memberEpoch: number },
  ) {}

  reset(): void {
    this.sent = noSentFields();
  }

  send(request: ConsumerGroupHeartbeatRequestData, respond: (response: ConsumerGroupHeartbeatResponseData) => void): void {
    const { clientId, clientHost } = this.host.config;
    this.host.env.coordinator.consumerGroupHeartbeat({ apiVersion: HEARTBEAT_API_VERSION, clientId, clientHost }, request, respond);
  }

  assignmentOf(response: ConsumerGroupHeartbeatResponseData): TopicIdPartitions | null {
    return response.assignment === null
      ? null
      : new Map(response.assignment.topicPartitions.map((t) => [t.topicId, [...t.partitions].sort((a, b) => a - b)] as const));
  }

  buildRequestData(sendAllFields: boolean, local: LocalAssignment): ConsumerGroupHeartbeatRequestData {
    const config = this.host.config;
    const data: ConsumerGroupHeartbeatRequestData = {
      groupId: config.groupId,
      memberId: this.member.memberId,
      memberEpoch: this.member.memberEpoch,
      instanceId: config.groupInstanceId,
      rackId: null,
      rebalanceTimeoutMs: -1,
      subscribedTopicNames: null,
      subscribedTopicRegex: null,
      serverAssignor: null,
      topicPartitions: null,
    };
    if (sendAllFields || this.sent.rebalanceTimeoutMs !== config.maxPollIntervalMs) {
      data.rebalanceTimeoutMs = config.maxPollIntervalMs;
      this.sent.rebalanceTimeoutMs = config.maxPollIntervalMs;
    }
    const topicNames = [...config.topics].sort();
    const topicNamesKey = topicNames.join('\u0000');
    if (sendAllFields || topicNamesKey !== this.sent.subscribedTopicNames) {
      data.subscribedTopicNames = topicNames;
      this.sent.subscribedTopicNames = topicNamesKey;
    }
    const pattern = config.subscribedTopicRegex;
    if ((sendAllFields && pattern !== null) || pattern !== this.sent.pattern) {
      data.subscribedTopicRegex = pattern ?? '';
      this.sent.pattern = pattern;
    }
    const assignor = config.groupRemoteAssignor;
    if (assignor !== null && (sendAllFields || assignor !== this.sent.serverAssignor)) {
      data.serverAssignor = assignor;
      this.sent.serverAssignor = assignor;
    }
    if (sendAllFields || !local.equals(this.sent.localAssignment)) {
      data.topicPartitions = [...local.partitions].map(([topicId, partitions]) => ({ topicId, partitions: [...partitions] }));
      this.sent.localAssignment = local;
    }
    return data;
  }
}
