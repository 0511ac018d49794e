/** A member of a classic group as the coordinator holds it (Kafka's ClassicGroupMember). */
import type { TopicPartition } from '../../../../model/types';
import type { Deadline } from '../../../common/clock';
import type {
  ConsumerAssignment,
  ConsumerSubscription,
  DescribedGroupMember,
  JoinGroupProtocol,
  JoinGroupResponse,
  Respond,
  SyncGroupResponse,
} from '../../../common/requests';

export const EMPTY_ASSIGNMENT: ConsumerAssignment = Object.freeze({ partitions: [] });

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

  /**
   * ClassicGroupMember.describeNoMetadata: what DescribeGroups says of a member outside Stable. The
   * assignment is the one the member holds, the previous generation's until the next sync (it is only
   * cleared when a rebalance interrupts CompletingRebalance), as a real broker answers.
   */
  describeNoMetadata(): DescribedGroupMember {
    return {
      memberId: this.memberId,
      groupInstanceId: this.groupInstanceId,
      clientId: this.clientId,
      clientHost: this.clientHost,
      metadata: null,
      assignment: this.assignment,
    };
  }

  /** ClassicGroupMember.describe: with the member's metadata for the group's selected protocol (Stable only). */
  describe(protocolName: string): DescribedGroupMember {
    return { ...this.describeNoMetadata(), metadata: this.metadataFor(protocolName) };
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
