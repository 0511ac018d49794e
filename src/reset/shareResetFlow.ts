/**
 * The preview of a share group's reset: the facts kafka-share-groups.sh reads (ShareGroupDescribe's state,
 * DescribeShareGroupOffsets' start offsets, the partitions of the named topics, ListOffsets) planned with
 * planShareReset. Execute and Undo are resetFlow's own, driven through shareGroupOffsetsAdmin, so they re-check
 * the start offsets the preview showed exactly as they re-check a consumer group's committed offsets.
 */
import type { GroupAdmin } from '../model/groupAdmin';
import type { ResetRequest } from '../offsets/resetRequest';
import { previewRows, type ResetPreview } from '../offsets/resetPreview';
import { resetPartitions } from '../offsets/resetPlan';
import { requireShareAdmin } from '../offsets/shareAdmin';
import { planShareReset, scopeTopics, shareGroupNotEmptyError, shareScenarioError } from '../offsets/shareReset';
import { throwIfCancelled, type CancelSignal } from './resetFlow';

/** The dry run of `kafka-share-groups.sh --reset-offsets`; `admin` is the cluster's (or the share view of it). */
export async function previewShareReset(admin: GroupAdmin, request: ResetRequest, signal?: CancelSignal): Promise<ResetPreview> {
  const fail = (error: string): ResetPreview => ({ ok: false, request, error });
  const share = requireShareAdmin(admin, request.groupId);
  const unsupported = shareScenarioError(request.scenario.kind);
  if (unsupported) {
    return fail(unsupported);
  }
  const groupState = await share.shareGroupState(request.groupId);
  const refusal = shareGroupNotEmptyError(request.groupId, groupState);
  if (refusal) {
    return fail(refusal);
  }
  throwIfCancelled(signal);
  const startOffsets = await share.shareStartOffsets(request.groupId);
  const partitionsPerTopic = await admin.partitionCounts(request.scope.kind === 'topics' ? scopeTopics(request.scope.topics) : []);
  // --all-topics: every share-partition the group has, a start offset or not.
  const scope = resetPartitions(request, { committed: startOffsets.map(({ topic, partition }) => ({ topic, partition, offset: 0 })), partitionsPerTopic });
  if (!scope.ok) {
    return fail(scope.error);
  }
  throwIfCancelled(signal);
  // Partitions that do not exist are refused by the planner; ask the log only about the others.
  const existing = scope.partitions.filter(({ topic, partition }) => request.scenario.kind === 'from-file' || request.scope.kind === 'all-topics' || partition < (partitionsPerTopic.get(topic) ?? 0));
  const logOffsets = existing.length > 0 ? await admin.logOffsets(existing) : [];
  throwIfCancelled(signal);
  const plan = await planShareReset(request, {
    groupState,
    startOffsets,
    partitionsPerTopic,
    logOffsets,
    offsetForTimestamp: (topic, partition, timestampMs) => {
      throwIfCancelled(signal);
      return admin.offsetForTimestamp(topic, partition, timestampMs);
    },
    now: admin.now(),
  });
  return plan.ok ? { ok: true, request, groupState, rows: previewRows(plan.rows), warnings: plan.warnings } : fail(plan.error);
}
