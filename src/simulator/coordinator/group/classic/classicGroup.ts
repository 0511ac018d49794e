/**
 * A classic group as the coordinator holds it (Kafka's ClassicGroup): members, static-member map,
 * pending joins and syncs, the state machine, and the checks Kafka puts on the group itself
 * (validateOffsetCommit, validateOffsetDelete, validateDeleteGroup, offsetExpirationCondition).
 * Deterministic refinement: Kafka keeps members in a HashMap; here they are in insertion order,
 * which decides leader re-election and protocol-vote ties.
 */
import type { TopicPartition } from '../../../../model/types';
import type { Deadline, ScheduledTask } from '../../../common/clock';
import { ClassicGroupMember, EMPTY_ASSIGNMENT } from './classicGroupMember';
import type { KafkaErrorCode } from '../../../common/errors';
import type { Group, OffsetExpirationCondition } from '../group';
import { GroupOffsets } from '../groupOffsets';
import { ProtocolSupport } from './protocolSupport';
import type { DescribedGroup, JoinGroupProtocol, JoinGroupResponse, JoinGroupResponseMember, Respond, SyncGroupResponse } from '../../../common/requests';

export const CONSUMER_PROTOCOL_TYPE = 'consumer';

export type ClassicGroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

/** Legal previous states of each state (ClassicGroupState). */
const VALID_PREVIOUS_STATES: Record<ClassicGroupState, readonly ClassicGroupState[]> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Empty', 'Stable', 'CompletingRebalance'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead'],
};

export class ClassicGroup extends GroupOffsets implements Group {
  readonly type = 'classic' as const;
  state: ClassicGroupState = 'Empty';
  previousState: ClassicGroupState | null = null;
  stateTimestamp: number;
  generationId = 0;
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  /** Insertion-ordered (see the file comment). */
  readonly members = new Map<string, ClassicGroupMember>();
  readonly staticMembers = new Map<string, string>();
  /** Ids handed out with MEMBER_ID_REQUIRED, each with its session timer. */
  readonly pendingJoinMembers = new Map<string, Deadline>();
  readonly pendingSyncMembers = new Set<string>();
  numMembersAwaitingJoin = 0;
  newMemberAdded = false;
  /** Topics the members subscribe to, computed at each generation (null when unknown). */
  subscribedTopics: Set<string> | null = null;
  /** Each member's partitions at the last completed sync, keyed by instance id (static) or member id. */
  readonly lastSyncedAssignment = new Map<string, TopicPartition[]>();
  joinTimer: ScheduledTask | null = null;
  syncTimer: ScheduledTask | null = null;
  private readonly protocolSupport = new ProtocolSupport();

  constructor(
    readonly groupId: string,
    now: number,
    private readonly onTransition: (group: ClassicGroup, from: ClassicGroupState, to: ClassicGroupState) => void,
  ) {
    super();
    this.stateTimestamp = now;
  }

  is(state: ClassicGroupState): boolean {
    return this.state === state;
  }

  transitionTo(target: ClassicGroupState, now: number): void {
    if (!VALID_PREVIOUS_STATES[target].includes(this.state)) {
      throw new Error(`Group ${this.groupId} should be in one of ${VALID_PREVIOUS_STATES[target].join(', ')} before moving to ${target}, but it is ${this.state}`);
    }
    const from = this.state;
    this.previousState = from;
    this.state = target;
    this.stateTimestamp = now;
    this.onTransition(this, from, target);
  }

  /** PreparingRebalance may be entered from here (ClassicGroup.canRebalance). */
  canRebalance(): boolean {
    return VALID_PREVIOUS_STATES.PreparingRebalance.includes(this.state);
  }

  get size(): number {
    return this.members.size;
  }

  isLeader(memberId: string): boolean {
    return this.leaderId === memberId;
  }

  hasStaticMember(instanceId: string): boolean {
    return this.staticMembers.has(instanceId);
  }

  isPendingMember(memberId: string): boolean {
    return this.pendingJoinMembers.has(memberId);
  }

