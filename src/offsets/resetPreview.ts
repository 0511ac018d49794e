/**
 * A planned reset as its preview shows it: each row with the signed move of its offset, and the scenario and
 * scope spelled as kafka-consumer-groups.sh's options. Plain data and text, no editor types: the reset
 * feature builds it (src/reset/) and the preview page renders it.
 */
import type { GroupState } from '../model/types';
import type { ResetRow } from './resetPlan';
import type { ResetRequest, ResetScenario, ResetScope } from './resetRequest';

export interface PreviewRow extends ResetRow {
  /** newOffset - currentOffset, or null when the group has no committed offset there. */
  difference: number | null;
}

export type ResetPreview =
  | { ok: true; request: ResetRequest; groupState: GroupState | 'missing'; rows: PreviewRow[]; warnings: string[] }
  | { ok: false; request: ResetRequest; error: string };

/** The plan's rows with the signed difference of each. */
export function previewRows(rows: readonly ResetRow[]): PreviewRow[] {
  return rows.map((row) => ({ ...row, difference: row.currentOffset === null ? null : row.newOffset - row.currentOffset }));
}

/** "+5", "-3", "0", or "" when there was no committed offset. */
export function formatDifference(difference: number | null): string {
  if (difference === null) {
    return '';
  }
  return difference > 0 ? `+${difference}` : String(difference);
}

/** The scenario as the CLI option spells it, for titles and summaries: "--shift-by -5". */
export function describeScenario(scenario: ResetScenario, fromFilePath?: string): string {
  switch (scenario.kind) {
    case 'to-offset':
      return `--to-offset ${scenario.offset}`;
    case 'shift-by':
      return `--shift-by ${scenario.shift}`;
    case 'to-datetime':
      return `--to-datetime ${scenario.datetime}`;
    case 'by-duration':
      return `--by-duration ${scenario.duration}`;
    case 'from-file':
      return `--from-file ${fromFilePath ?? '(CSV)'}`;
    default:
      return `--${scenario.kind}`;
  }
}

/** The scope as the CLI spells it: "--all-topics" or "--topic a --topic b:0,1". */
export function describeScope(scope: ResetScope): string {
  return scope.kind === 'all-topics' ? '--all-topics' : scope.topics.map((t) => `--topic ${t.partitions ? `${t.topic}:${t.partitions.join(',')}` : t.topic}`).join(' ');
}
