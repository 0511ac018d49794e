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
