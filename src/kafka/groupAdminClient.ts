/**
 * The admin side of a real cluster, on the group's coordinator: the lookups a write re-checks (the
 * group's state, its committed offsets) and the writes themselves (admin OffsetCommit with
 * generation -1, OffsetDelete, LeaveGroup by instance id, DeleteGroups), each retried while the
 * coordinator loads and none retried after a failure of its own.
 */
import type { GroupState, TopicPartition } from '../model/types';
import type { ClusterConnection } from './clusterConnection';
import { groupBy } from './collections';
import { hasLoadingCode, retryWhileCoordinatorLoads } from './coordinatorRetry';
import type { GroupLoader } from './groupLoader';
import { toGroupState } from './groupDetailMapper';
import { sendRequest } from './kafkajsBridge';
import { describeErrorCode, GROUP_ID_NOT_FOUND, KafkaErrorCode } from './kafkaErrors';
import { adminOffsetCommitRequest, deleteGroupsRequest, leaveGroupByInstanceIdRequest, offsetDeleteRequest, type OffsetToCommit } from './requests/adminRequests';
import type { CommittedOffset } from './requests/offsetRequests';
import { ShareGroupAdminClient } from './shareGroupAdmin';

const MAX_INT64 = 2n ** 63n - 1n;

export interface PartitionOperationResult extends TopicPartition {
  /** Human error text, absent on success. */
  error?: string;
}

export interface OffsetDeleteOutcome {
  /** Group-level error (e.g. GROUP_ID_NOT_FOUND), absent when the request was accepted. */
  error?: string;
  partitions: PartitionOperationResult[];
}

export interface MemberRemovalResult {
  groupInstanceId: string;
  memberId: string;
  error?: string;
}

export interface MemberRemovalOutcome {
  error?: string;
  members: MemberRemovalResult[];
}

export interface GroupDeletionResult {
  groupId: string;
  error?: string;
}

export class GroupAdminClient {
  /** The share-group offset operations (AlterShareGroupOffsets, DeleteShareGroupOffsets) on the same connections. */
  readonly share: ShareGroupAdminClient;

  constructor(private readonly connection: ClusterConnection, private readonly loader: GroupLoader) {
    this.share = new ShareGroupAdminClient(connection);
  }

