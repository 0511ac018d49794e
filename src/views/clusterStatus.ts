/**
 * The words of the status bar item of a cluster: how many of its groups are not OK, the worst lag in time, and the
 * group a click reveals. Pure (no `vscode`), so it is tested in plain Node.
 */
import type { GroupSummary } from '../model/types';
import { formatDuration, HEALTH_SEVERITY } from '../health/lagEvaluation';

export interface ClusterStatus {
  text: string;
  tooltip: string;
  /** The group a click reveals: the worst health, ties to the largest lag in time, then lag; none when all are OK. */
  worstGroupId: string | undefined;
}

function worse(a: GroupSummary, b: GroupSummary): boolean {
  const severity = (g: GroupSummary) => (g.health ? HEALTH_SEVERITY[g.health.status] : 0);
  if (severity(a) !== severity(b)) {
    return severity(a) > severity(b);
  }
  if ((a.maxLagInTimeMs ?? -1) !== (b.maxLagInTimeMs ?? -1)) {
    return (a.maxLagInTimeMs ?? -1) > (b.maxLagInTimeMs ?? -1);
  }
  return (a.totalLag ?? -1) > (b.totalLag ?? -1);
}

export function clusterStatus(label: string, groups: readonly GroupSummary[]): ClusterStatus {
  const notOk = groups.filter((g) => g.health !== undefined && g.health.status !== 'OK');
  let worst: GroupSummary | undefined;
  for (const group of groups) {
    if (worst === undefined || worse(group, worst)) {
      worst = group;
    }
  }
  const lagInTimes = groups.map((g) => g.maxLagInTimeMs).filter((ms): ms is number => ms != null);
  const worstTime = lagInTimes.length ? Math.max(...lagInTimes) : null;
  const icon = notOk.length ? '$(warning)' : '$(pass)';
  const timeText = worstTime !== null && worstTime > 0 ? ` · behind ${formatDuration(worstTime)}` : '';
  const lines = [
    `${label}: ${notOk.length} of ${groups.length} ${groups.length === 1 ? 'group' : 'groups'} not OK`,
    ...(worstTime === null ? [] : [`Largest lag in time: ${formatDuration(worstTime)}`]),
    ...(worst?.health && worst.health.status !== 'OK' ? [`Worst: ${worst.groupId} (${worst.health.status}: ${worst.health.reason})`] : []),
    ...(worst ? ['Click to show the worst group'] : []),
  ];
  return {
    text: `${icon} ${notOk.length}/${groups.length} not OK${timeText}`,
    tooltip: lines.join('\n'),
    worstGroupId: groups.length ? worst?.groupId : undefined,
  };
}
