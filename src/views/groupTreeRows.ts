/**
 * Turns tree nodes into what a tree row shows: label, description, tooltip markdown, contextValue and icon.
 * No editor types, so every string the user sees is unit-tested in plain Node; the provider only copies
 * these descriptors onto TreeItems.
 */
import type { GroupState, GroupSummary, Member, PartitionOffsets } from '../model/types';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';
import { markdownFields } from './markdown';
import { withGroupHealth } from './groupHealthView';
import { COMMANDS } from '../constants';
import type {
  ClusterNode,
  ConsumerNode,
  GroupNode,
  MemberNode,
  MessageNode,
  NextRetry,
  PartitionNode,
  SourceKind,
  StoppedConsumersNode,
  TreeNode,
  UnassignedNode,
} from './treeNodes';

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

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "sim" or "kafka": the contextValue segment menus use to offer simulator-only commands. */
function kindSegment(kind: SourceKind): string {
  return kind === 'simulator' ? 'sim' : 'kafka';
}

const REBALANCING_STATES: ReadonlySet<GroupState> = new Set(['PreparingRebalance', 'CompletingRebalance', 'Assigning', 'Reconciling']);

export function groupStateIcon(state: GroupState): IconDescriptor {
  if (state === 'Stable') {
    return { id: 'pass', color: 'testing.iconPassed' };
  }
  if (REBALANCING_STATES.has(state)) {
    return { id: 'sync', color: 'charts.yellow' };
  }
  if (state === 'Empty') {
    return { id: 'circle-outline', color: 'disabledForeground' };
  }
  if (state === 'Dead') {
    return { id: 'error', color: 'errorForeground' };
  }
  return { id: 'question' };
}

function describeCluster(node: ClusterNode): NodeDescriptor {
  const kind = kindSegment(node.sourceKind);
  const base = { label: node.label, collapsible: 'expanded' as const };
  const kindText = node.sourceKind === 'simulator' ? 'simulator' : 'Kafka';
  const icon = { id: node.sourceKind === 'simulator' ? 'beaker' : 'server-environment' };
  switch (node.state.status) {
    case 'idle':
    case 'loading':
      return { ...base, description: `${kindText} · loading…`, contextValue: `kgl:cluster:${kind}:loading`, icon };
    case 'error': {
      const retry = retryTexts(node.state.nextRetry);
      return {
        ...base,
        // The reason itself, so "connection refused" or "authentication failed" reads without a hover.
        description: `${kindText} · ${firstLine(node.state.message)}${retry ? ` · ${retry.short}` : ''}`,
        tooltip: markdownFields(node.label, [['Error', node.state.message], ...(retry ? [['Next attempt', retry.long] as [string, string]] : [])]),
        contextValue: `kgl:cluster:${kind}:error`,
        icon: { id: 'error', color: 'errorForeground' },
      };
    }
    case 'loaded': {
      const { info, groups } = node.state;
      const brokers = info.brokers.map((b) => `${b.nodeId} ${b.host}:${b.port}`).join(', ');
      return {
        ...base,
        description: `${kindText} · ${plural(info.brokers.length, 'broker')} · ${plural(groups.length, 'group')}`,
        tooltip: markdownFields(node.label, [
          ['Cluster id', info.clusterId],
          ['Controller', info.controllerId == null ? '-' : String(info.controllerId)],
          ['Brokers', brokers || '-'],
        ]),
        contextValue: `kgl:cluster:${kind}:loaded`,
        icon,
      };
    }
  }
}

