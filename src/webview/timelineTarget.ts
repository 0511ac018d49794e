/**
 * What the open-timeline command needs to know about the group it was invoked on. Tree group nodes
 * (contextValue `kgl:group:…`) carry `sourceId` and `summary.groupId`; callers may also pass the
 * plain `{ clusterId, groupId }` form.
 */
export interface TimelineTarget {
  clusterId: string;
  groupId: string;
}

/** The shape of the tree's group node this command reads. */
export interface TimelineGroupNodeArg {
  sourceId: string;
  summary: { groupId: string };
}

export function timelineTargetOf(arg: unknown): TimelineTarget | undefined {
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const value = arg as Partial<TimelineTarget> & Partial<{ sourceId: unknown; summary: { groupId?: unknown } | null }>;
  if (typeof value.clusterId === 'string' && typeof value.groupId === 'string') {
    return { clusterId: value.clusterId, groupId: value.groupId };
  }
  if (typeof value.sourceId === 'string' && typeof value.summary === 'object' && value.summary !== null && typeof value.summary.groupId === 'string') {
    return { clusterId: value.sourceId, groupId: value.summary.groupId };
  }
  return undefined;
}

/** A file name for exported events: the group id with characters no file system accepts replaced. */
export function exportFileName(groupId: string): string {
  const safe = [...groupId].map((ch) => (ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('').slice(0, 100) || 'group';
  return `${safe}-rebalances.json`;
}
