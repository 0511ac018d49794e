/**
 * Turns tree nodes into what a tree row shows: label, description, tooltip markdown, contextValue and icon.
 * No editor types, so every string the user sees is unit-tested in plain Node; the provider only copies
 * these descriptors onto TreeItems.
 */
import { describeTransaction, describeTransactions } from './transactionRows';
import type { GroupState, GroupSummary } from '../model/types';
import { markdownFields } from './markdown';
import { withGroupHealth } from './groupHealthView';
import { COMMANDS } from '../constants';
import { describeConsumer, describeInfo, describeMember, describePartition, describeStoppedConsumers, describeTopic, describeUnassigned } from './memberRows';
import { GROUP_TYPE_NAMES, firstLine, formatCount, kindSegment, plural, type IconDescriptor, type NodeDescriptor } from './rowFormat';
import type { ClusterNode, GroupNode, MessageNode, NextRetry, SourceKind, TreeNode } from './treeNodes';

const REBALANCING_STATES: ReadonlySet<GroupState> = new Set(['PreparingRebalance', 'CompletingRebalance', 'Assigning', 'Reconciling']);

/** Each state's theme colour on the group's type icon: the same for every type that has the state. */
export function groupStateColor(state: GroupState): string | undefined {
  if (state === 'Stable') {
    return 'testing.iconPassed';
  }
  if (REBALANCING_STATES.has(state)) {
    return 'charts.yellow';
  }
  if (state === 'Empty') {
    return 'disabledForeground';
  }
  if (state === 'Dead') {
    return 'errorForeground';
  }
  if (state === 'NotReady') {
    // A streams group whose internal topics are missing: it cannot run until they exist.
    return 'charts.orange';
  }
  return undefined;
}

/**
 * One codicon per group type, so the type reads at a glance; the state colours it. Each must exist in the
 * oldest VS Code the extension supports (engines.vscode ^1.100): an unknown id draws nothing.
 */
export const GROUP_TYPE_ICONS: Readonly<Record<GroupSummary['groupType'], string>> = {
  classic: 'layers',
  consumer: 'symbol-event',
  share: 'inbox',
  // A topology of subtopologies. ('workflow' is not a codicon in VS Code 1.100: the row had no icon.)
  streams: 'type-hierarchy',
  simple: 'bookmark',
  unknown: 'question',
};

export function groupIcon(summary: GroupSummary): IconDescriptor {
  if (summary.error) {
    return { id: 'warning', color: 'problemsWarningIcon.foreground' };
  }
  const color = groupStateColor(summary.state);
  return color ? { id: GROUP_TYPE_ICONS[summary.groupType], color } : { id: GROUP_TYPE_ICONS[summary.groupType] };
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

/**
 * "lag 1,204 · Stable · 3 members · share": lag first, because a narrow sidebar cuts the end of the
 * description and lag is what the view is opened for; the type last (the icon shows it too). A group
 * the broker refused to describe says so instead of showing a state it does not have.
 */
export function groupDescription(summary: GroupSummary): string {
  const type = summary.groupType === 'classic' ? '' : ` · ${summary.groupType}`;
  if (summary.error) {
    return `error · ${firstLine(summary.error, 80)}${type}`;
  }
  if (summary.detailsPending) {
    // Listed before its details: the state is ListGroups', lag and members are not known yet.
    return `${summary.state} · details pending${type}`;
  }
  const pending = summary.pendingTransactionalPartitions ? ` · ${plural(summary.pendingTransactionalPartitions, 'pending transactional offset')}` : '';
  return `lag ${formatCount(summary.totalLag)} · ${summary.state} · ${plural(summary.memberCount, 'member')}${pending}${type}`;
}

/** `kgl:group:<sim|kafka>:<type>:<state>[:error][:hasLag]`, so menus can offer a command to one type and state. */
function groupContextValue(kind: SourceKind, summary: GroupSummary): string {
  let value = `kgl:group:${kindSegment(kind)}:${summary.groupType}:${summary.state}`;
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
    ['Group type', GROUP_TYPE_NAMES[s.groupType]],
  ];
  if (s.error) {
    fields.push(['Error', s.error]);
  }
  return {
    label: s.groupId,
    description: groupDescription(s),
    tooltip: markdownFields(s.groupId, fields),
    contextValue: groupContextValue(node.sourceKind, s),
    icon: groupIcon(s),
    collapsible: 'collapsed',
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
    case 'topic':
      return describeTopic(node);
    case 'info':
      return describeInfo(node);
    case 'unassigned':
      return describeUnassigned(node);
    case 'stoppedConsumers':
      return describeStoppedConsumers(node);
    case 'consumer':
      return describeConsumer(node);
    case 'transactions':
      return describeTransactions();
    case 'transaction':
      return describeTransaction(node);
    case 'message':
      return describeMessage(node);
  }
}
