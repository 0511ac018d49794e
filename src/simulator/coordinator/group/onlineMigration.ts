/**
 * Online migration between classic and consumer groups (KIP-848, Kafka 4.4's GroupMetadataManager under
 * group.consumer.migration.policy): the classic member paths that a consumer group serves
 * (JoinGroup/SyncGroup/Heartbeat/LeaveGroup of members still on the classic protocol), the upgrade of a
 * classic group when a member of the consumer protocol joins it (validateOnlineUpgrade,
 * convertToConsumerGroup), and the downgrade when the last member of the consumer protocol leaves and
 * only classic members remain (validateOnlineDowngradeWithFencedMember, convertToClassicGroup).
 * This module translates between the classic coordinator's shapes and the consumer-group engine's.
 */
import { decodeSubscription, encodeSubscription } from '../../../protocol/consumerProtocol';
import type { VirtualClock } from '../../common/clock';
import type { ClassicGroup } from './classic/classicGroup';
import { ClassicGroupMember } from './classic/classicGroupMember';
import { joinError, syncError } from './classic/classicGroupResponses';
import type { ClassicRebalance } from './classic/classicRebalance';
import { newGroupMetadataRecord, type CoordinatorRecord } from './coordinatorRecords';
import {
  isDowngradeEnabled, isUpgradeEnabled, KafkaApiError, type ConsumerGroup, type ConsumerGroupMigrationPolicy, type TopicMetadataImage,
} from './modern/consumer';
import type { ClassicProtocolMembers } from './modern/consumer/classicProtocolMembers';
import type { ClassicMemberMetadata } from './modern/consumer/types';
import {
  classicMembersOfConsumerGroup, consumerGroupFromClassicGroup, type ClassicMemberSnapshot, type UpgradedGroup,
} from './modern/consumer/onlineMigration';
import type { KafkaErrorCode } from '../../common/errors';
import type { GroupOffsets } from './groupOffsets';
import type {
  HeartbeatRequest, HeartbeatResponse, JoinGroupProtocol, JoinGroupRequest, JoinGroupResponse, LeaveGroupRequest, LeaveGroupResponse,
  SyncGroupRequest, SyncGroupResponse,
} from '../../common/requests';

/** Kafka's default group.consumer.migration.policy. */
export const DEFAULT_CONSUMER_GROUP_MIGRATION_POLICY: ConsumerGroupMigrationPolicy = 'bidirectional';

/** The errors the classic member paths of a consumer group answer with; anything else is a bug of ours. */
const CLASSIC_PATH_ERRORS: ReadonlySet<string> = new Set<KafkaErrorCode>([
  'GROUP_ID_NOT_FOUND', 'GROUP_MAX_SIZE_REACHED', 'INCONSISTENT_GROUP_PROTOCOL', 'UNKNOWN_MEMBER_ID', 'FENCED_INSTANCE_ID',
  'ILLEGAL_GENERATION', 'REBALANCE_IN_PROGRESS', 'UNRELEASED_INSTANCE_ID',
]);

function errorCodeOf(error: unknown): KafkaErrorCode {
  if (error instanceof KafkaApiError && CLASSIC_PATH_ERRORS.has(error.errorName)) {
    return error.errorName as KafkaErrorCode;
  }
  return 'UNKNOWN_SERVER_ERROR';
}

/** A member's protocol as the ConsumerGroupMemberMetadata record keeps it: its subscription's bytes. */
function protocolToBytes({ name, metadata }: JoinGroupProtocol): { name: string; metadata: Uint8Array } {
  const userData = metadata.userData === undefined ? null : Buffer.from(metadata.userData, 'latin1');
  const version = metadata.generationId >= 0 ? 2 : 1;
  return { name, metadata: encodeSubscription({ topics: metadata.topics, userData, ownedPartitions: metadata.ownedPartitions, generationId: metadata.generationId, rackId: null }, version) };
}

function protocolFromBytes({ name, metadata }: { name: string; metadata: Uint8Array }): JoinGroupProtocol {
  const decoded = decodeSubscription(metadata);
  return {
    name,
    metadata: {
      topics: decoded.topics,
      ownedPartitions: decoded.ownedPartitions,
      generationId: decoded.generationId,
      ...(decoded.userData === null ? {} : { userData: Buffer.from(decoded.userData).toString('latin1') }),
    },
  };
}