  /**
   * The group's state from one DescribeGroups to its coordinator (and ConsumerGroupDescribe when it
   * answers Dead for what may be a KIP-848 group), without loading offsets: what a reset re-checks.
   */
  async groupState(groupId: string): Promise<GroupState> {
    if (!groupId) {
      throw new Error('groupState needs a group id');
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const broker = await retryWhileCoordinatorLoads(() => this.connection.coordinatorBroker(groupId, topology), () => false);
      const [described] = await this.loader.describeOnCoordinator(broker, null, [groupId], new Map());
      if (described.typed) {
        if (described.typed.error !== undefined) {
          throw new Error(`State of group ${groupId}: ${described.typed.error}`);
        }
        return described.typed.state;
      }
      const answer = described.classic;
      if (!answer) {
        throw new Error(`State of group ${groupId}: ${described.error ?? 'the coordinator did not describe it'}`);
      }
      if (answer.errorCode === GROUP_ID_NOT_FOUND) {
        return 'Dead'; // DescribeGroups v6 (Kafka 4) says so for a group older versions describe as Dead
      }
      if (answer.errorCode !== 0) {
        throw new KafkaErrorCode(answer.errorCode, `State of group ${groupId}`);
      }
      return toGroupState(answer.groupState);
    });
  }

  /** The group's committed offsets (every topic, no-commit entries dropped) from one OffsetFetch to its coordinator. */
  async committedOffsets(groupId: string): Promise<CommittedOffset[]> {
    return this.connection.guard(async () => {
      const result = await this.loader.offsetFetch(groupId, await this.connection.topology());
      if (result.errorCode !== 0) {
        throw new KafkaErrorCode(result.errorCode, `Committed offsets of ${groupId}`);
      }
      const failed = result.offsets.find((o) => o.errorCode !== 0);
      if (failed) {
        throw new KafkaErrorCode(failed.errorCode, `Committed offset of ${failed.topic}-${failed.partition}`);
      }
      return result.offsets.filter((o) => o.offset >= 0);
    });
  }

  /** Admin OffsetCommit (generation -1): only an Empty or unknown group accepts it. */
  async commitOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<PartitionOperationResult[]> {
    if (offsets.length === 0) {
      return [];
    }
    for (const o of offsets) {
      const valid = typeof o.offset === 'bigint' ? o.offset >= 0n && o.offset <= MAX_INT64 : Number.isSafeInteger(o.offset) && o.offset >= 0;
      if (!valid) {
        throw new Error(`Offset for ${o.topic}-${o.partition} must be a non-negative integer (a bigint up to 2^63-1 beyond 2^53), got ${o.offset}`);
      }
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const results = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.connection.coordinatorBroker(groupId, topology);
        return sendRequest(broker, adminOffsetCommitRequest(groupId, offsets));
      }, hasLoadingCode);
      return results.map(({ topic, partition, errorCode }) => (errorCode === 0 ? { topic, partition } : { topic, partition, error: describeErrorCode(errorCode) }));
    });
  }

  /** OffsetDelete: the broker refuses partitions of topics an active group subscribes to. */
  async deleteOffsets(groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeleteOutcome> {
    if (partitions.length === 0) {
      throw new Error('deleteOffsets needs at least one partition');
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const result = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.connection.coordinatorBroker(groupId, topology);
        return sendRequest(broker, offsetDeleteRequest(groupId, topic, partitions));
      }, (r) => hasLoadingCode([r]));
      const outcome: OffsetDeleteOutcome = {
        partitions: result.partitions.map((p) => (p.errorCode === 0 ? { topic: p.topic, partition: p.partition } : { topic: p.topic, partition: p.partition, error: describeErrorCode(p.errorCode) })),
      };
      if (result.errorCode !== 0) {
        outcome.error = describeErrorCode(result.errorCode);
      }
      return outcome;
    });
  }

  /** LeaveGroup by group.instance.id, as kafka-consumer-groups.sh would for static members. */
  async removeStaticMembers(groupId: string, instanceIds: readonly string[]): Promise<MemberRemovalOutcome> {
    if (instanceIds.length === 0) {
      throw new Error('removeStaticMembers needs at least one group.instance.id');
    }
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const result = await retryWhileCoordinatorLoads(async () => {
        const broker = await this.connection.coordinatorBroker(groupId, topology);
        return sendRequest(broker, leaveGroupByInstanceIdRequest(groupId, instanceIds));
      }, (r) => hasLoadingCode([r]));
      const outcome: MemberRemovalOutcome = {
        members: result.members.map((m) => {
          const member: MemberRemovalResult = { groupInstanceId: m.groupInstanceId ?? '', memberId: m.memberId };
          if (m.errorCode !== 0) {
            member.error = describeErrorCode(m.errorCode);
          }
          return member;
        }),
      };
      if (result.errorCode !== 0) {
        outcome.error = describeErrorCode(result.errorCode);
      }
      return outcome;
    });
  }

  /** DeleteGroups batched per coordinator; each group gets its own result. */
  async deleteGroups(groupIds: readonly string[]): Promise<GroupDeletionResult[]> {
    return this.connection.guard(async () => {
      const topology = await this.connection.topology();
      const byCoordinator = groupBy(groupIds, (id) => this.connection.coordinatorId(id, topology));
      const results = await Promise.all(
        [...byCoordinator].map(async ([nodeId, ids]): Promise<GroupDeletionResult[]> => {
          try {
            const answers = await retryWhileCoordinatorLoads(async () => {
              const broker = await this.connection.brokerFor(nodeId, ids[0]);
              return sendRequest(broker, deleteGroupsRequest(ids));
            }, hasLoadingCode);
            return answers.map((a) => (a.errorCode === 0 ? { groupId: a.groupId } : { groupId: a.groupId, error: describeErrorCode(a.errorCode) }));
          } catch (e) {
            const error = this.connection.errorText(e);
            return ids.map((groupId) => ({ groupId, error }));
          }
        }),
      );
      return results.flat();
    });
  }
}
