/**
 * Health of every listed group: each load of a cluster records one lag sample per group (its partitions' committed
 * and log end offsets, and lag in time when read) into one bounded LagSampleStore, evaluates the group over the
 * sliding window (Burrow-style, `src/health/lagEvaluation.ts`) and attaches the result to its summary, so the row,
 * the filter (`health:`), the sort by lag in time and the status bar read it. Needs a source that lists its groups
 * with their offsets (`ClusterSource.listGroupDetails`); a source that cannot gets no health, never a wrong one.
 */
import { withTransactionBlocks } from '../health/transactionBlock';
import type { ClusterSource } from '../model/clusterSource';
import type { GroupDetail, GroupSummary } from '../model/types';
import { DEFAULT_LAG_EVALUATION_OPTIONS, evaluateGroup, withHealth, type LagEvaluationOptions } from '../health/lagEvaluation';
import { maxLagInTime } from '../health/lagInTime';
import { summaryOfDetail } from './groupDetailRounds';
import { groupKey, LagSampleStore, sampleFromOffsets, type GroupSeries, type LagSampleStoreOptions } from '../health/lagSamples';

export interface GroupHealthSettings {
  evaluation: LagEvaluationOptions;
  /** Bytes the samples of all groups may hold. */
  maxBytes: number;
}

export const DEFAULT_GROUP_HEALTH_SETTINGS: Readonly<GroupHealthSettings> = {
  evaluation: DEFAULT_LAG_EVALUATION_OPTIONS,
  maxBytes: 64 * 1024 * 1024,
};


export class GroupHealthTracker {
  private store: LagSampleStore;
  private settings: GroupHealthSettings;

  constructor(private readonly now: () => number, settings: GroupHealthSettings = DEFAULT_GROUP_HEALTH_SETTINGS) {
    this.settings = settings;
    this.store = new LagSampleStore(this.storeOptions());
  }

  /** New thresholds apply at the next load; a new memory budget keeps the samples taken so far only if they fit. */
  configure(settings: GroupHealthSettings): void {
    const budgetChanged = settings.maxBytes !== this.settings.maxBytes;
    this.settings = settings;
    if (budgetChanged) {
      this.store = new LagSampleStore(this.storeOptions());
    }
  }

  /** The store the dashboard draws from. */
  series(sourceId: string, groupId: string): GroupSeries | undefined {
    return this.store.series(groupKey(sourceId, groupId));
  }

  get sampleBytes(): number {
    return this.store.bytes;
  }

  /**
   * One load of a cluster's groups: with details, every group is sampled and evaluated; otherwise the plain list.
   * Sampling is best effort: a sample the store refuses (a clock that went back) leaves the evaluation as it was.
   */
  async load(source: ClusterSource): Promise<GroupSummary[]> {
    if (!source.listGroupDetails) {
      return source.listGroups();
    }
    return this.evaluateDetails(source.id, await source.listGroupDetails());
  }

  /** Samples and evaluates loaded details (all of a cluster's, or one batch of a two-phase load). */
  evaluateDetails(sourceId: string, details: readonly GroupDetail[]): GroupSummary[] {
    const now = this.now();
    this.store.sweep(now);
    return details.map((detail) => this.evaluate(sourceId, detail, now));
  }

  /** Forgets the samples of clusters that were removed. */
  forgetSourcesNotIn(sourceIds: ReadonlySet<string>): void {
    for (const key of [...this.store.keys()]) {
      if (!sourceIds.has(key.slice(0, key.indexOf('\u0000')))) {
        this.store.forget(key);
      }
    }
  }

  private evaluate(sourceId: string, detail: GroupDetail, now: number): GroupSummary {
    const summary = summaryOfDetail(detail);
    const key = groupKey(sourceId, detail.groupId);
    if (!detail.error) {
      this.store.record(key, now, sampleFromOffsets(detail.offsets));
    }
    const evaluation = evaluateGroup(withTransactionBlocks(this.store.series(key), detail.offsets), now, this.settings.evaluation, detail.error);
    const lagInTime = maxLagInTime(detail.offsets);
    return withHealth({ ...summary, ...(lagInTime === null ? {} : { maxLagInTimeMs: lagInTime }) }, evaluation);
  }

  private storeOptions(): Partial<LagSampleStoreOptions> {
    return { maxBytes: this.settings.maxBytes, denseMs: Math.max(this.settings.evaluation.windowMs, 0) };
  }
}