/** What the migration needs of the coordinator's group manager. */
export interface MigrationHost {
  readonly clock: VirtualClock;
  readonly rebalance: ClassicRebalance;
  readonly metadataImage: TopicMetadataImage;
  readonly policy: ConsumerGroupMigrationPolicy;
  /** group.max.size and group.consumer.max.size */
  readonly classicGroupMaxSize: number;
  readonly consumerGroupMaxSize: number;
  /** Puts an Empty classic group of this id in place of the group there (the caller moved what it keeps). */
  replaceWithClassicGroup(groupId: string): ClassicGroup;
  /** The committed offsets of the group of this id, whatever its type. */
  offsetsOf(groupId: string): GroupOffsets | undefined;
  /** Puts records after the consumer group's tombstones, in their batch (convertToClassicGroup writes them so). */
  writeAfterConsumerGroupTombstones(groupId: string, records: readonly CoordinatorRecord[]): void;
}

export class OnlineMigration {
  constructor(
    private readonly host: MigrationHost,
    private readonly classicMembers: ClassicProtocolMembers,
  ) {}

  // ---------------------------------------------------------------- classic members of a consumer group

  /** classicGroupJoinToConsumerGroup, answered at once (the coordinator assigns; nobody waits for a leader). */
  join(request: JoinGroupRequest): JoinGroupResponse {
    try {
      const result = this.classicMembers.classicGroupJoin({
        groupId: request.groupId,
        memberId: request.memberId,
        groupInstanceId: request.groupInstanceId,
        sessionTimeoutMs: request.sessionTimeoutMs,
        rebalanceTimeoutMs: request.rebalanceTimeoutMs,
        protocolType: request.protocolType,
        protocols: request.protocols.map(protocolToBytes),
        apiVersion: request.apiVersion ?? 9,
        clientId: request.clientId,
        clientHost: request.clientHost,
      });
      if ('memberIdRequired' in result) {
        return joinError(result.memberIdRequired, 'MEMBER_ID_REQUIRED');
      }
      return { ...joinError(result.memberId, 'NONE'), generationId: result.generationId, protocolType: result.protocolType, protocolName: result.protocolName };
    } catch (error) {
      return joinError(request.memberId, errorCodeOf(error));
    }
  }

  sync(request: SyncGroupRequest): SyncGroupResponse {
    try {
      const result = this.classicMembers.classicGroupSync(request);
      return { errorCode: 'NONE', protocolType: result.protocolType, protocolName: result.protocolName, assignment: { partitions: result.assignment } };
    } catch (error) {
      return syncError(errorCodeOf(error));
    }
  }

  heartbeat(request: HeartbeatRequest): HeartbeatResponse {
    try {
      return { errorCode: this.classicMembers.classicGroupHeartbeat(request.groupId, request.memberId, request.groupInstanceId, request.generationId) };
    } catch (error) {
      return { errorCode: errorCodeOf(error) };
    }
  }

  leave(request: LeaveGroupRequest): LeaveGroupResponse {
    try {
      const members = this.classicMembers.classicGroupLeave(request.groupId, request.members).map((result) => ({
        memberId: result.memberId,
        groupInstanceId: result.groupInstanceId,
        errorCode: result.errorName === 'NONE' ? 'NONE' as const : errorCodeOf(new KafkaApiError(result.errorName, '')),
      }));
      return { errorCode: 'NONE', members };
    } catch (error) {
      return { errorCode: errorCodeOf(error), members: [] };
    }
  }

  // ---------------------------------------------------------------- upgrade

  /** validateOnlineUpgrade: the policy allows it, the group uses the consumer protocol and fits a consumer group. */
  canUpgrade(group: ClassicGroup): boolean {
    return isUpgradeEnabled(this.host.policy) && group.protocolType === 'consumer' && group.size <= this.host.consumerGroupMaxSize;
  }

