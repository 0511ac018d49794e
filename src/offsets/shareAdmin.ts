/**
 * A share group seen through the GroupAdmin the reset flow drives: its start offsets stand for committed offsets,
 * AlterShareGroupOffsets for the admin OffsetCommit, and DeleteShareGroupOffsets (whole topics only) for
 * OffsetDelete. So Execute's re-check, the undo record saved before the first write and Undo work for share
 * groups as they do for consumer groups, and every write still re-reads what it previewed.
 */
import type { CommittedOffset, GroupAdmin, OffsetDeletion, PartitionResult, ShareGroupAdmin } from '../model/groupAdmin';
import type { GroupDeletion, StaticMemberRemoval } from '../model/groupAdmin';
import type { GroupState } from '../model/types';
import { startOffsetsAsCommitted } from './shareReset';
import { compareTopicPartitions } from './topicPartitions';

/** The share admin of a cluster, or a clear refusal where the source has no share groups. */
export function requireShareAdmin(admin: GroupAdmin, groupId: string): ShareGroupAdmin {
  if (!admin.share) {
    throw new Error(`"${groupId}" is a share group, and this cluster's admin has no share-group operations`);
  }
  return admin.share;
}

/**
 * Deleting the start offsets of some partitions of a topic: DeleteShareGroupOffsets removes the whole topic's
 * share state, so it is sent only when those partitions are all the group has of that topic; otherwise nothing
 * is deleted and each partition says why.
 */
async function deleteTopicWhenWhole(share: ShareGroupAdmin, groupId: string, topic: string, partitions: readonly number[]): Promise<OffsetDeletion> {
  const held = (await share.shareStartOffsets(groupId)).filter((s) => s.topic === topic).map((s) => s.partition);
  const others = held.filter((p) => !partitions.includes(p));
  if (others.length > 0) {
    const error = `Not deleted: a share group's offsets are deleted per topic, and ${topic} also has state on partition(s) ${others.join(',')} that must stay`;
    return { error, partitions: partitions.map((partition) => ({ topic, partition, error })) };
  }
  const outcome = await share.deleteShareGroupOffsets(groupId, [topic]);
  const error = outcome.topics[0]?.error ?? outcome.error;
  const deletion: OffsetDeletion = { partitions: partitions.map((partition) => (error === undefined ? { topic, partition } : { topic, partition, error })) };
  if (outcome.error !== undefined) {
    deletion.error = outcome.error;
  }
  return deletion;
}

/** The GroupAdmin of `admin`'s cluster for one share group's offsets. */
export function shareGroupOffsetsAdmin(admin: GroupAdmin, groupId: string): GroupAdmin {
  const share = requireShareAdmin(admin, groupId);
  return {
    share,
    now: () => admin.now(),
    groupState: (id): Promise<GroupState | 'missing'> => share.shareGroupState(id),
    committedOffsets: async (id): Promise<CommittedOffset[]> => startOffsetsAsCommitted(await share.shareStartOffsets(id)).sort(compareTopicPartitions),
    partitionCounts: (topics) => admin.partitionCounts(topics),
    logOffsets: (partitions) => admin.logOffsets(partitions),
    offsetForTimestamp: (topic, partition, timestampMs) => admin.offsetForTimestamp(topic, partition, timestampMs),
    commitOffsets: (id, offsets): Promise<PartitionResult[]> => share.alterShareGroupOffsets(id, offsets),
    deleteOffsets: (id, topic, partitions) => deleteTopicWhenWhole(share, id, topic, partitions),
    deleteGroups: (ids): Promise<GroupDeletion[]> => admin.deleteGroups(ids),
    removeStaticMembers: (): Promise<StaticMemberRemoval> => Promise.reject(new Error('Share groups have no static members')),
  };
}
