/**
 * What every row builder shares: the descriptor a row becomes, number and label formats, and the
 * contextValue segments menus match on. No editor types.
 */
import type { GroupSummary, Member, PartitionOffsets } from '../model/types';
import type { SourceKind } from './treeNodes';

/** A codicon id and an optional theme colour id. */
export interface IconDescriptor {
  id: string;
  color?: string;
}

export interface NodeDescriptor {
  label: string;
  description?: string;
  /** Markdown; every value from the cluster is escaped. */
  tooltip?: string;
  contextValue: string;
  icon: IconDescriptor;
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** Command run when the row is clicked; the node itself is its argument. */
  command?: { id: string; title: string };
}

const numberFormat = new Intl.NumberFormat('en-US');

/** Thousands-grouped, or "-" when unknown, as `kafka-consumer-groups.sh` prints missing values. */
export function formatCount(value: number | null | undefined): string {
  return value == null ? '-' : numberFormat.format(value);
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "sim" or "kafka": the contextValue segment menus use to offer simulator-only commands. */
export function kindSegment(kind: SourceKind): string {
  return kind === 'simulator' ? 'sim' : 'kafka';
}

/** The first line of a message, shortened for a row's description. */
export function firstLine(message: string, max = 120): string {
  const line = message.split('\n', 1)[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Sum of the known lags; null when none is known. */
export function sumLag(partitions: readonly PartitionOffsets[]): number | null {
  const known = partitions.filter((p) => p.lag != null);
  return known.length ? known.reduce((sum, p) => sum + (p.lag ?? 0), 0) : null;
}

/** How each group type is named in rows and tooltips. */
export const GROUP_TYPE_NAMES: Readonly<Record<GroupSummary['groupType'], string>> = {
  classic: 'classic',
  consumer: 'consumer (KIP-848)',
  share: 'share',
  streams: 'streams',
  simple: 'simple (offsets only)',
  unknown: 'unknown type',
};

/** Kafka member ids are `clientId-UUID` (or a bare UUID for KIP-848): the first block is enough to tell members apart. */
export function shortMemberId(memberId: string, clientId: string): string {
  const rest = clientId && memberId.startsWith(`${clientId}-`) ? memberId.slice(clientId.length + 1) : memberId;
  return rest.length > 8 ? rest.slice(0, 8) : rest;
}

/**
 * A member's row label, as the timeline's lanes name members: a static member by its instance id, a
 * dynamic one by client id and a short member id, so two members with one client id read apart.
 */
export function memberLabel(member: Pick<Member, 'memberId' | 'clientId' | 'groupInstanceId'>): string {
  if (member.groupInstanceId != null) {
    return member.clientId ? `${member.clientId} · ${member.groupInstanceId}` : member.groupInstanceId;
  }
  return member.clientId ? `${member.clientId} · ${shortMemberId(member.memberId, member.clientId)}` : member.memberId;
}
