/**
 * A classic consumer group as the coordinator holds it (Kafka's ClassicGroup and
 * ClassicGroupMember): members, static-member map, pending joins and syncs, state machine.
 * Deterministic refinement: Kafka keeps members in a HashMap; here they are in insertion order,
 * which decides leader re-election and protocol-vote ties.
 */
import type { TopicPartition } from '../model/types';
import type { Deadline, ScheduledTask } from './clock';
import type {
  ConsumerAssignment,
  ConsumerSubscription,
  JoinGroupProtocol,
  JoinGroupResponse,
  JoinGroupResponseMember,
  Respond,
  SyncGroupResponse,
} from './protocol';

export type ClassicGroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

/** Legal previous states of each state (ClassicGroupState). */
const VALID_PREVIOUS_STATES: Record<ClassicGroupState, readonly ClassicGroupState[]> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Empty', 'Stable', 'CompletingRebalance'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead'],
};

export const EMPTY_ASSIGNMENT: ConsumerAssignment = Object.freeze({ partitions: [] }) as ConsumerAssignment;

export interface CommittedOffset {
  offset: number;
  leaderEpoch: number;
  metadata: string;
  commitTimestamp: number;
  /** Position of the commit record in `__consumer_offsets`: a transactional commit loses to a later plain one. */
  recordOffset?: number;
}

export class ClassicGroupMember {
  assignment: ConsumerAssignment = EMPTY_ASSIGNMENT;
  isNew = false;
  awaitingJoin: Respond<JoinGroupResponse> | null = null;
  awaitingSync: Respond<SyncGroupResponse> | null = null;

  constructor(
    readonly memberId: string,
    readonly groupInstanceId: string | null,
    readonly clientId: string,
    readonly clientHost: string,
    public rebalanceTimeoutMs: number,
    public sessionTimeoutMs: number,
    readonly protocolType: string,
    public protocols: JoinGroupProtocol[],
    /** Session timer; owned by the coordinator. */
    readonly heartbeat: Deadline,
  ) {}

  get isStatic(): boolean {
    return this.groupInstanceId !== null;
  }

  metadataFor(protocolName: string): ConsumerSubscription | null {
    return this.protocols.find((p) => p.name === protocolName)?.metadata ?? null;
  }

  /** Same protocols in the same order with the same metadata (ClassicGroupMember.matches). */
  matches(protocols: JoinGroupProtocol[]): boolean {
    if (protocols.length !== this.protocols.length) {
      return false;
    }
    return protocols.every((p, i) => p.name === this.protocols[i].name && sameSubscription(p.metadata, this.protocols[i].metadata));
  }

  /** The first protocol, in the member's own order, that every member supports. */
  vote(candidates: ReadonlySet<string>): string {
    const choice = this.protocols.find((p) => candidates.has(p.name));
    if (!choice) {
      throw new Error(`Member ${this.memberId} does not support any of the candidate protocols ${[...candidates].join(', ')}`);
    }
    return choice.name;
  }
}

function samePartitions(a: TopicPartition[], b: TopicPartition[]): boolean {
  return a.length === b.length && a.every((tp, i) => tp.topic === b[i].topic && tp.partition === b[i].partition);
}

export function sameSubscription(a: ConsumerSubscription, b: ConsumerSubscription): boolean {
  return (
    a.generationId === b.generationId &&
    (a.userData ?? '') === (b.userData ?? '') &&
    a.topics.length === b.topics.length &&
    a.topics.every((t, i) => t === b.topics[i]) &&
    samePartitions(a.ownedPartitions, b.ownedPartitions)
  );
}

export class ClassicGroup {
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
  /** topic → partition → committed offset. */
  readonly offsets = new Map<string, Map<number, CommittedOffset>>();
  /** Each member's partitions at the last completed sync, keyed by instance id (static) or member id. */
  readonly lastSyncedAssignment = new Map<string, TopicPartition[]>();
  joinTimer: ScheduledTask | null = null;
  syncTimer: ScheduledTask | null = null;
  private readonly protocolSupport = new Map<string, number>();

  constructor(
    readonly groupId: string,
    now: number,
    private readonly onTransition: (group: ClassicGroup, from: ClassicGroupState, to: ClassicGroupState) => void,
  ) {
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
    this.countProtocols(member.protocols, 1);
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
      this.countProtocols(removed.protocols, -1);
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
    this.countProtocols(member.protocols, -1);
    member.protocols = protocols;
    this.countProtocols(protocols, 1);
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
    return this.protocolType === protocolType && protocols.some((p) => (this.protocolSupport.get(p.name) ?? 0) === this.members.size);
  }

  candidateProtocols(): Set<string> {
    const candidates = new Set<string>();
    for (const [name, count] of this.protocolSupport) {
      if (count === this.members.size) {
        candidates.add(name);
      }
    }
    return candidates;
  }

  /** Each member votes for its first candidate; the most votes wins, ties go to the protocol voted for first. */
  selectProtocol(): string {
    if (this.members.size === 0) {
      throw new Error(`Cannot select a protocol for the empty group ${this.groupId}`);
    }
    const candidates = this.candidateProtocols();
    const votes = new Map<string, number>();
    for (const member of this.members.values()) {
      const choice = member.vote(candidates);
      votes.set(choice, (votes.get(choice) ?? 0) + 1);
    }
    let winner = '';
    let best = -1;
    for (const [name, count] of votes) {
      if (count > best) {
        winner = name;
        best = count;
      }
    }
    return winner;
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

  /** Whether OffsetDelete must refuse a topic (ClassicGroup.isSubscribedToTopic). */
  isSubscribedToTopic(topic: string): boolean {
    return this.subscribedTopics ? this.subscribedTopics.has(topic) : this.protocolType === 'consumer';
  }

  committed(topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  commit(topic: string, partition: number, value: CommittedOffset): void {
    let partitions = this.offsets.get(topic);
    if (!partitions) {
      partitions = new Map();
      this.offsets.set(topic, partitions);
    }
    partitions.set(partition, value);
  }

  deleteOffset(topic: string, partition: number): boolean {
    const partitions = this.offsets.get(topic);
    if (!partitions || !partitions.delete(partition)) {
      return false;
    }
    if (partitions.size === 0) {
      this.offsets.delete(topic);
    }
    return true;
  }

  hasOffsets(): boolean {
    return this.offsets.size > 0;
  }

  private computeSubscribedTopics(): Set<string> | null {
    if (this.protocolType !== 'consumer') {
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

  private countProtocols(protocols: JoinGroupProtocol[], delta: number): void {
    for (const p of protocols) {
      const count = (this.protocolSupport.get(p.name) ?? 0) + delta;
      if (count === 0) {
        this.protocolSupport.delete(p.name);
      } else {
        this.protocolSupport.set(p.name, count);
      }
    }
  }
}
