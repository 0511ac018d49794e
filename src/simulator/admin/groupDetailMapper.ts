/** Builds the model's GroupSummary / GroupDetail from a simulation, as DescribeGroups + OffsetFetch + ListOffsets would. */
import type { GroupDetail, GroupSummary, Member, PartitionOffsets, ShareGroupInfo } from '../../model/types';
import { consumerGroupInfo, consumerGroupTreeMembers } from '../../model/consumerGroupInfo';
import { shareConfigs, shareGroupInfo, shareGroupTreeMembers } from '../../model/shareGroupInfo';
import { streamsGroupInfo, streamsGroupTreeMembers } from '../../model/streamsGroupInfo';
import type { Simulation } from '../simulation';
import type { IsolationLevel } from '../log/transactionIndex';
import { describeShareGroupOffsets, shareGroupConfigEntries } from './shareGroupOffsets';

function tpOrder(a: { topic: string; partition: number }, b: { topic: string; partition: number }): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/**
 * Which groups read with isolation.level=read_committed, as the user says (the
 * kafkaGroupLens.readCommittedGroups setting): a broker never learns it, so for real clients of
 * the exposed simulator, as for a real cluster, only the user can tell.
 */
export type IsolationLevelLookup = (groupId: string) => IsolationLevel;

/**
 * read_committed when the user's lookup says so (whoever the group's consumers are, simulated or
 * real clients of the server), else that of the group's running simulated consumers:
 * read_committed only when all of them use it.
 */
function groupIsolation(sim: Simulation, groupId: string, userSays: IsolationLevelLookup | undefined): IsolationLevel | undefined {
  if (userSays?.(groupId) === 'read_committed') {
    return 'read_committed';
  }
  const running = sim.listConsumers(groupId).filter((c) => c.status === 'running' || c.status === 'paused');
  if (running.length === 0) {
    return undefined;
  }
  return running.every((c) => sim.consumer(c.handle).config.isolationLevel === 'read_committed') ? 'read_committed' : 'read_uncommitted';
}

/** Adds the LSO, the lag against it (read_committed) and whether only transaction markers are left. */
function addTransactionalOffsets(sim: Simulation, r: PartitionOffsets, isolation: IsolationLevel | undefined): void {
  const log = sim.cluster.partition(r.topic, r.partition);
  if (!log) {
    return;
  }
  r.lastStableOffset = log.lastStableOffset;
  if (r.committedOffset === null) {
    return;
  }
  const end = isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  if (isolation === 'read_committed') {
    r.lastStableLag = Math.max(0, end - r.committedOffset);
  }
  r.markerOnlyLag = end > r.committedOffset && log.visibleRecords(r.committedOffset, end, 'read_uncommitted') === 0;
}

