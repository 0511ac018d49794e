/**
 * The one derivation of a KIP-848 consumer group's timeline from its `__consumer_offsets` records, in
 * log order, one coordinator batch at a time: the simulator's engine feeds it the batches it writes,
 * the real-cluster reader the batches it reads, so both draw the same timeline.
 *
 * What the records give (GroupMetadataManager.consumerGroupHeartbeat of Kafka 4.4):
 * - ConsumerGroupMemberMetadata (5): a member joined (new key), left or was fenced (tombstone), a
 *   static member replaced (old member's tombstones and the new member in one batch);
 * - ConsumerGroupMetadata (3): the group epoch bumps (a rebalance starts), a tombstone deletes the group;
 * - ConsumerGroupTargetAssignmentMember (7) then ConsumerGroupTargetAssignmentMetadata (6): a new
 *   target assignment, whose per-member difference to the previous one is the rebalance's plan;
 * - ConsumerGroupCurrentMemberAssignment (8): each member's epoch steps, the partitions it still has to
 *   revoke and those it waits for, and so the time it took to converge to the target (from the batch
 *   of the target to the batch that made the member stable at its epoch);
 * - ConsumerGroupRegularExpression (16): a regex resolved to topics; the subscription change it causes
 *   shows as the epoch bump that follows, so it makes no event of its own.
 * Why a member left (leave, session expiry, rebalance timeout) is not in the records, only in the
 * broker's log: the simulator passes its cause, the reader says so.
 */
import { compareTopicPartitions, type GroupState, type MemberAssignmentChange, type MemberReconciliation, type RebalanceEvent, type TopicPartition } from '../model/types';
import type { ConsumerGroupRecord } from './consumerGroupRecords';

/** Why a batch was written, in Kafka's words; `removal` says how a member's removal is shown. */
export interface OperationCause {
  text: string;
  removal: 'member-left' | 'member-expired' | 'poll-timeout';
}

/**
 * Which group type's records a builder reads: share and streams records are mapped onto the consumer
 * group's (shareGroupRecords.ts, streamsGroupRecords.ts); only the group state differs.
 */
export type ModernGroupType = 'consumer' | 'share' | 'streams';

/** Topic name of a topic id (the records name topics by id); undefined shows the id. */
export type TopicNames = (topicId: string) => string | undefined;

/** Partitions per topic id, as the records carry them. */
type PartitionsByTopicId = ReadonlyMap<string, readonly number[]>;

interface MemberInfo {
  instanceId: string | null;
  clientId: string;
}

interface CurrentAssignment {
  memberEpoch: number;
  previousMemberEpoch: number;
  state: number;
  assigned: PartitionsByTopicId;
  pendingRevocation: PartitionsByTopicId;
  /** Streams groups only. */
  standby?: PartitionsByTopicId;
  warmup?: PartitionsByTopicId;
}

/** Kafka's MemberState values (modern/MemberState.java). */
const MEMBER_STATES: ReadonlyMap<number, { kafkaName: string; name: MemberReconciliation['state'] }> = new Map([
  [0, { kafkaName: 'STABLE', name: 'stable' }],
  [1, { kafkaName: 'UNREVOKED_PARTITIONS', name: 'unrevoked-partitions' }],
  [2, { kafkaName: 'UNRELEASED_PARTITIONS', name: 'unreleased-partitions' }],
]);
const STABLE = 0;
const UNKNOWN_STATE = { kafkaName: 'UNKNOWN', name: 'unknown' } as const;

const REMOVED_WITHOUT_CAUSE: OperationCause = {
  text: 'left the group or was fenced (the records do not say which; the broker log does)',
  removal: 'member-left',
};

/** The state one group's records have built so far; feed it the group's batches in log order. */
export class ConsumerGroupEventBuilder {
  private groupEpoch = 0;
  private targetEpoch = 0;
  /** When the current target assignment was written (null until one is seen). */
  private targetTime: number | null = null;
  private readonly members = new Map<string, MemberInfo>();
  private readonly target = new Map<string, PartitionsByTopicId>();
  /** The target as the last ConsumerGroupTargetAssignmentMetadata left it. */
  private publishedTarget = new Map<string, PartitionsByTopicId>();
  private readonly current = new Map<string, CurrentAssignment>();
  private groupState: GroupState = 'Empty';

