/**
 * The streams-group requests as GroupMetadataManager answers them beside the other group types (Kafka 4.4):
 * a heartbeat's group must be a streams group, except that an empty classic group's id (a "simple" group of
 * offsets) is taken over on a join, keeping its offsets; StreamsGroupDescribe answers GROUP_ID_NOT_FOUND for
 * any other type. The engine's groups appear in the coordinator's map as CoordinatorStreamsGroup.
 */
import type { DescribedGroup } from '../../../protocol/messages/streamsGroupDescribeResponse';
import type { StreamsGroupHeartbeatRequestData } from '../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsGroupHeartbeatResponseData } from '../../../protocol/messages/streamsGroupHeartbeatResponse';
import { KafkaApiError } from '../../common/errors';
import type { Group } from '../group/group';
import { CoordinatorStreamsGroup } from './coordinatorStreamsGroup';
import type { StreamsGroup } from './streamsGroup';
import type { StreamsGroupHeartbeatHandlerOptions, StreamsHeartbeatResult } from './streamsGroupConfig';
import { describeStreamsGroup, streamsGroupNotFound } from './streamsGroupDescribe';
import { StreamsGroupHeartbeatHandler, streamsHeartbeatError, type StreamsHeartbeatContext } from './streamsGroupHeartbeatHandler';

/** The coordinator's map of groups of every type, as the streams requests use it. */
export interface GroupRegistry {
  get(groupId: string): Group | undefined;
  set(groupId: string, group: Group): void;
  /** Removes an empty classic group (its tombstone), as maybeDeleteEmptyClassicGroup does. */
  deleteClassicGroup(groupId: string, cause: string): void;
}

export class StreamsGroupRequests {
  readonly handler: StreamsGroupHeartbeatHandler;

  constructor(private readonly registry: GroupRegistry, options: StreamsGroupHeartbeatHandlerOptions) {
    this.handler = new StreamsGroupHeartbeatHandler(options);
  }

  /** The engine's group of this id; undefined for any other type. */
  streamsGroup(groupId: string): StreamsGroup | undefined {
    return this.registry.get(groupId)?.type === 'streams' ? this.handler.group(groupId) : undefined;
  }

  /** GroupMetadataManager.streamsGroupHeartbeat. Never throws. */
  heartbeat(context: StreamsHeartbeatContext, request: StreamsGroupHeartbeatRequestData): StreamsHeartbeatResult<StreamsGroupHeartbeatResponseData> {
    const existing = this.registry.get(request.groupId);
    const replaced = existing !== undefined && existing.type === 'classic' ? existing : undefined;
    if (existing !== undefined && existing.type !== 'streams' && !(replaced !== undefined && replaced.isEmpty() && request.memberEpoch === 0)) {
      return streamsHeartbeatError(new KafkaApiError('GROUP_ID_NOT_FOUND', `Group ${request.groupId} is not a streams group.`));
    }
    const result = this.handler.heartbeat(context, request);
    if (result.response.errorCode === 0 && existing?.type !== 'streams' && this.handler.group(request.groupId) !== undefined) {
      const group = new CoordinatorStreamsGroup(request.groupId, () => this.handler.group(request.groupId));
      if (replaced !== undefined) {
        replaced.offsets.forEach((partitions, topic) => partitions.forEach((offset, partition) => group.commit(topic, partition, offset)));
        this.registry.deleteClassicGroup(request.groupId, `replaced by streams group ${request.groupId}`);
      }
      this.registry.set(request.groupId, group);
    }
    return result;
  }

  /** StreamsGroupDescribe (v0–v1) for these groups. */
  describe(groupIds: readonly string[]): DescribedGroup[] {
    return groupIds.map((groupId) => {
      const existing = this.registry.get(groupId);
      const group = this.streamsGroup(groupId);
      if (existing === undefined || existing.state === 'Dead') {
        return streamsGroupNotFound(groupId, `Group ${groupId} not found.`);
      }
      return group === undefined ? streamsGroupNotFound(groupId, `Group ${groupId} is not a streams group.`) : describeStreamsGroup(group);
    });
  }
}
