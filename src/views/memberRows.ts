/**
 * Rows inside a group: members (labelled as the timeline's lanes), their topics and partitions with
 * the partitions a reconciling member still gives up or waits for, the unassigned and stopped-consumer
 * folders, and the type info rows. Descriptions lead with lag, the figure the view is opened for.
 */
import { lsoHolderText } from '../health/transactionBlock';
import { lagInTimeTooltip } from '../health/lagInTime';
import type { PartitionOffsets, StreamsTaskAssignment } from '../model/types';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';
import { markdownFields } from './markdown';
import { formatCount, kindSegment, memberLabel, plural, sumLag, type NodeDescriptor } from './rowFormat';
import type { ConsumerNode, InfoNode, MemberNode, PartitionEntry, PartitionNode, PartitionRole, StoppedConsumersNode, TopicNode, UnassignedNode } from './treeNodes';

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

/** "epoch 7", or "epoch 5 of 7" for a member behind its group's assignment epoch. */
function memberEpochText(node: MemberNode): string | undefined {
  const epoch = node.member.memberEpoch;
  if (epoch === undefined) {
    return undefined;
  }
  const groupEpoch = node.groupAssignmentEpoch;
  return groupEpoch !== undefined && epoch !== groupEpoch ? `epoch ${epoch} of ${groupEpoch}` : `epoch ${epoch}`;
}

function taskCount(assignment: StreamsTaskAssignment, kind: keyof StreamsTaskAssignment): number {
  return assignment[kind].reduce((n, t) => n + t.partitions.length, 0);
}

function tasksText(assignment: StreamsTaskAssignment): string {
  const parts = [`${taskCount(assignment, 'active')} active`];
  for (const kind of ['standby', 'warmup'] as const) {
    const count = taskCount(assignment, kind);
    if (count) {
      parts.push(`${count} ${kind === 'warmup' ? 'warm-up' : kind}`);
    }
  }
  return parts.join(', ');
}