  constructor(readonly groupId: string, private readonly topicName: TopicNames, private readonly groupType: ModernGroupType = 'consumer') {}

  /** Empty, Assigning, Reconciling, Stable, or Dead after the group's deletion. */
  get state(): GroupState {
    return this.groupState;
  }

  /** The group epoch of the last ConsumerGroupMetadata record. */
  get epoch(): number {
    return this.groupEpoch;
  }

  /**
   * Applies one batch (the records of one coordinator operation, all written at `time`) and returns
   * the events it means. `cause` is the simulator's reason for the operation; the reader has none.
   */
  applyBatch(records: readonly ConsumerGroupRecord[], time: number, cause?: OperationCause): RebalanceEvent[] {
    if (this.groupState === 'Dead' && records.some((record) => record.value !== null)) {
      this.groupState = 'Empty'; // the group id was used again after a deletion
    }
    const stateBefore = this.groupState;
    const events: RebalanceEvent[] = [];
    const batch = new BatchContext(records, this.members, cause);
    for (const record of records) {
      events.push(...this.apply(record, time, batch));
    }
    if (this.groupState !== 'Dead') {
      this.groupState = this.computedState();
    }
    if (this.groupState !== stateBefore) {
      events.push(this.event(time, { kind: 'state-changed', stateBefore, stateAfter: this.groupState, cause: batch.causeText() }));
    }
    return events;
  }

  private apply(record: ConsumerGroupRecord, time: number, batch: BatchContext): RebalanceEvent[] {
    switch (record.type) {
      case 'ConsumerGroupMetadata':
        if (record.value === null) {
          this.clear();
          return [];
        }
        if (record.value.epoch <= this.groupEpoch) {
          return [];
        }
        this.groupEpoch = record.value.epoch;
        return [this.event(time, { kind: 'rebalance-started', cause: `${batch.causeText()}; group epoch bumped to ${record.value.epoch}` })];
      case 'ConsumerGroupMemberMetadata':
        return this.applyMember(record.key.memberId, record.value, time, batch);
      case 'ConsumerGroupTargetAssignmentMember':
        if (record.value === null) {
          this.target.delete(record.key.memberId);
        } else {
          this.target.set(record.key.memberId, new Map(record.value.topicPartitions.map((t) => [t.topicId, t.partitions])));
        }
        return [];
      case 'ConsumerGroupTargetAssignmentMetadata':
        return record.value === null ? [] : [this.publishTarget(record.value.assignmentEpoch, time)];
      case 'ConsumerGroupCurrentMemberAssignment':
        return this.applyCurrentAssignment(record, time);
      case 'ConsumerGroupRegularExpression':
        return [];
    }
  }

  /**
   * The group turned into a classic group of `classicMembers` (convertToClassicGroup): the members not
   * among them left, the classic members new to the group joined; the group lives on, so no Dead.
   */
  convertToClassic(time: number, classicMembers: readonly ClassicMemberIdentity[], cause?: OperationCause): RebalanceEvent[] {
    const remaining = new Set(classicMembers.map((member) => member.memberId));
    const removal = cause ?? REMOVED_WITHOUT_CAUSE;
    const events: RebalanceEvent[] = [];
    for (const [memberId, member] of this.members) {
      if (!remaining.has(memberId)) {
        events.push(this.event(time, { kind: removal.removal, memberId, groupInstanceId: member.instanceId, clientId: member.clientId, cause: removal.text }));
      }
    }
    for (const member of classicMembers.filter((m) => !this.members.has(m.memberId))) {
      events.push(this.event(time, { kind: 'member-joined', memberId: member.memberId, groupInstanceId: member.groupInstanceId, clientId: member.clientId, cause: cause?.text ?? 'joined as the group turned classic' }));
    }
    return events;
  }