export function describeSimGroup(sim: Simulation, groupId: string, isolationLevelFor?: IsolationLevelLookup): GroupDetail {
  const described = sim.coordinator.describeGroupNow(groupId);
  const group = sim.coordinator.group(groupId);
  const engineConsumerGroup = sim.coordinator.consumerGroup(groupId);
  const consumerDescribed = engineConsumerGroup === undefined ? undefined : sim.coordinator.consumerGroupDescribeNow(groupId);
  const consumerGroup = consumerDescribed?.errorCode === 0 ? consumerGroupInfo(consumerDescribed) : undefined;
  const engineStreamsGroup = sim.coordinator.streamsGroup(groupId);
  const streamsDescribed = engineStreamsGroup === undefined ? undefined : sim.coordinator.streamsGroupDescribeNow(groupId);
  const streamsGroup = streamsDescribed?.errorCode === 0 ? streamsGroupInfo(streamsDescribed) : undefined;
  const engineShareGroup = sim.coordinator.shareGroup(groupId);
  const shareDescribed = engineShareGroup === undefined ? undefined : sim.coordinator.shareGroupDescribeNow(groupId);
  const shared = shareDescribed?.errorCode === 0 ? shareDescribed : undefined;
  const members: Member[] = consumerGroup ? consumerGroupTreeMembers(consumerGroup) : streamsGroup ? streamsGroupTreeMembers(streamsGroup)
    : shared ? shareGroupTreeMembers(shared) : described.members.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.groupInstanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscription: m.metadata ? m.metadata.topics.slice() : [],
    assignment: m.assignment.partitions.map((tp) => ({ ...tp })).sort(tpOrder),
  }));
  const rows = new Map<string, PartitionOffsets>();
  const row = (topic: string, partition: number): PartitionOffsets => {
    const key = `${topic}\u0000${partition}`;
    let r = rows.get(key);
    if (!r) {
      const log = sim.cluster.partition(topic, partition);
      r = {
        topic,
        partition,
        committedOffset: null,
        logStartOffset: log ? log.logStartOffset : null,
        logEndOffset: log ? log.highWatermark : null,
        lag: null,
        ownerMemberId: null,
      };
      rows.set(key, r);
    }
    return r;
  };
  // A share partition has no one owner (many members consume it), and a real broker's rows are its share partitions.
  for (const member of shared ? [] : members) {
    for (const tp of member.assignment) {
      row(tp.topic, tp.partition).ownerMemberId = member.memberId;
    }
  }
  // A share group's rows are its share partitions, as DescribeShareGroupOffsets gives them: the start offset where
  // other types have a committed offset, and the share lag (records past the start may be delivered already).
  const sharePartitions: ShareGroupInfo['partitions'] = [];
  for (const topic of shared ? describeShareGroupOffsets(sim, groupId, null) : []) {
    for (const p of topic.partitions) {
      const known = p.startOffset >= 0;
      sharePartitions.push({ topic: topic.topicName, partition: p.partitionIndex, startOffset: known ? p.startOffset : null, leaderEpoch: known && p.leaderEpoch >= 0 ? p.leaderEpoch : null, lag: known && p.lag >= 0 ? p.lag : null });
      const r = row(topic.topicName, p.partitionIndex);
      r.committedOffset = known ? p.startOffset : null;
      r.lag = known && p.lag >= 0 ? p.lag : null;
    }
  }
  const committed = sim.coordinator.committedOffsets(groupId);
  if (committed) {
    for (const [topic, partitions] of committed) {
      for (const [partition, committed] of partitions) {
        if (committed.offset < 0) {
          continue; // -1 is "no offset", as OffsetFetch answers it and KafkaSource reads it
        }
        const r = row(topic, partition);
        r.committedOffset = committed.offset;
        r.commitMetadata = committed.metadata;
      }
    }
  }
  const pending = sim.coordinator.pendingOffsets.list(groupId).sort((a, b) => a.value.recordOffset - b.value.recordOffset);
  for (const p of pending) {
    row(p.topic, p.partition).pendingTransactionalOffset = p.value.offset;
  }
  const isolation = groupIsolation(sim, groupId, isolationLevelFor);
  let totalLag: number | null = null;
  const offsets = [...rows.values()].sort(tpOrder);
  for (const r of offsets) {
    if (shared) {
      totalLag = r.lag === null ? totalLag : (totalLag ?? 0) + r.lag;
    } else if (r.committedOffset !== null && r.logEndOffset !== null) {
      // Unclamped, as kafka-consumer-groups.sh and KafkaSource show it: a commit above the end is negative lag.
      r.lag = r.logEndOffset - r.committedOffset;
      totalLag = (totalLag ?? 0) + r.lag;
    }
    addTransactionalOffsets(sim, r, isolation);
  }
  return {
    groupId,
    ...(consumerGroup && engineConsumerGroup
      ? { state: engineConsumerGroup.state, protocolType: 'consumer', groupType: 'consumer' as const, assignor: consumerGroup.assignorName, generation: consumerGroup.groupEpoch, consumerGroup }
      : streamsGroup && engineStreamsGroup
      ? { state: engineStreamsGroup.state, protocolType: 'streams', groupType: 'streams' as const, assignor: streamsGroup.assignorName ?? '', generation: streamsGroup.groupEpoch, streamsGroup }
      : shared && engineShareGroup
      ? { state: engineShareGroup.state, protocolType: 'share', groupType: 'share' as const, assignor: shared.assignorName, generation: shared.groupEpoch, shareGroup: { ...shareGroupInfo(shared), partitions: sharePartitions, configs: shareConfigs(shareGroupConfigEntries(sim.shares.settings(groupId))) } }
      : {
        state: described.groupState,
        protocolType: described.protocolType,
        groupType: group && group.protocolType === null ? 'simple' as const : 'classic' as const,
        assignor: described.protocolData,
        generation: group?.generationId ?? 0,
      }),
    coordinator: { ...sim.cluster.coordinatorFor(groupId) },
    memberCount: members.length,
    totalLag,
    ...(pending.length > 0 ? { pendingTransactionalPartitions: new Set(pending.map((p) => `${p.topic}\u0000${p.partition}`)).size } : {}),
    leaderId: group?.leaderId ?? null,
    ...(isolation ? { isolationLevel: isolation } : {}),
    members,
    offsets,
  };
}

/** Every live group, sorted by id. */
export function listSimGroups(sim: Simulation, isolationLevelFor?: IsolationLevelLookup): GroupSummary[] {
  return sim.coordinator
    .groupIds()
    .sort()
    .map((id) => {
      const { members: _members, offsets: _offsets, leaderId: _leaderId, isolationLevel: _isolationLevel, ...summary } = describeSimGroup(sim, id, isolationLevelFor);
      return summary;
    });
}