  hasAllMembersJoined(): boolean {
    return this.members.size === this.numMembersAwaitingJoin && this.pendingJoinMembers.size === 0;
  }

  hasReceivedSyncFromAllMembers(): boolean {
    return this.pendingSyncMembers.size === 0;
  }

  rebalanceTimeoutMs(): number {
    let max = 0;
    for (const member of this.members.values()) {
      max = Math.max(max, member.rebalanceTimeoutMs);
    }
    return max;
  }

  add(member: ClassicGroupMember, respond: Respond<JoinGroupResponse> | null): void {
    if (this.members.size === 0) {
      this.protocolType = member.protocolType;
    }
    this.protocolSupport.count(member.protocols, 1);
    if (this.leaderId === null) {
      this.leaderId = member.memberId;
    }
    if (respond) {
      member.awaitingJoin = respond;
      this.numMembersAwaitingJoin++;
    }
    this.members.set(member.memberId, member);
    if (member.groupInstanceId !== null) {
      this.staticMembers.set(member.groupInstanceId, member.memberId);
    }
    this.pendingJoinMembers.get(member.memberId)?.cancel();
    this.pendingJoinMembers.delete(member.memberId);
  }

  /** Removes a member or a pending member; the leader passes to the first remaining member. */
  remove(memberId: string): ClassicGroupMember | undefined {
    const removed = this.members.get(memberId);
    if (removed) {
      this.members.delete(memberId);
      this.protocolSupport.count(removed.protocols, -1);
      if (removed.awaitingJoin) {
        this.numMembersAwaitingJoin--;
      }
      if (removed.groupInstanceId !== null) {
        this.staticMembers.delete(removed.groupInstanceId);
      }
      removed.heartbeat.cancel();
    }
    if (this.isLeader(memberId)) {
      const next = this.members.keys().next();
      this.leaderId = next.done ? null : next.value;
    }
    this.pendingJoinMembers.get(memberId)?.cancel();
    this.pendingJoinMembers.delete(memberId);
    this.pendingSyncMembers.delete(memberId);
    return removed;
  }

  updateMember(
    member: ClassicGroupMember,
    protocols: JoinGroupProtocol[],
    rebalanceTimeoutMs: number,
    sessionTimeoutMs: number,
    respond: Respond<JoinGroupResponse> | null,
  ): void {
    this.protocolSupport.count(member.protocols, -1);
    member.protocols = protocols;
    this.protocolSupport.count(protocols, 1);
    member.rebalanceTimeoutMs = rebalanceTimeoutMs;
    member.sessionTimeoutMs = sessionTimeoutMs;
    if (respond && !member.awaitingJoin) {
      this.numMembersAwaitingJoin++;
    } else if (!respond && member.awaitingJoin) {
      this.numMembersAwaitingJoin--;
    }
    member.awaitingJoin = respond;
  }

  /**
   * A static member rejoined with memberId "": a new member id takes over its slot, assignment and
   * leadership; the old id's parked join and sync are fenced (ClassicGroup.replaceStaticMember).
   */
  replaceStaticMember(groupInstanceId: string, oldMemberId: string, newMemberId: string, heartbeat: Deadline): ClassicGroupMember {
    const old = this.members.get(oldMemberId);
    if (!old) {
      throw new Error(`Cannot replace the unknown member ${oldMemberId} of group ${this.groupId}`);
    }
    this.members.delete(oldMemberId);
    old.heartbeat.cancel();
    this.completeJoin(old, {
      errorCode: 'FENCED_INSTANCE_ID',
      generationId: -1,
      protocolType: null,
      protocolName: null,
      leader: '',
      skipAssignment: false,
      memberId: oldMemberId,
      members: [],
    });
    this.completeSync(old, { errorCode: 'FENCED_INSTANCE_ID', protocolType: null, protocolName: null, assignment: EMPTY_ASSIGNMENT });
    const replacement = new ClassicGroupMember(
      newMemberId,
      groupInstanceId,
      old.clientId,
      old.clientHost,
      old.rebalanceTimeoutMs,
      old.sessionTimeoutMs,
      old.protocolType,
      old.protocols,
      heartbeat,
    );
    replacement.assignment = old.assignment;
    this.members.set(newMemberId, replacement);
    if (this.isLeader(oldMemberId)) {
      this.leaderId = newMemberId;
    }
    this.staticMembers.set(groupInstanceId, newMemberId);
    return replacement;
  }