  private applyMember(memberId: string, value: (ConsumerGroupRecord & { type: 'ConsumerGroupMemberMetadata' })['value'], time: number, batch: BatchContext): RebalanceEvent[] {
    const before = this.members.get(memberId);
    if (value === null) {
      this.members.delete(memberId);
      if (before === undefined || batch.replaces(before)) {
        return []; // a static member's replacement shows as the new member's static-rejoin
      }
      const removal = batch.cause ?? REMOVED_WITHOUT_CAUSE;
      return [this.event(time, { kind: removal.removal, memberId, groupInstanceId: before.instanceId, clientId: before.clientId, cause: removal.text })];
    }
    this.members.set(memberId, { instanceId: value.instanceId, clientId: value.clientId });
    if (before !== undefined) {
      return []; // a subscription change: the epoch bump that follows says so
    }
    return [this.event(time, {
      kind: batch.rejoins(memberId, value.instanceId) ? 'static-rejoin' : 'member-joined',
      memberId,
      groupInstanceId: value.instanceId,
      clientId: value.clientId,
      cause: batch.causeText(),
    })];
  }

  private publishTarget(assignmentEpoch: number, time: number): RebalanceEvent {
    const assignments: MemberAssignmentChange[] = [];
    for (const memberId of new Set([...this.publishedTarget.keys(), ...this.target.keys()])) {
      const change = this.diff(this.publishedTarget.get(memberId), this.target.get(memberId));
      if (change.revoked.length > 0 || change.assigned.length > 0) {
        assignments.push({ memberId, groupInstanceId: this.members.get(memberId)?.instanceId ?? null, ...change });
      }
    }
    this.targetEpoch = assignmentEpoch;
    this.targetTime = time;
    this.publishedTarget = new Map(this.target);
    return this.event(time, { kind: 'sync-completed', generation: assignmentEpoch, cause: `new target assignment for epoch ${assignmentEpoch}`, assignments });
  }

  private applyCurrentAssignment(record: ConsumerGroupRecord & { type: 'ConsumerGroupCurrentMemberAssignment' }, time: number): RebalanceEvent[] {
    const memberId = record.key.memberId;
    const before = this.current.get(memberId);
    if (record.value === null) {
      this.current.delete(memberId);
      return [];
    }
    const value = record.value;
    const after: CurrentAssignment = {
      memberEpoch: value.memberEpoch,
      previousMemberEpoch: value.previousMemberEpoch,
      state: value.state,
      assigned: new Map(value.assignedPartitions.map((t) => [t.topicId, t.partitions])),
      pendingRevocation: new Map(value.partitionsPendingRevocation.map((t) => [t.topicId, t.partitions])),
      standby: value.standbyTasks === undefined ? undefined : new Map(value.standbyTasks.map((t) => [t.topicId, t.partitions])),
      warmup: value.warmupTasks === undefined ? undefined : new Map(value.warmupTasks.map((t) => [t.topicId, t.partitions])),
    };
    this.current.set(memberId, after);
    const owned = (assignment: CurrentAssignment | undefined): Map<string, TopicPartition> =>
      union(this.named(assignment?.assigned), this.named(assignment?.pendingRevocation));
    const ownedBefore = owned(before);
    const ownedAfter = owned(after);
    const assignedAfter = this.named(after.assigned);
    const change = {
      revoked: minus(ownedBefore, ownedAfter),
      assigned: minus(assignedAfter, ownedBefore),
    };
    const reached = isReconciledTo(after, this.targetEpoch);
    const reconciliation: MemberReconciliation = {
      memberEpoch: after.memberEpoch,
      previousMemberEpoch: after.previousMemberEpoch,
      state: (MEMBER_STATES.get(after.state) ?? UNKNOWN_STATE).name,
      targetEpoch: this.targetEpoch,
      pendingRevocation: [...this.named(after.pendingRevocation).values()].sort(compareTopicPartitions),
      pendingAssignment: minus(this.named(this.publishedTarget.get(memberId)), assignedAfter),
    };
    if (reached && this.targetTime !== null && (before === undefined || !isReconciledTo(before, this.targetEpoch))) {
      reconciliation.convergedAfterMs = time - this.targetTime;
    }
    if (after.standby !== undefined && after.warmup !== undefined) {
      reconciliation.standbyTasks = [...this.named(after.standby).values()].sort(compareTopicPartitions);
      reconciliation.warmupTasks = [...this.named(after.warmup).values()].sort(compareTopicPartitions);
    }
    const member = this.members.get(memberId);
    return [this.event(time, {
      kind: 'assignment-changed',
      generation: after.memberEpoch,
      memberId,
      groupInstanceId: member?.instanceId ?? null,
      clientId: member?.clientId,
      cause: `member epoch ${before?.memberEpoch ?? 0} → ${after.memberEpoch}, ${(MEMBER_STATES.get(after.state) ?? UNKNOWN_STATE).kafkaName}`,
      assignments: [{ memberId, groupInstanceId: member?.instanceId ?? null, ...change }],
      reconciliation,
    })];
  }

