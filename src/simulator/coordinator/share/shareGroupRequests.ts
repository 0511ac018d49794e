/**
 * The share-group requests as GroupMetadataManager answers them beside the other group types (Kafka 4.4): a
 * heartbeat's group must be a share group (getOrMaybeCreateShareGroup answers GROUP_ID_NOT_FOUND "Group X is not
 * a share group." for any other type, an empty classic group included), and ShareGroupDescribe answers the same
 * for other types. The engine's groups appear in the coordinator's map as CoordinatorShareGroup.
 */
import { errorCodeOf } from '../../../protocol/errorCodes';
import type { DescribedGroup } from '../../../protocol/messages/shareGroupDescribeResponse';
import type { ShareGroupHeartbeatRequestData } from '../../../protocol/messages/shareGroupHeartbeatRequest';
import type { ShareGroupHeartbeatResponseData } from '../../../protocol/messages/shareGroupHeartbeatResponse';
import { KafkaApiError } from '../../common/errors';
import type { GroupRegistry } from '../streams/streamsGroupRequests';
import { CoordinatorShareGroup } from './coordinatorShareGroup';
import type { ShareGroup } from './shareGroup';
import type { ShareGroupHeartbeatHandlerOptions } from './shareGroupConfig';
import { describeShareGroup, shareGroupNotFound } from './shareGroupDescribe';
import type { AlterShareOffsetsTopic, AlterShareOffsetsTopicResult, DeleteShareOffsetsTopicResult } from './shareGroupOffsetRecords';
import { ShareGroupHeartbeatHandler, shareHeartbeatError, type ShareHeartbeatContext } from './shareGroupHeartbeatHandler';

export class ShareGroupRequests {
  readonly handler: ShareGroupHeartbeatHandler;

  constructor(private readonly registry: Pick<GroupRegistry, 'get' | 'set'>, private readonly options: ShareGroupHeartbeatHandlerOptions) {
    this.handler = new ShareGroupHeartbeatHandler(options);
  }

  /** The engine's group of this id; undefined for any other type. */
  shareGroup(groupId: string): ShareGroup | undefined {
    return this.registry.get(groupId)?.type === 'share' ? this.handler.group(groupId) : undefined;
  }

  /** GroupMetadataManager.shareGroupHeartbeat. Never throws. */
  heartbeat(context: ShareHeartbeatContext, request: ShareGroupHeartbeatRequestData): ShareGroupHeartbeatResponseData {
    const existing = this.registry.get(request.groupId);
    if (existing !== undefined && existing.type !== 'share') {
      return shareHeartbeatError(new KafkaApiError('GROUP_ID_NOT_FOUND', `Group ${request.groupId} is not a share group.`));
    }
    const response = this.handler.heartbeat(context, request);
    if (response.errorCode === errorCodeOf('NONE') && existing?.type !== 'share' && this.handler.group(request.groupId) !== undefined) {
      this.registry.set(request.groupId, new CoordinatorShareGroup(request.groupId, () => this.handler.group(request.groupId)));
    }
    return response;
  }

  /**
   * AlterShareGroupOffsets: a group of another type is refused as GroupMetadataManager.getOrMaybeCreateShareGroup
   * refuses it; a new share group is created empty. Throws the request's error (NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND).
   */
  alterOffsets(groupId: string, topics: readonly AlterShareOffsetsTopic[]): AlterShareOffsetsTopicResult[] {
    this.refuseOtherType(groupId);
    const results = this.handler.alterShareGroupOffsets(groupId, topics);
    if (this.registry.get(groupId)?.type !== 'share' && this.handler.group(groupId) !== undefined) {
      this.registry.set(groupId, new CoordinatorShareGroup(groupId, () => this.handler.group(groupId)));
    }
    return results;
  }

  /** DeleteShareGroupOffsets: GROUP_ID_NOT_FOUND for a group that is not a share group, NON_EMPTY_GROUP unless Empty. */
  deleteOffsets(groupId: string, topicNames: readonly string[]): DeleteShareOffsetsTopicResult[] {
    this.refuseOtherType(groupId);
    if (this.shareGroup(groupId) === undefined) {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Group ${groupId} not found.`);
    }
    return this.handler.deleteShareGroupOffsets(groupId, topicNames);
  }

  private refuseOtherType(groupId: string): void {
    const existing = this.registry.get(groupId);
    if (existing !== undefined && existing.type !== 'share') {
      throw new KafkaApiError('GROUP_ID_NOT_FOUND', `Group ${groupId} is not a share group.`);
    }
  }

  /** ShareGroupDescribe (v1) for these groups. */
  describe(groupIds: readonly string[]): DescribedGroup[] {
    return groupIds.map((groupId) => {
      const existing = this.registry.get(groupId);
      const group = this.shareGroup(groupId);
      if (existing === undefined || existing.state === 'Dead') {
        return shareGroupNotFound(groupId, `Group ${groupId} not found.`);
      }
      return group === undefined ? shareGroupNotFound(groupId, `Group ${groupId} is not a share group.`) : describeShareGroup(group, this.options.metadataImage);
    });
  }
}
