/**
 * The timeline of a KIP-848 group, derived from the records the engine writes as they are replayed, so
 * that anything reading the same records from __consumer_offsets can rebuild the same events: members
 * joining and leaving, group epoch bumps, new target assignments, each member's epoch steps (what it
 * gave up and what it got) and group state changes.
 */
import type { MemberAssignmentChange, RebalanceEvent, TopicPartition } from '../../model/types';
import type { ConsumerGroup } from './consumerGroup';
import { MemberState, type PartitionEpochs, type TopicMetadataImage, type TopicPartitionSets } from './types';
import type { ConsumerGroupRecord } from './records';

export type ConsumerGroupEventSink = (event: RebalanceEvent) => void;

/** Why an operation happened, in Kafka's words; `kind` says how a member's removal is shown. */
export interface OperationCause {
  text: string;
  removal: 'member-left' | 'member-expired' | 'poll-timeout';
}

function partitionsOf(assignment: PartitionEpochs | TopicPartitionSets, image: TopicMetadataImage): Map<string, TopicPartition> {
  const result = new Map<string, TopicPartition>();
  for (const [topicId, partitions] of assignment) {
    const topic = image.topicById(topicId)?.name ?? topicId;
    for (const partition of partitions.keys()) {
      result.set(`${topic}\u0000${partition}`, { topic, partition });
    }
  }
  return result;
}

function diff(before: Map<string, TopicPartition>, after: Map<string, TopicPartition>): { revoked: TopicPartition[]; assigned: TopicPartition[] } {
  const byName = (a: TopicPartition, b: TopicPartition): number => a.topic.localeCompare(b.topic) || a.partition - b.partition;
  return {
    revoked: [...before].filter(([key]) => !after.has(key)).map(([, tp]) => tp).sort(byName),
    assigned: [...after].filter(([key]) => !before.has(key)).map(([, tp]) => tp).sort(byName),
  };
}

/** What the group looked like before one record was replayed, and why the batch happened. */
interface ReplayContext {
  before: ReturnType<ConsumerGroup['member']>;
  epochBefore: number;
  targetBefore: ReadonlyMap<string, TopicPartitionSets>;
  cause: OperationCause;
  rejoiningInstances: ReadonlySet<string>;
}

/** Replays records into a group and emits the events they mean. */
export class ConsumerGroupEventRecorder {
  constructor(
    private readonly sink: ConsumerGroupEventSink,
    private readonly image: TopicMetadataImage,
    private readonly now: () => number,
  ) {}

  replay(group: ConsumerGroup, records: readonly ConsumerGroupRecord[], cause: OperationCause): void {
    const stateBefore = group.state;
    const targetBefore = new Map(group.targetAssignment);
    // A static member's replacement writes the old member's tombstones and the new member in one batch.
    const rejoiningInstances = new Set(records.flatMap((record) =>
      record.type === 'ConsumerGroupMemberMetadata' && record.value?.instanceId != null && !group.members.has(record.key.memberId) ? [record.value.instanceId] : []));
    for (const record of records) {
      const before = 'memberId' in record.key ? group.member(record.key.memberId) : undefined;
      const epochBefore = group.groupEpoch;
      group.replay(record);
      this.emitFor(group, record, records, { before, epochBefore, targetBefore, cause, rejoiningInstances });
    }
    if (group.state !== stateBefore) {
      this.emit(group, { kind: 'state-changed', stateBefore: stateBefore, stateAfter: group.state, cause: cause.text });
    }
  }

  private emit(group: ConsumerGroup, event: Omit<RebalanceEvent, 'groupId' | 'time' | 'generation'> & { generation?: number }): void {
    this.sink({ groupId: group.groupId, time: this.now(), generation: group.groupEpoch, ...event });
  }

  private emitFor(
    group: ConsumerGroup,
    record: ConsumerGroupRecord,
    records: readonly ConsumerGroupRecord[],
    context: ReplayContext,
  ): void {
    const { before, epochBefore, targetBefore, cause, rejoiningInstances } = context;
    switch (record.type) {
      case 'ConsumerGroupMetadata':
        if (record.value !== null && record.value.epoch > epochBefore) {
          this.emit(group, { kind: 'rebalance-started', cause: `${cause.text}; group epoch bumped to ${record.value.epoch}` });
        }
        return;
      case 'ConsumerGroupMemberMetadata': {
        const memberId = record.key.memberId;
        const replaced = before?.instanceId != null && rejoiningInstances.has(before.instanceId);
        if (record.value === null && !replaced) {
          this.emit(group, { kind: cause.removal, memberId, groupInstanceId: before?.instanceId ?? null, clientId: before?.clientId, cause: cause.text });
        } else if (record.value !== null && before === undefined) {
          const instanceId = record.value.instanceId;
          const rejoin = instanceId !== null && rejoiningInstances.has(instanceId) && records.some((other) =>
            other.type === 'ConsumerGroupMemberMetadata' && other.value === null && other.key.memberId !== memberId);
          this.emit(group, { kind: rejoin ? 'static-rejoin' : 'member-joined', memberId, groupInstanceId: instanceId, clientId: record.value.clientId, cause: cause.text });
        }
        return;
      }
      case 'ConsumerGroupTargetAssignmentMetadata': {
        if (record.value === null) {
          return;
        }
        const assignments: MemberAssignmentChange[] = [];
        for (const [memberId, target] of group.targetAssignment) {
          const change = diff(partitionsOf(targetBefore.get(memberId) ?? new Map(), this.image), partitionsOf(target, this.image));
          if (change.revoked.length > 0 || change.assigned.length > 0) {
            assignments.push({ memberId, groupInstanceId: group.member(memberId)?.instanceId ?? null, ...change });
          }
        }
        this.emit(group, { kind: 'sync-completed', generation: record.value.assignmentEpoch, cause: `new target assignment for epoch ${record.value.assignmentEpoch}`, assignments });
        return;
      }
      case 'ConsumerGroupCurrentMemberAssignment': {
        const after = group.member(record.key.memberId);
        if (record.value === null || after === undefined) {
          return;
        }
        const change = diff(partitionsOf(before?.assignedPartitions ?? new Map(), this.image), partitionsOf(after.assignedPartitions, this.image));
        this.emit(group, {
          kind: 'assignment-changed',
          generation: after.memberEpoch,
          memberId: after.memberId,
          groupInstanceId: after.instanceId,
          clientId: after.clientId,
          cause: `member epoch ${before?.memberEpoch ?? 0} → ${after.memberEpoch}, ${MemberState[after.state]}`,
          assignments: [{ memberId: after.memberId, groupInstanceId: after.instanceId, ...change }],
        });
        return;
      }
      default:
        return;
    }
  }
}