  /**
   * ConsumerGroup.maybeUpdateGroupState of Kafka 4.4 (StreamsGroup's is the same but for NOT_READY, a
   * topology not yet validated, which the records do not show); a share group is Stable once it has a
   * member (ShareGroup.maybeUpdateGroupState: nothing to reconcile).
   */
  private computedState(): GroupState {
    if (this.members.size === 0) {
      return 'Empty';
    }
    if (this.groupType === 'share') {
      return 'Stable';
    }
    if (this.groupEpoch > this.targetEpoch) {
      return 'Assigning';
    }
    const reconciled = [...this.members.keys()].every((memberId) => isReconciledTo(this.current.get(memberId), this.targetEpoch));
    return reconciled ? 'Stable' : 'Reconciling';
  }

  private clear(): void {
    this.groupEpoch = 0;
    this.targetEpoch = 0;
    this.targetTime = null;
    this.members.clear();
    this.target.clear();
    this.publishedTarget = new Map();
    this.current.clear();
    this.groupState = 'Dead';
  }

  private event(time: number, event: Omit<RebalanceEvent, 'groupId' | 'time' | 'generation'> & { generation?: number }): RebalanceEvent {
    return { groupId: this.groupId, time, generation: this.groupEpoch, ...event };
  }

  private named(partitions: PartitionsByTopicId | undefined): Map<string, TopicPartition> {
    const result = new Map<string, TopicPartition>();
    for (const [topicId, list] of partitions ?? []) {
      const topic = this.topicName(topicId) ?? topicId;
      for (const partition of list) {
        result.set(`${topic}\u0000${partition}`, { topic, partition });
      }
    }
    return result;
  }

  private diff(before: PartitionsByTopicId | undefined, after: PartitionsByTopicId | undefined): { revoked: TopicPartition[]; assigned: TopicPartition[] } {
    const namedBefore = this.named(before);
    const namedAfter = this.named(after);
    return { revoked: minus(namedBefore, namedAfter), assigned: minus(namedAfter, namedBefore) };
  }
}

/** What one batch says about itself: who it removes and adds, and so why it was written. */
class BatchContext {
  private readonly added: ReadonlyMap<string, string | null>;
  private readonly removed: ReadonlySet<string>;
  private readonly changed: boolean;

  constructor(records: readonly ConsumerGroupRecord[], members: ReadonlyMap<string, MemberInfo>, readonly cause: OperationCause | undefined) {
    const metadata = records.filter((record) => record.type === 'ConsumerGroupMemberMetadata');
    this.added = new Map(metadata.flatMap((record) =>
      record.value !== null && !members.has(record.key.memberId) ? [[record.key.memberId, record.value.instanceId] as const] : []));
    this.removed = new Set(metadata.flatMap((record) => (record.value === null ? [record.key.memberId] : [])));
    this.changed = metadata.some((record) => record.value !== null && members.has(record.key.memberId));
  }

  /** True when the batch removes this member because a new one took its instance id. */
  replaces(member: MemberInfo): boolean {
    return member.instanceId !== null && [...this.added.values()].includes(member.instanceId);
  }

  /** True when the new member takes the instance id of a member the batch removes. */
  rejoins(memberId: string, instanceId: string | null): boolean {
    return instanceId !== null && this.added.get(memberId) === instanceId && [...this.removed].some((removed) => removed !== memberId);
  }

  causeText(): string {
    if (this.cause !== undefined) {
      return this.cause.text;
    }
    const reasons = [
      ...[...this.added.keys()].map((memberId) => `member ${memberId} joined`),
      ...[...this.removed].map((memberId) => `member ${memberId} left or was fenced`),
      ...(this.changed ? ['a member changed its subscription'] : []),
    ];
    return reasons.length > 0 ? reasons.join(', ') : 'subscribed topics changed or members reconciled';
  }
}

