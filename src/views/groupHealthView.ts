/**
 * How a group row shows its lag health and lag in time: the icon and colour of a group that is not OK, "behind 5m"
 * in the description, and the status with its reason in the tooltip. Called from the row descriptor
 * (groupTreeRows.ts) so the rendering stays there; the words are here, next to the health wiring.
 */
import type { GroupSummary, LagHealthStatus } from '../model/types';
import { formatDuration } from '../health/lagEvaluation';
import { escapeMarkdown } from './markdown';

interface RowIcon {
  id: string;
  color?: string;
}

/** The parts of a row descriptor the health changes. */
interface HealthRow {
  description?: string;
  tooltip?: string;
  icon: RowIcon;
}

/** Codicon and theme colour per status; OK keeps the state's icon. */
export const HEALTH_ICONS: Readonly<Record<Exclude<LagHealthStatus, 'OK'>, RowIcon>> = {
  WARNING: { id: 'warning', color: 'problemsWarningIcon.foreground' },
  STALLED: { id: 'debug-pause', color: 'charts.orange' },
  STOPPED: { id: 'debug-stop', color: 'errorForeground' },
  REWIND: { id: 'history', color: 'charts.purple' },
  ERROR: { id: 'error', color: 'errorForeground' },
};

/** The row with the group's health and lag in time, when the tree evaluated them; unchanged otherwise. */
export function withGroupHealth<T extends HealthRow>(summary: GroupSummary, row: T): T {
  const { health, maxLagInTimeMs } = summary;
  if (health === undefined && maxLagInTimeMs == null) {
    return row;
  }
  const behind = maxLagInTimeMs != null && maxLagInTimeMs > 0 ? `behind ${formatDuration(maxLagInTimeMs)}` : undefined;
  const status = health !== undefined && health.status !== 'OK' ? health.status : undefined;
  const extra = [status, behind].filter((part) => part !== undefined);
  const lines: string[] = [];
  if (health !== undefined) {
    lines.push(`${escapeMarkdown(`Health: ${health.status}`)}  `, `${escapeMarkdown(health.reason)}  `);
  }
  if (maxLagInTimeMs != null) {
    lines.push(`${escapeMarkdown(`Largest lag in time: ${formatDuration(maxLagInTimeMs)} (age of the oldest unconsumed record)`)}  `);
  }
  return {
    ...row,
    description: extra.length ? [row.description, ...extra].filter((p) => p).join(' · ') : row.description,
    tooltip: [row.tooltip ?? '', '', ...lines].join('\n'),
    icon: status === undefined ? row.icon : HEALTH_ICONS[status],
  };
}