  /** Answers a parked JoinGroup; returns whether one was parked. */
  completeJoin(member: ClassicGroupMember, response: JoinGroupResponse): boolean {
    const respond = member.awaitingJoin;
    if (!respond) {
      return false;
    }
    member.awaitingJoin = null;
    this.numMembersAwaitingJoin--;
    respond(response);
    return true;
  }

  completeSync(member: ClassicGroupMember, response: SyncGroupResponse): boolean {
    const respond = member.awaitingSync;
    if (!respond) {
      return false;
    }
    member.awaitingSync = null;
    respond(response);
    return true;
  }

  /** In Empty any non-empty protocol list is accepted; otherwise the type must match and one protocol be supported by all. */
  supportsProtocols(protocolType: string, protocols: JoinGroupProtocol[]): boolean {
    if (this.state === 'Empty') {
      return protocolType.length > 0 && protocols.length > 0;
    }
    return this.protocolType === protocolType && this.protocolSupport.supportsAny(protocols, this.members.size);
  }

  /** Each member votes for its first candidate; the most votes wins, ties go to the protocol voted for first. */
  selectProtocol(): string {
    if (this.members.size === 0) {
      throw new Error(`Cannot select a protocol for the empty group ${this.groupId}`);
    }
    return this.protocolSupport.select(this.members.values(), this.members.size);
  }

  /** If the leader has not rejoined, the first member awaiting join takes over. False when nobody can lead. */
  maybeElectNewJoinedLeader(): boolean {
    if (this.leaderId === null) {
      return false;
    }
    const leader = this.members.get(this.leaderId);
    if (leader && leader.awaitingJoin) {
      return true;
    }
    for (const member of this.members.values()) {
      if (member.awaitingJoin) {
        this.leaderId = member.memberId;
        return true;
      }
    }
    return false;
  }

  initNextGeneration(now: number): void {
    this.generationId++;
    if (this.members.size > 0) {
      this.protocolName = this.selectProtocol();
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('CompletingRebalance', now);
    } else {
      this.protocolName = null;
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('Empty', now);
    }
    this.pendingSyncMembers.clear();
  }

