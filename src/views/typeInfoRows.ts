/**
 * The rows of a group type's own facts, above its members: a KIP-848 group's epochs, assignor and
 * subscriptions (and its migration from classic), a share group's configs, a streams group's topology
 * with one row per subtopology and its topics. Classic and simple groups have none.
 */
import type { ConsumerGroupInfo, GroupDetail, ShareGroupInfo, StreamsGroupInfo, StreamsSubtopologyInfo } from '../model/types';
import { formatCount, plural } from './rowFormat';
import { nodeIds, type InfoNode } from './treeNodes';

function list(values: readonly string[]): string {
  return values.length ? values.join(', ') : '-';
}

/** "epoch 7" or "epoch 8 · assignment 7 (pending)" when the target assignment is behind the group. */
export function epochText(groupEpoch: number, assignmentEpoch: number): string {
  return groupEpoch === assignmentEpoch ? `epoch ${groupEpoch}` : `epoch ${groupEpoch} · assignment ${assignmentEpoch} (pending)`;
}

function consumerInfo(groupRowId: string, info: ConsumerGroupInfo): InfoNode {
  const fields: Array<[string, string]> = [
    ['Group epoch', String(info.groupEpoch)],
    ['Assignment epoch', `${info.assignmentEpoch}${info.assignmentPending ? ' (assignment pending: the coordinator has a new target to compute)' : ''}`],
    ['Server assignor', info.assignorName || '-'],
    ['Subscribed topics', list(info.subscribedTopicNames)],
    ['Subscribed regexes', list(info.subscribedTopicRegexes)],
  ];
  if (info.migration) {
    fields.push(['Migration from classic', `under way: ${info.migration.classicMembers} classic, ${info.migration.consumerMembers} consumer-protocol members`]);
  }
  const parts = [epochText(info.groupEpoch, info.assignmentEpoch), info.assignorName || 'no assignor'];
  if (info.migration) {
    parts.push(`migrating: ${info.migration.classicMembers} classic`);
  }
  return { kind: 'info', id: nodeIds.info(groupRowId, 'consumer'), label: 'Group', description: parts.join(' · '), fields, icon: 'symbol-event', infoKind: 'consumer', children: [] };
}

function shareInfo(groupRowId: string, info: ShareGroupInfo): InfoNode {
  const c = info.configs;
  const fields: Array<[string, string]> = [
    ['Group epoch', String(info.groupEpoch)],
    ['Assignment epoch', String(info.assignmentEpoch)],
    ['Assignor', info.assignorName || '-'],
    ['share.auto.offset.reset', c.autoOffsetReset ?? '-'],
    ['share.record.lock.duration.ms', formatCount(c.recordLockDurationMs)],
    ['share.delivery.count.limit', formatCount(c.deliveryCountLimit)],
    ['errors.deadletterqueue.topic.name', c.deadLetterTopic ?? '-'],
  ];
  for (const [name, value] of Object.entries(c.all ?? {})) {
    if (!fields.some(([known]) => known === name)) {
      fields.push([name, value ?? '-']);
    }
  }
  if (c.configsError) {
    fields.push(['Configs error', c.configsError]);
  }
  const description = c.configsError
    ? `${epochText(info.groupEpoch, info.assignmentEpoch)} · configs: error`
    : `${epochText(info.groupEpoch, info.assignmentEpoch)} · reset ${c.autoOffsetReset ?? '-'} · lock ${formatCount(c.recordLockDurationMs)} ms`;
  return { kind: 'info', id: nodeIds.info(groupRowId, 'share'), label: 'Share group', description, fields, icon: 'settings', infoKind: c.configsError ? 'share:configsError' : 'share', children: [] };
}

function subtopologyRow(parentId: string, s: StreamsSubtopologyInfo): InfoNode {
  const fields: Array<[string, string]> = [
    ['Source topics', list(s.sourceTopics)],
    ['Repartition source topics', list(s.repartitionSourceTopics)],
    ['Repartition sink topics', list(s.repartitionSinkTopics)],
    ['State changelog topics', list(s.stateChangelogTopics)],
  ];
  const description = [`sources ${list(s.sourceTopics)}`];
  if (s.repartitionSinkTopics.length) {
    description.push(`repartition ${list(s.repartitionSinkTopics)}`);
  }
  if (s.stateChangelogTopics.length) {
    description.push(plural(s.stateChangelogTopics.length, 'changelog'));
  }
  return {
    kind: 'info',
    id: nodeIds.info(parentId, `subtopology-${s.subtopologyId}`),
    label: `Subtopology ${s.subtopologyId}`,
    description: description.join(' · '),
    fields,
    icon: 'circuit-board',
    infoKind: 'subtopology',
    children: [],
  };
}

function streamsInfo(groupRowId: string, info: StreamsGroupInfo): InfoNode {
  const id = nodeIds.info(groupRowId, 'streams');
  const topology = info.topology;
  const fields: Array<[string, string]> = [
    ['Group epoch', String(info.groupEpoch)],
    ['Assignment epoch', String(info.assignmentEpoch)],
    ['Task assignor', info.assignorName ?? '-'],
    ['Topology epoch', topology ? String(topology.epoch) : '- (no member has sent the topology yet)'],
    ['Subtopologies', topology ? String(topology.subtopologies.length) : '-'],
  ];
  const description = [epochText(info.groupEpoch, info.assignmentEpoch), topology ? plural(topology.subtopologies.length, 'subtopology', 'subtopologies') : 'no topology yet'];
  return {
    kind: 'info',
    id,
    label: 'Topology',
    description: description.join(' · '),
    fields,
    icon: 'type-hierarchy',
    infoKind: 'streams',
    children: (topology?.subtopologies ?? []).map((s) => subtopologyRow(id, s)),
  };
}

export function typeInfoRows(groupRowId: string, detail: GroupDetail): InfoNode[] {
  if (detail.consumerGroup) {
    return [consumerInfo(groupRowId, detail.consumerGroup)];
  }
  if (detail.shareGroup) {
    return [shareInfo(groupRowId, detail.shareGroup)];
  }
  if (detail.streamsGroup) {
    return [streamsInfo(groupRowId, detail.streamsGroup)];
  }
  return [];
}
