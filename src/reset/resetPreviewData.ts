/** Turns a reset preview and its execution results into the plain strings the preview page shows. */
import type { PartitionResult } from '../model/groupAdmin';
import type { ResetRow } from '../offsets/resetPlan';
import { describeScenario, describeScope, formatDifference, type PreviewRow, type ResetPreview } from '../offsets/resetPreview';
import type { PreviewData, ResultRowData } from './resetPreviewProtocol';

export function toPreviewData(preview: Extract<ResetPreview, { ok: true }>, cluster: string, fromFilePath?: string): PreviewData {
  const scenario = preview.request.scenario;
  return {
    groupId: preview.request.groupId,
    cluster,
    groupState: preview.groupState === 'missing' ? 'does not exist (a reset creates it)' : preview.groupState,
    scenario: describeScenario(scenario, fromFilePath),
    scope: scenario.kind === 'from-file' ? 'the rows of the file' : describeScope(preview.request.scope),
    rows: preview.rows.map((row: PreviewRow) => ({
      topic: row.topic,
      partition: row.partition,
      current: row.currentOffset === null ? '-' : String(row.currentOffset),
      next: String(row.newOffset),
      difference: formatDifference(row.difference),
      warning: row.warning ?? '',
    })),
    warnings: preview.warnings,
  };
}

/** One result row per planned partition: "committed n" or the broker's reason. */
export function toResultRows(rows: readonly ResetRow[], results: readonly PartitionResult[]): ResultRowData[] {
  return rows.map((row) => {
    const result = results.find((r) => r.topic === row.topic && r.partition === row.partition);
    const error = result ? result.error : 'The broker did not answer for this partition';
    return error === undefined
      ? { topic: row.topic, partition: row.partition, ok: true, status: `committed ${row.newOffset}` }
      : { topic: row.topic, partition: row.partition, ok: false, status: error };
  });
}