function taskListText(assignment: StreamsTaskAssignment, kind: keyof StreamsTaskAssignment): string {
  const tasks = assignment[kind].flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`));
  return tasks.length ? tasks.join(', ') : '-';
}

/** "lag 30 · epoch 5 of 7 · 2 to revoke · /10.0.0.2": lag first, then what the member is doing, then where it runs. */
export function memberDescription(node: MemberNode): string {
  const m = node.member;
  const parts: string[] = [`lag ${formatCount(sumLag([...node.partitions, ...(node.revoking ?? [])]))}`];
  const epoch = memberEpochText(node);
  if (epoch) {
    parts.push(epoch);
  }
  if (node.revoking?.length) {
    parts.push(`${formatCount(node.revoking.length)} to revoke`);
  }
  if (node.awaited?.length) {
    parts.push(`${formatCount(node.awaited.length)} awaited`);
  }
  if (node.consumerMember?.memberType === 'classic') {
    parts.push('classic member');
  }
  if (node.streamsMember) {
    parts.push(tasksText(node.streamsMember.assignment));
  }
  if (m.clientHost) {
    parts.push(m.clientHost);
  }
  if (node.consumer && node.consumer.status !== 'running') {
    parts.push(node.consumer.status);
  }
  return parts.join(' · ');
}

function memberFields(node: MemberNode): Array<[string, string]> {
  const m = node.member;
  const fields: Array<[string, string]> = [
    ['Member id', m.memberId],
    ['Group instance id', m.groupInstanceId ?? '- (dynamic member)'],
    ['Client id', m.clientId || '-'],
    ['Host', m.clientHost || '-'],
  ];
  if (m.rackId) {
    fields.push(['Rack', m.rackId]);
  }
  if (m.memberEpoch !== undefined) {
    fields.push(['Member epoch', node.groupAssignmentEpoch === undefined ? String(m.memberEpoch) : `${m.memberEpoch} (group assignment epoch ${node.groupAssignmentEpoch})`]);
  }
  if (node.consumerMember && node.consumerMember.memberType !== 'unknown') {
    fields.push(['Member protocol', node.consumerMember.memberType]);
  }
  fields.push(['Subscription', m.subscription.length ? m.subscription.join(', ') : '-']);
  fields.push(['Assigned partitions', String(m.assignment.length)]);
  if (node.revoking?.length) {
    fields.push(['Still to revoke', String(node.revoking.length)]);
  }
  if (node.awaited?.length) {
    fields.push(['Still awaited', String(node.awaited.length)]);
  }
  const streams = node.streamsMember;
  if (streams) {
    fields.push(
      ['Process id', streams.processId],
      ['User endpoint', streams.userEndpoint ? `${streams.userEndpoint.host}:${streams.userEndpoint.port}` : '-'],
      ['Client tags', Object.entries(streams.clientTags).map(([k, v]) => `${k}=${v}`).join(', ') || '-'],
      ['Active tasks', taskListText(streams.assignment, 'active')],
      ['Standby tasks', taskListText(streams.assignment, 'standby')],
      ['Warm-up tasks', taskListText(streams.assignment, 'warmup')],
    );
  }
  if (node.consumer) {
    fields.push(['Simulated consumer', consumerStatusText(node.consumer)]);
  }
  return fields;
}

export function describeMember(node: MemberNode): NodeDescriptor {
  const m = node.member;
  const membership = membershipSegment(m.groupInstanceId);
  let contextValue = `kgl:member:${kindSegment(node.sourceKind)}:${membership}`;
  if (node.sourceKind === 'simulator') {
    contextValue += `:${consumerStatusSegment(node.consumer)}`;
  }
  const reconciling = Boolean(node.revoking?.length || node.awaited?.length);
  const crashedOrPaused = node.consumer && node.consumer.status !== 'running';
  const label = memberLabel(m);
  const hasRows = node.partitions.length + (node.revoking?.length ?? 0) + (node.awaited?.length ?? 0) > 0;
  return {
    label,
    description: memberDescription(node),
    tooltip: markdownFields(label, memberFields(node)),
    contextValue,
    icon: { id: reconciling ? 'sync' : membership === 'static' ? 'pinned' : 'account', color: crashedOrPaused || reconciling ? 'charts.yellow' : undefined },
    collapsible: hasRows ? 'collapsed' : 'none',
  };
}

/**
 * "lag 30 · committed 120 · end 150"; read_committed groups add the lag against the last stable
 * offset ("· LSO lag 0"), lag that is only transaction markers says so, and a pending
 * sendOffsetsToTransaction offset is shown. A share-partition shows its start offset.
 */
export function partitionDescription(p: PartitionOffsets, share = false): string {
  const markerNote = (lag: number | null | undefined) =>
    p.markerOnlyLag && lag ? ` (${lag === 1 ? 'transaction marker only' : 'transaction markers only'})` : '';
  const parts = [`lag ${formatCount(p.lag)}${p.lastStableLag != null ? '' : markerNote(p.lag)}`];
  if (p.lastStableLag != null) {
    parts.push(`LSO lag ${formatCount(p.lastStableLag)}${markerNote(p.lastStableLag)}`);
  }
  parts.push(`${share ? 'start' : 'committed'} ${formatCount(p.committedOffset)}`, `end ${formatCount(p.logEndOffset)}`);
  if (p.pendingTransactionalOffset != null) {
    parts.push(`pending txn ${formatCount(p.pendingTransactionalOffset)}`);
  }
  if (p.lsoHolder !== undefined && p.lastStableOffset != null) {
    parts.push(lsoHolderText(p.lastStableOffset, p.lsoHolder));
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

const ROLE_TEXTS: Record<PartitionRole, { prefix: string; meaning: string }> = {
  assigned: { prefix: '', meaning: 'assigned to this member' },
  unassigned: { prefix: '', meaning: 'committed, no current member owns it' },
  revoking: { prefix: 'revoking · ', meaning: 'still owned by this member, which has to give it up (not in its target assignment)' },
  awaited: { prefix: 'awaited · ', meaning: 'in this member\'s target assignment, not received yet (another member may still be giving it up)' },
};

function partitionFields(p: PartitionOffsets, role: PartitionRole, share: boolean): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ['Topic', p.topic],
    ['Partition', String(p.partition)],
    ['Role', ROLE_TEXTS[role].meaning],
    [share ? 'Share-partition start offset' : 'Committed offset', formatCount(p.committedOffset)],
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
  if (p.lsoHolder !== undefined && p.lastStableOffset != null) {
    fields.push(['Open transaction', lsoHolderText(p.lastStableOffset, p.lsoHolder)]);
  }
  if (p.markerOnlyLag) {
    fields.push(['Remaining lag', 'transaction markers only: nothing left to read']);
  }
  const inTime = lagInTimeTooltip(p);
  if (inTime !== null) {
    fields.push(['Lag in time', inTime.text], ...inTime.approximate.map((why): [string, string] => ['Approximate', why]));
  }
  if (p.pendingTransactionalOffset != null) {
    fields.push(['Pending transactional offset', formatCount(p.pendingTransactionalOffset)]);
  }
  if (!share) {
    fields.push(['Owner', p.ownerMemberId ?? '-']);
  }
  if (p.commitMetadata) {
    fields.push(['Commit metadata', p.commitMetadata]);
  }
  return fields;
}

export function describePartition(node: PartitionNode): NodeDescriptor {
  const p = node.offsets;
  const share = node.share ?? false;
  const hasLag = isBehind(p);
  const reconciling = node.role === 'revoking' || node.role === 'awaited';
  // An open transaction holds the LSO below the high watermark: Abort Transaction… is offered.
  const lsoHeld = p.lastStableOffset != null && p.logEndOffset != null && p.lastStableOffset < p.logEndOffset;
  return {
    label: partitionLabel(p),
    description: `${ROLE_TEXTS[node.role].prefix}${partitionDescription(p, share)}`,
    tooltip: markdownFields(partitionLabel(p), partitionFields(p, node.role, share)),
    contextValue: `kgl:partition:${node.role}${share ? ':share' : ''}${hasLag ? ':hasLag' : ''}${lsoHeld ? ':lsoHeld' : ''}`,
    // Lag alone is normal for a consumer that keeps up; the row is not coloured for it (issue 19: no flicker).
    icon: reconciling ? { id: node.role === 'revoking' ? 'arrow-circle-up' : 'arrow-circle-down', color: 'charts.yellow' } : { id: 'symbol-array' },
    collapsible: 'none',
  };
}

function entryLag(entries: readonly PartitionEntry[]): number | null {
  return sumLag(entries.filter((e) => e.role !== 'awaited').map((e) => e.offsets));
}

export function describeTopic(node: TopicNode): NodeDescriptor {
  const reconciling = node.entries.filter((e) => e.role === 'revoking' || e.role === 'awaited').length;
  const description = [`lag ${formatCount(entryLag(node.entries))}`, plural(node.entries.length, 'partition')];
  if (reconciling) {
    description.push(`${formatCount(reconciling)} reconciling`);
  }
  return {
    label: node.topic,
    description: description.join(' · '),
    tooltip: markdownFields(node.topic, [
      ['Partitions', node.entries.map((e) => `${e.offsets.partition}${e.role === 'assigned' ? '' : ` (${e.role})`}`).join(', ')],
      ['Lag', formatCount(entryLag(node.entries))],
    ]),
    contextValue: `kgl:topic${node.share ? ':share' : ''}`,
    icon: { id: 'symbol-namespace' },
    collapsible: 'collapsed',
  };
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

export function describeUnassigned(node: UnassignedNode): NodeDescriptor {
  const description = `lag ${formatCount(sumLag(node.partitions))} · ${plural(node.partitions.length, 'partition')}`;
  if (node.share) {
    return folderDescriptor(
      'Share-partitions without members',
      description,
      'The share group has state (a start offset) for these partitions but no current member is assigned them.',
      'kgl:unassigned:share',
      'circle-slash',
    );
  }
  return folderDescriptor(
    'Unassigned committed partitions',
    description,
    'The group has committed offsets for these partitions but no current member owns them.',
    'kgl:unassigned',
    'circle-slash',
  );
}

export function describeStoppedConsumers(node: StoppedConsumersNode): NodeDescriptor {
  return folderDescriptor(
    'Stopped consumers',
    plural(node.consumers.length, 'consumer'),
    'Simulated consumers of this group that are stopped or crashed and no longer members.',
    'kgl:stoppedConsumers',
    'debug-stop',
  );
}

export function describeConsumer(node: ConsumerNode): NodeDescriptor {
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

export function describeInfo(node: InfoNode): NodeDescriptor {
  return {
    label: node.label,
    description: node.description,
    tooltip: markdownFields(node.label, node.fields),
    contextValue: `kgl:info:${node.infoKind}`,
    icon: { id: node.icon },
    collapsible: node.children.length ? 'collapsed' : 'none',
  };
}
