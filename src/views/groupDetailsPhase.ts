/**
 * The details phase of a source that lists its groups before their details (listGroupsOnly): once the
 * rows are shown, their figures are loaded batch by batch, the opened and visible groups first
 * (groupDetailRounds.ts plans the batches), and after each batch only the rows whose figures changed are
 * reported (groupRowUpdates.ts). A failed batch ends the round: the rows keep what they show, and the
 * next refresh tries again.
 */
import type { ClusterSource } from '../model/clusterSource';
import type { GroupDetail, GroupSummary } from '../model/types';
import { errorMessage } from '../protocol/errors';
import { DEFAULT_DETAIL_BATCH_LIMITS, detailBatches, runBatches, summaryOfDetail, withDetails, type DetailBatchLimits } from './groupDetailRounds';
import type { GroupRowUpdates } from './groupRowUpdates';
import type { ClusterLoadState, ClusterNode, GroupNode } from './treeNodes';

export type TwoPhaseSource = ClusterSource & Required<Pick<ClusterSource, 'listGroupsOnly' | 'loadGroupDetails'>>;

export function isTwoPhase(source: ClusterSource): source is TwoPhaseSource {
  return typeof source.listGroupsOnly === 'function' && typeof source.loadGroupDetails === 'function';
}

/** What the details phase needs of the tree model, which implements it. */
export interface DetailsPhaseHost {
  readonly rows: GroupRowUpdates;
  /** The group rows of a source, by group id. */
  groupNodes(sourceId: string): ReadonlyMap<string, GroupNode> | undefined;
  /** Whether this node is still the source's cluster row (the source was not removed or replaced). */
  isCurrent(node: ClusterNode): boolean;
  arranged(groups: readonly GroupSummary[]): GroupSummary[];
  /** Tells the editor this cluster row changed. */
  emit(node: ClusterNode): void;
  /** A batch of details to rows (the health tracker samples them); the summaries by default. */
  summarizeDetails?: (source: ClusterSource, details: GroupDetail[]) => GroupSummary[];
  detailBatchLimits?: DetailBatchLimits;
  logError?: (message: string) => void;
}

/**
 * The details phase for a loaded cluster: a bounded number of batches at a time, the opened and visible
 * groups first; after each, the rows whose figures changed are reported.
 */
export async function loadDetails(node: ClusterNode, source: TwoPhaseSource, host: DetailsPhaseHost): Promise<void> {
  if (node.state.status !== 'loaded') {
    return;
  }
  const opened = new Set([...(host.groupNodes(node.sourceId)?.values() ?? [])].filter((g) => host.rows.isOpened(g)).map((g) => g.summary.groupId));
  const groups = node.state.groups;
  const limits = host.detailBatchLimits ?? DEFAULT_DETAIL_BATCH_LIMITS;
  await runBatches(detailBatches({ groups, shown: host.arranged(groups), opened }, limits), limits.inFlight, async (ids) => {
    let summaries: GroupSummary[];
    try {
      const details = await source.loadGroupDetails(ids);
      summaries = host.summarizeDetails ? host.summarizeDetails(source, details) : details.map(summaryOfDetail);
    } catch (e) {
      host.logError?.(`Loading group details of ${source.label} failed: ${errorMessage(e)}`);
      return false;
    }
    const before: ClusterLoadState = node.state;
    if (!host.isCurrent(node) || before.status !== 'loaded') {
      return false;
    }
    node.state = { ...before, groups: withDetails(before.groups, summaries) };
    const changed = host.rows.changedGroupsOnly(node, before, host.groupNodes(node.sourceId), new Set(ids));
    if (changed) {
      await host.rows.report(changed);
    } else {
      host.emit(node);
    }
    return true;
  });
}