function isReconciledTo(assignment: CurrentAssignment | undefined, targetEpoch: number): boolean {
  return assignment !== undefined && assignment.state === STABLE && assignment.memberEpoch === targetEpoch;
}

function union(a: Map<string, TopicPartition>, b: Map<string, TopicPartition>): Map<string, TopicPartition> {
  return new Map([...a, ...b]);
}

function minus(a: Map<string, TopicPartition>, b: Map<string, TopicPartition>): TopicPartition[] {
  return [...a].filter(([key]) => !b.has(key)).map(([, tp]) => tp).sort(compareTopicPartitions);
}

/** A member of a classic group, as its GroupMetadata record names it. */
export interface ClassicMemberIdentity {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
}

/**
 * How many records at the start of an upgrade's batch are ConsumerGroup.createConsumerGroupRecords of
 * Kafka 4.4 (per member its subscription, the group epoch, per member its target, the target epoch,
 * per member its current assignment: 3n + 2 records); 0 when the batch does not start so.
 */
export function convertedGroupRecordCount(records: readonly ConsumerGroupRecord[]): number {
  const members = records.findIndex((record) => record.type !== 'ConsumerGroupMemberMetadata');
  const shape: Array<ConsumerGroupRecord['type']> = [
    ...Array<ConsumerGroupRecord['type']>(members).fill('ConsumerGroupMemberMetadata'), 'ConsumerGroupMetadata',
    ...Array<ConsumerGroupRecord['type']>(members).fill('ConsumerGroupTargetAssignmentMember'), 'ConsumerGroupTargetAssignmentMetadata',
    ...Array<ConsumerGroupRecord['type']>(members).fill('ConsumerGroupCurrentMemberAssignment'),
  ];
  const fits = members > 0 && records.length >= shape.length && shape.every((type, i) => records[i].type === type && records[i].value !== null);
  return fits ? shape.length : 0;
}

/** One builder per group, for callers that see many groups' records (the reader, the simulator). */
export class ConsumerGroupTimelines {
  private readonly builders = new Map<string, ConsumerGroupEventBuilder>();

  constructor(private readonly topicName: TopicNames) {}

  /** Applies a batch of one group's records (of `groupType`, mapped onto the consumer group's); a deleted group's state is dropped. */
  applyBatch(groupId: string, records: readonly ConsumerGroupRecord[], time: number, cause?: OperationCause, groupType: ModernGroupType = 'consumer'): RebalanceEvent[] {
    let builder = this.builders.get(groupId);
    if (builder === undefined) {
      builder = new ConsumerGroupEventBuilder(groupId, this.topicName, groupType);
      this.builders.set(groupId, builder);
    }
    const events = builder.applyBatch(records, time, cause);
    if (builder.state === 'Dead') {
      this.builders.delete(groupId);
    }
    return events;
  }

  /**
   * The batch of convertToConsumerGroup (after the classic group's tombstone): the records that build the
   * converted group make no event (its members were the classic group's, its epoch the classic
   * generation), the rest of the batch (the join that caused it) is read as any batch.
   */
  applyUpgradeBatch(groupId: string, records: readonly ConsumerGroupRecord[], time: number, cause?: OperationCause): RebalanceEvent[] {
    const converted = convertedGroupRecordCount(records);
    const builder = new ConsumerGroupEventBuilder(groupId, this.topicName);
    this.builders.set(groupId, builder);
    builder.applyBatch(records.slice(0, converted), time, cause);
    return this.applyBatch(groupId, records.slice(converted), time, cause);
  }

  /** The batch of convertToClassicGroup (the group's tombstones): see ConsumerGroupEventBuilder.convertToClassic. */
  applyDowngradeBatch(groupId: string, classicMembers: readonly ClassicMemberIdentity[], time: number, cause?: OperationCause): RebalanceEvent[] {
    const builder = this.builders.get(groupId);
    this.builders.delete(groupId);
    return builder?.convertToClassic(time, classicMembers, cause) ?? [];
  }

  /** The group epoch of the group's last ConsumerGroupMetadata record, if any. */
  epoch(groupId: string): number | undefined {
    return this.builders.get(groupId)?.epoch;
  }
}