  /** The leader's view: every member with its metadata for the selected protocol. */
  currentMembersForLeader(): JoinGroupResponseMember[] {
    const protocol = this.protocolName ?? '';
    return [...this.members.values()].map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      metadata: m.metadataFor(protocol) ?? { topics: [], ownedPartitions: [], generationId: -1 },
    }));
  }

  /**
   * Validates a member's identity (ClassicGroup.validateMember): an unknown instance id or
   * member id gives UNKNOWN_MEMBER_ID; an instance id mapped to another member gives FENCED_INSTANCE_ID.
   */
  validateMember(memberId: string, groupInstanceId: string | null): 'NONE' | 'UNKNOWN_MEMBER_ID' | 'FENCED_INSTANCE_ID' {
    if (groupInstanceId !== null) {
      const existing = this.staticMembers.get(groupInstanceId);
      if (existing === undefined) {
        return 'UNKNOWN_MEMBER_ID';
      }
      if (existing !== memberId) {
        return 'FENCED_INSTANCE_ID';
      }
    }
    return this.members.has(memberId) ? 'NONE' : 'UNKNOWN_MEMBER_ID';
  }

  /**
   * ClassicGroup.validateOffsetCommit. In PreparingRebalance commits with the current (old)
   * generation still succeed; a transactional commit is not blocked by CompletingRebalance either.
   */
  validateOffsetCommit(memberId: string, groupInstanceId: string | null, generationId: number, isTransactional: boolean): KafkaErrorCode {
    if (this.is('Dead')) {
      return 'COORDINATOR_NOT_AVAILABLE';
    }
    if (generationId < 0 && this.is('Empty')) {
      // The admin client, or a consumer without group management: it may commit to an empty group.
      return 'NONE';
    }
    if (generationId >= 0 || memberId !== '' || groupInstanceId !== null) {
      const memberError = this.validateMember(memberId, groupInstanceId);
      if (memberError !== 'NONE') {
        return memberError;
      }
      if (generationId !== this.generationId) {
        return 'ILLEGAL_GENERATION';
      }
    } else if (!isTransactional && !this.is('Empty')) {
      return 'UNKNOWN_MEMBER_ID';
    }
    return !isTransactional && this.is('CompletingRebalance') ? 'REBALANCE_IN_PROGRESS' : 'NONE';
  }

  /** ClassicGroup.validateOffsetDelete: only an empty group or one of the consumer protocol. */
  validateOffsetDelete(): KafkaErrorCode {
    if (this.is('Dead')) {
      return 'GROUP_ID_NOT_FOUND';
    }
    return !this.is('Empty') && this.protocolType !== CONSUMER_PROTOCOL_TYPE ? 'NON_EMPTY_GROUP' : 'NONE';
  }

  /** ClassicGroup.validateDeleteGroup. */
  validateDeleteGroup(): KafkaErrorCode {
    if (this.is('Dead')) {
      return 'GROUP_ID_NOT_FOUND';
    }
    return this.is('Empty') ? 'NONE' : 'NON_EMPTY_GROUP';
  }

  isEmpty(): boolean {
    return this.is('Empty');
  }

  /**
   * ClassicGroup.offsetExpirationCondition: a simple group's offsets expire by commit time; an Empty
   * group's all together, counted from when it became Empty; a Stable group's unsubscribed topics by
   * commit time; none in a rebalance.
   */
  offsetExpirationCondition(): OffsetExpirationCondition | null {
    if (this.protocolType === null) {
      return { appliesTo: () => true, baseTimestamp: (offset) => offset.commitTimestamp };
    }
    if (this.is('Empty')) {
      const emptySince = this.stateTimestamp;
      return { appliesTo: () => true, baseTimestamp: () => emptySince };
    }
    if (this.is('Stable')) {
      return { appliesTo: (topic) => !this.isSubscribedToTopic(topic), baseTimestamp: (offset) => offset.commitTimestamp };
    }
    return null;
  }

  /**
   * DescribeGroups of this group (GroupMetadataManager.describeGroups): metadata and the selected
   * protocol only when Stable; in every state each member's current assignment, so during a rebalance
   * the previous generation's partitions are still described, as a real broker does.
   */
  describe(): DescribedGroup {
    const stable = this.is('Stable');
    const protocol = this.protocolName ?? '';
    return {
      errorCode: 'NONE',
      groupId: this.groupId,
      groupState: this.state,
      protocolType: this.protocolType ?? '',
      protocolData: stable ? protocol : '',
      members: [...this.members.values()].map((m) => (stable ? m.describe(protocol) : m.describeNoMetadata())),
    };
  }

  /** Whether OffsetDelete must refuse a topic (ClassicGroup.isSubscribedToTopic). */
  isSubscribedToTopic(topic: string): boolean {
    return this.subscribedTopics ? this.subscribedTopics.has(topic) : this.protocolType === CONSUMER_PROTOCOL_TYPE;
  }

  private computeSubscribedTopics(): Set<string> | null {
    if (this.protocolType !== CONSUMER_PROTOCOL_TYPE) {
      return null;
    }
    const topics = new Set<string>();
    if (this.protocolName === null) {
      return topics;
    }
    for (const member of this.members.values()) {
      for (const topic of member.metadataFor(this.protocolName)?.topics ?? []) {
        topics.add(topic);
      }
    }
    return topics;
  }
}