  /**
   * convertToConsumerGroup, first half: members waiting in a join or sync are told to rejoin, and the
   * classic group's members and assignment become a consumer group that the joining heartbeat runs on.
   * Throws GROUP_ID_NOT_FOUND (a KafkaApiError) when a subscription does not parse.
   */
  upgrade(group: ClassicGroup): UpgradedGroup {
    for (const member of group.members.values()) {
      group.completeJoin(member, joinError(member.memberId, 'REBALANCE_IN_PROGRESS'));
      group.completeSync(member, syncError('REBALANCE_IN_PROGRESS'));
    }
    const snapshots = [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      instanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      classicMemberMetadata: { sessionTimeoutMs: member.sessionTimeoutMs, supportedProtocols: member.protocols.map(protocolToBytes) },
      assignment: member.assignment.partitions,
    }));
    return consumerGroupFromClassicGroup(group.groupId, group.generationId, group.protocolName ?? '', snapshots, this.host.metadataImage);
  }

  /** convertToConsumerGroup, second half once the join succeeded: the classic group's timers stop. */
  retireClassicGroup(group: ClassicGroup): void {
    for (const member of group.members.values()) {
      member.heartbeat.cancel();
    }
    group.pendingJoinMembers.forEach((timer) => timer.cancel());
  }

  // ---------------------------------------------------------------- downgrade

  /**
   * The downgrade (validateOnlineDowngradeWithFencedMember / WithReplacedMemberId, convertToClassicGroup):
   * when the leaving member is the last of the consumer protocol, and others remain (or a classic static
   * member replaces it, `joining`) and the policy and group.max.size allow it, the classic members become a
   * Stable classic group at the group epoch with their target assignments (the joining member with the
   * leaving one's). A group left by a member then rebalances; one whose member was replaced does not.
   * Returns whether it did; the engine then drops the consumer group.
   */
  maybeDowngrade(group: ConsumerGroup, leavingMemberId: string, joining?: ClassicMemberSnapshot): boolean {
    const size = joining === undefined ? group.members.size - 1 : group.members.size;
    if (!group.allMembersUseClassicProtocolExcept(leavingMemberId) || (joining === undefined && group.members.size <= 1)
      || !isDowngradeEnabled(this.host.policy) || size > this.host.classicGroupMaxSize) {
      return false;
    }
    const snapshots = classicMembersOfConsumerGroup(group, leavingMemberId, this.host.metadataImage);
    if (joining !== undefined) {
      snapshots.push(joining);
    }
    let protocols: Array<{ metadata: ClassicMemberMetadata; decoded: JoinGroupProtocol[] }>;
    try {
      protocols = snapshots.map((snapshot) => ({ metadata: snapshot.classicMemberMetadata, decoded: snapshot.classicMemberMetadata.supportedProtocols.map(protocolFromBytes) }));
    } catch {
      // Kafka refuses the downgrade (GROUP_ID_NOT_FOUND to the leaving member); here the member just leaves.
      return false;
    }
    const offsets = this.host.offsetsOf(group.groupId);
    const classic = this.host.replaceWithClassicGroup(group.groupId);
    offsets?.offsets.forEach((partitions, topic) => partitions.forEach((offset, partition) => classic.commit(topic, partition, offset)));
    classic.protocolType = 'consumer';
    snapshots.forEach((snapshot, index) => {
      const member = new ClassicGroupMember(
        snapshot.memberId, snapshot.instanceId, snapshot.clientId, snapshot.clientHost, snapshot.rebalanceTimeoutMs,
        protocols[index].metadata.sessionTimeoutMs, 'consumer', protocols[index].decoded, this.host.rebalance.sessionTimer(group.groupId, snapshot.memberId),
      );
      member.assignment = { partitions: [...snapshot.assignment] };
      classic.add(member, null);
      classic.lastSyncedAssignment.set(member.groupInstanceId ?? member.memberId, member.assignment.partitions);
    });
    // ClassicGroup.fromConsumerGroup: Stable at the group epoch, as if the last generation had just synced.
    classic.state = 'Stable';
    classic.generationId = group.groupEpoch;
    classic.protocolName = classic.selectProtocol();
    // createClassicGroupRecords: the new classic group's generation, in the batch of the consumer group's tombstones.
    this.host.writeAfterConsumerGroupTombstones(group.groupId, [newGroupMetadataRecord(classic)]);
    classic.members.forEach((member) => this.host.rebalance.rescheduleMemberHeartbeat(member));
    if (joining === undefined) {
      this.host.rebalance.prepareRebalance(classic, `Downgrade group ${group.groupId} from consumer to classic.`);
    }
    return true;
  }
}