/** hh:mm:ss in local time: an absolute time stays true on a row that is not re-rendered every second. */
export function formatClockTime(epochMs: number): string {
  const date = new Date(epochMs);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** What a failed cluster's row says about its next attempt: in the description (short) and the tooltip (long). */
function retryTexts(nextRetry: NextRetry | undefined): { short: string; long: string } | undefined {
  if (!nextRetry) {
    return undefined;
  }
  if (nextRetry.kind === 'user') {
    return {
      short: 'no automatic retry',
      long: 'only when you retry, refresh or edit the connection: a rejected login is not retried automatically, so the account is not locked',
    };
  }
  const at = formatClockTime(nextRetry.at);
  return { short: `retry at ${at}`, long: `automatic retry at ${at} (Retry tries now)` };
}

/** "Stable · 3 members · lag 1,204". */
export function groupDescription(summary: GroupSummary): string {
  if (summary.error) {
    return `${summary.state} · error`;
  }
  const pending = summary.pendingTransactionalPartitions ? ` · ${plural(summary.pendingTransactionalPartitions, 'pending transactional offset')}` : '';
  return `${summary.state} · ${plural(summary.memberCount, 'member')} · lag ${formatCount(summary.totalLag)}${pending}`;
}

function groupContextValue(kind: SourceKind, summary: GroupSummary): string {
  let value = `kgl:group:${kindSegment(kind)}:${summary.state}`;
  if (summary.error) {
    value += ':error';
  }
  if (summary.totalLag != null && summary.totalLag > 0) {
    value += ':hasLag';
  }
  return value;
}

function describeGroup(node: GroupNode): NodeDescriptor {
  const s = node.summary;
  const coordinator = s.coordinator ? `${s.coordinator.nodeId} ${s.coordinator.host}:${s.coordinator.port}` : '-';
  const fields: Array<[string, string]> = [
    ['State', s.state],
    ['Assignor', s.assignor || '-'],
    // A classic group's generation on a real cluster is known only from its __consumer_offsets records:
    // no row rather than a wrong figure.
    ...(s.generation === undefined ? [] : [['Generation', String(s.generation)] as [string, string]]),
    ['Coordinator', coordinator],
    ['Protocol type', s.protocolType || '-'],
    ['Group type', s.groupType],
  ];
  if (s.error) {
    fields.push(['Error', s.error]);
  }
  return {
    label: s.groupId,
    description: groupDescription(s),
    tooltip: markdownFields(s.groupId, fields),
    contextValue: groupContextValue(node.sourceKind, s),
    icon: s.error ? { id: 'warning', color: 'problemsWarningIcon.foreground' } : groupStateIcon(s.state),
    collapsible: 'collapsed',
  };
}

/** Segment naming what a simulated consumer can do: running, paused, stopped, crashed, or "unmatched". */
function consumerStatusSegment(consumer: SimulatedConsumerInfo | undefined): string {
  return consumer ? consumer.status : 'unmatched';
}

/** "stopped (FENCED_INSTANCE_ID)" when a fatal error stopped it, else just the status. */
function consumerStatusText(consumer: SimulatedConsumerInfo): string {
  return consumer.error ? `${consumer.status} (${consumer.error})` : consumer.status;
}

function membershipSegment(groupInstanceId: string | null): 'static' | 'dynamic' {
  return groupInstanceId == null ? 'dynamic' : 'static';
}

export function memberDescription(member: Member, consumer?: SimulatedConsumerInfo): string {
  const parts: string[] = [];
  if (member.groupInstanceId != null) {
    parts.push(`static: ${member.groupInstanceId}`);
  }
  if (member.clientHost) {
    parts.push(member.clientHost);
  }
  if (consumer && consumer.status !== 'running') {
    parts.push(consumer.status);
  }
  return parts.join(' · ');
}

function describeMember(node: MemberNode): NodeDescriptor {
  const m = node.member;
  const membership = membershipSegment(m.groupInstanceId);
  let contextValue = `kgl:member:${kindSegment(node.sourceKind)}:${membership}`;
  if (node.sourceKind === 'simulator') {
    contextValue += `:${consumerStatusSegment(node.consumer)}`;
  }
  const fields: Array<[string, string]> = [
    ['Member id', m.memberId],
    ['Group instance id', m.groupInstanceId ?? '- (dynamic member)'],
    ['Client id', m.clientId || '-'],
    ['Host', m.clientHost || '-'],
    ['Subscription', m.subscription.length ? m.subscription.join(', ') : '-'],
    ['Assigned partitions', String(m.assignment.length)],
  ];
  if (node.consumer) {
    fields.push(['Simulated consumer', consumerStatusText(node.consumer)]);
  }
  const crashedOrPaused = node.consumer && node.consumer.status !== 'running';
  return {
    label: m.clientId || m.memberId,
    description: memberDescription(m, node.consumer),
    tooltip: markdownFields(m.clientId || m.memberId, fields),
    contextValue,
    icon: { id: membership === 'static' ? 'pinned' : 'account', color: crashedOrPaused ? 'charts.yellow' : undefined },
    collapsible: node.partitions.length ? 'collapsed' : 'none',
  };
}

/**
 * "committed 120 · end 150 · lag 30"; read_committed groups add the lag against the last stable
 * offset ("· LSO lag 0"), lag that is only transaction markers says so, and a pending
 * sendOffsetsToTransaction offset is shown.
 */
export function partitionDescription(p: PartitionOffsets): string {
  const markerNote = (lag: number | null | undefined) =>
    p.markerOnlyLag && lag ? ` (${lag === 1 ? 'transaction marker only' : 'transaction markers only'})` : '';
  const parts = [`committed ${formatCount(p.committedOffset)}`, `end ${formatCount(p.logEndOffset)}`];
  if (p.lastStableLag != null) {
    parts.push(`lag ${formatCount(p.lag)}`, `LSO lag ${formatCount(p.lastStableLag)}${markerNote(p.lastStableLag)}`);
  } else {
    parts.push(`lag ${formatCount(p.lag)}${markerNote(p.lag)}`);
  }
  if (p.pendingTransactionalOffset != null) {
    parts.push(`pending txn ${formatCount(p.pendingTransactionalOffset)}`);
  }
  return parts.join(' · ');
}

/** Behind means records left to read: against the LSO for read_committed groups, and not just markers. */
function isBehind(p: PartitionOffsets): boolean {
  const lag = p.lastStableLag ?? p.lag;
  return lag != null && lag > 0 && !p.markerOnlyLag;
}

export function partitionLabel(p: { topic: string; partition: number }): string {
  return `${p.topic}-${p.partition}`;
}

function describePartition(node: PartitionNode): NodeDescriptor {
  const p = node.offsets;
  const hasLag = isBehind(p);
  const fields: Array<[string, string]> = [
    ['Topic', p.topic],
    ['Partition', String(p.partition)],
    ['Committed offset', formatCount(p.committedOffset)],
    ['Log start offset', formatCount(p.logStartOffset)],
    ['Log end offset', formatCount(p.logEndOffset)],
  ];
  if (p.lastStableOffset !== undefined) {
    fields.push(['Last stable offset', formatCount(p.lastStableOffset)]);
  }
  fields.push(['Lag', formatCount(p.lag)]);
  if (p.lastStableLag != null) {
    fields.push(['Lag to last stable offset (read_committed)', formatCount(p.lastStableLag)]);
  }
  if (p.markerOnlyLag) {
    fields.push(['Remaining lag', 'transaction markers only: nothing left to read']);
  }
  if (p.pendingTransactionalOffset != null) {
    fields.push(['Pending transactional offset', formatCount(p.pendingTransactionalOffset)]);
  }
  fields.push(['Owner', p.ownerMemberId ?? '-']);
  if (p.commitMetadata) {
    fields.push(['Commit metadata', p.commitMetadata]);
  }
  return {
    label: partitionLabel(p),
    description: partitionDescription(p),
    tooltip: markdownFields(partitionLabel(p), fields),
    contextValue: `kgl:partition:${node.assigned ? 'assigned' : 'unassigned'}${hasLag ? ':hasLag' : ''}`,
    icon: { id: 'symbol-array', color: hasLag ? 'charts.orange' : undefined },
    collapsible: 'none',
  };
}

function sumLag(partitions: PartitionOffsets[]): number | null {
  const known = partitions.filter((p) => p.lag != null);
  return known.length ? known.reduce((sum, p) => sum + (p.lag ?? 0), 0) : null;
}

/** A row that only groups other rows: its tooltip explains what is inside. */
function folderDescriptor(label: string, description: string, meaning: string, contextValue: string, iconId: string): NodeDescriptor {
  return {
    label,
    description,
    tooltip: markdownFields(label, [['Meaning', meaning]]),
    contextValue,
    icon: { id: iconId },
    collapsible: 'collapsed',
  };
}

function describeUnassigned(node: UnassignedNode): NodeDescriptor {
  return folderDescriptor(
    'Unassigned committed partitions',
    `${plural(node.partitions.length, 'partition')} · lag ${formatCount(sumLag(node.partitions))}`,
    'The group has committed offsets for these partitions but no current member owns them.',
    'kgl:unassigned',
    'circle-slash',
  );
}

function describeStoppedConsumers(node: StoppedConsumersNode): NodeDescriptor {
  return folderDescriptor(
    'Stopped consumers',
    plural(node.consumers.length, 'consumer'),
    'Simulated consumers of this group that are stopped or crashed and no longer members.',
    'kgl:stoppedConsumers',
    'debug-stop',
  );
}

function describeConsumer(node: ConsumerNode): NodeDescriptor {
  const c = node.consumer;
  const membership = membershipSegment(c.groupInstanceId);
  const descriptionParts: string[] = [consumerStatusText(c)];
  if (c.groupInstanceId != null) {
    descriptionParts.unshift(`static: ${c.groupInstanceId}`);
  }
  return {
    label: c.clientId || c.handle,
    description: descriptionParts.join(' · '),
    tooltip: markdownFields(c.clientId || c.handle, [
      ['Client id', c.clientId || '-'],
      ['Group instance id', c.groupInstanceId ?? '- (dynamic member)'],
      ['Status', consumerStatusText(c)],
      ['Simulator handle', c.handle],
    ]),
    contextValue: `kgl:consumer:sim:${membership}:${c.status}`,
    icon: { id: membership === 'static' ? 'pinned' : 'account', color: 'disabledForeground' },
    collapsible: 'none',
  };
}

function describeMessage(node: MessageNode): NodeDescriptor {
  const icons: Record<MessageNode['severity'], IconDescriptor> = {
    info: { id: 'info' },
    loading: { id: 'loading~spin' },
    error: { id: 'error', color: 'errorForeground' },
  };
  const retry = node.retrySourceId !== undefined;
  return {
    label: node.text,
    description: retry ? 'click to retry' : undefined,
    tooltip: markdownFields(node.severity === 'error' ? 'Error' : 'Kafka Group Lens', [['Message', node.text]]),
    contextValue: `kgl:message:${node.severity}${retry ? ':retry' : ''}`,
    icon: icons[node.severity],
    collapsible: 'none',
    command: retry ? { id: COMMANDS.retry, title: 'Retry' } : undefined,
  };
}

export function describeNode(node: TreeNode): NodeDescriptor {
  switch (node.kind) {
    case 'cluster':
      return describeCluster(node);
    case 'group':
      return withGroupHealth(node.summary, describeGroup(node));
    case 'member':
      return describeMember(node);
    case 'partition':
      return describePartition(node);
    case 'unassigned':
      return describeUnassigned(node);
    case 'stoppedConsumers':
      return describeStoppedConsumers(node);
    case 'consumer':
      return describeConsumer(node);
    case 'message':
      return describeMessage(node);
  }
}

/** The first line of a message, shortened for a row's description. */
function firstLine(message: string, max = 120): string {
  const line = message.split('\n', 1)[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
