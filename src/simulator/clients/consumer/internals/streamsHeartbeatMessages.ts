/**
 * StreamsGroupHeartbeat as StreamsGroupHeartbeatRequestManager sends it (Kafka 4.4): when joining, the
 * topology, process id, rebalance timeout, client tags and empty task lists; afterwards the tasks it
 * owns whenever they changed since the last request. Task offsets are not reported (the simulated
 * thread restores no state, so there is no lag to weigh warm-up tasks by).
 */
import type { StreamsGroupHeartbeatRequestData, Topology } from '../../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsGroupHeartbeatResponseData } from '../../../../protocol/messages/streamsGroupHeartbeatResponse';
import type { StreamsSubtopologySpec, StreamsThreadSpec } from '../../../common/control';
import type { ConsumerHost } from '../consumerConfig';
import type { LocalAssignment, TopicIdPartitions } from './consumerMembershipManager';
import type { HeartbeatMessages } from './heartbeatRequestManager';
import { tasksAssignment, tasksOf } from './streamsAssignment';

/** StreamsGroupHeartbeat v1, as Kafka 4.4's client sends it. */
const HEARTBEAT_API_VERSION = 1;

/** The heartbeat's topology: internal topics sized by the broker (0), changelogs compacted as Streams creates them. */
export function heartbeatTopology(subtopologies: readonly StreamsSubtopologySpec[]): Topology {
  return {
    epoch: 0,
    subtopologies: subtopologies.map((s) => ({
      subtopologyId: s.id,
      sourceTopics: [...s.sourceTopics].sort(),
      sourceTopicRegex: [],
      stateChangelogTopics: (s.stateChangelogTopics ?? []).map((name) => ({ name, partitions: 0, replicationFactor: 0, topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }] })),
      repartitionSinkTopics: [...(s.repartitionSinkTopics ?? [])].sort(),
      repartitionSourceTopics: (s.repartitionSourceTopics ?? []).map((name) => ({ name, partitions: 0, replicationFactor: 0, topicConfigs: [] })),
      copartitionGroups: [],
    })),
  };
}

export class StreamsHeartbeatMessages implements HeartbeatMessages<StreamsGroupHeartbeatRequestData, StreamsGroupHeartbeatResponseData> {
  readonly apiName = 'StreamsGroupHeartbeat';
  private lastSentAssignment: LocalAssignment | null = null;
  private endpointInformationEpoch = 0;

  constructor(
    private readonly host: ConsumerHost,
    private readonly member: { readonly memberId: string; readonly memberEpoch: number },
    private readonly thread: StreamsThreadSpec,
  ) {}

  reset(): void {
    this.lastSentAssignment = null;
  }

  send(request: StreamsGroupHeartbeatRequestData, respond: (response: StreamsGroupHeartbeatResponseData) => void): void {
    const { clientId, clientHost } = this.host.config;
    this.host.env.coordinator.streamsGroupHeartbeat({ apiVersion: HEARTBEAT_API_VERSION, clientId, clientHost }, request, (result) => {
      respond(result.response);
      if (result.internalTopicsToBeCreated.size > 0) {
        this.host.env.createStreamsInternalTopics(result.internalTopicsToBeCreated);
      }
    });
  }

  /** onSuccessResponse: the endpoint epoch is kept; the tasks come all three or not at all. */
  assignmentOf(response: StreamsGroupHeartbeatResponseData): TopicIdPartitions | null {
    this.endpointInformationEpoch = response.endpointInformationEpoch;
    const { activeTasks, standbyTasks, warmupTasks } = response;
    return activeTasks === null || standbyTasks === null || warmupTasks === null ? null : tasksAssignment({ active: activeTasks, standby: standbyTasks, warmup: warmupTasks });
  }

  buildRequestData(joining: boolean, reconciled: LocalAssignment): StreamsGroupHeartbeatRequestData {
    const config = this.host.config;
    const data: StreamsGroupHeartbeatRequestData = {
      groupId: config.groupId,
      memberId: this.member.memberId,
      memberEpoch: this.member.memberEpoch,
      endpointInformationEpoch: this.endpointInformationEpoch,
      instanceId: config.groupInstanceId,
      rackId: null,
      rebalanceTimeoutMs: -1,
      topology: null,
      activeTasks: null,
      standbyTasks: null,
      warmupTasks: null,
      processId: null,
      userEndpoint: null,
      clientTags: null,
      taskOffsets: null,
      taskEndOffsets: null,
      shutdownApplication: false,
    };
    if (joining) {
      data.topology = heartbeatTopology(this.thread.subtopologies);
      data.rebalanceTimeoutMs = config.maxPollIntervalMs;
      data.processId = this.thread.processId;
      data.clientTags = [];
      data.activeTasks = [];
      data.standbyTasks = [];
      data.warmupTasks = [];
      data.taskOffsets = [];
      data.taskEndOffsets = [];
      this.lastSentAssignment = null;
    } else if (!reconciled.equals(this.lastSentAssignment)) {
      data.activeTasks = tasksOf(reconciled.partitions, 'active');
      data.standbyTasks = tasksOf(reconciled.partitions, 'standby');
      data.warmupTasks = tasksOf(reconciled.partitions, 'warmup');
      this.lastSentAssignment = reconciled;
    }
    return data;
  }
}
