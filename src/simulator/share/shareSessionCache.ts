/**
 * Share sessions as Kafka 4.4's ShareSessionCache keeps them on each broker: one per (group, member), opened by
 * a ShareFetch at epoch 0, then each request carries the next epoch (ShareRequestMetadata.nextEpoch), and -1
 * closes it. A session belongs to the connection that opened it: when that connection closes while the
 * session is still the member's, the member's records are released (onMemberLeave) and, once the group has
 * no session left on the broker, its share partitions there are dropped (onGroupEmpty).
 */
import { KafkaApiError } from '../common/errors';

/** ShareRequestMetadata.INITIAL_EPOCH and FINAL_EPOCH. */
export const INITIAL_SHARE_SESSION_EPOCH = 0;
export const FINAL_SHARE_SESSION_EPOCH = -1;
/** group.share.max.share.sessions */
export const DEFAULT_MAX_SHARE_SESSIONS = 2000;

/** ShareRequestMetadata.nextEpoch: 1 after the initial epoch, wrapping past Integer.MAX_VALUE to 1. */
export function nextShareSessionEpoch(epoch: number): number {
  if (epoch < 0) {
    return FINAL_SHARE_SESSION_EPOCH;
  }
  return epoch === 0x7fffffff ? 1 : epoch + 1;
}

/** A topic partition of a session, by topic id. */
export interface SharePartitionRef {
  topicId: string;
  partition: number;
}

export interface ShareSession {
  readonly brokerId: number;
  readonly groupId: string;
  readonly memberId: string;
  epoch: number;
  /**
   * The session's partitions in Kafka's order (an ImplicitLinkedHashCollection there): one that returned records
   * moves to the end. Keyed, so a request naming a million partitions costs a million steps, not their square.
   */
  readonly partitions: Map<string, SharePartitionRef>;
}

/** What the cache tells its owner (SharePartitionManager's ShareGroupListener). */
export interface ShareSessionListener {
  onMemberLeave(session: ShareSession): void;
  onGroupEmpty(brokerId: number, groupId: string): void;
}

const refKey = (ref: SharePartitionRef): string => `${ref.topicId}:${ref.partition}`;

export class ShareSessionCache {
  private readonly sessions = new Map<string, ShareSession>();
  private readonly membersPerGroup = new Map<string, number>();
  /** Each session's registration with its connection, dropped with the session so a connection holds only live ones. */
  private readonly disconnectHooks = new Map<ShareSession, () => void>();

  constructor(private readonly listener: ShareSessionListener, private readonly maxEntries = DEFAULT_MAX_SHARE_SESSIONS) {}

  private static key(brokerId: number, groupId: string, memberId: string): string {
    return JSON.stringify([brokerId, groupId, memberId]);
  }

  private static groupKey(brokerId: number, groupId: string): string {
    return JSON.stringify([brokerId, groupId]);
  }

  get size(): number {
    return this.sessions.size;
  }

  get(brokerId: number, groupId: string, memberId: string): ShareSession | undefined {
    return this.sessions.get(ShareSessionCache.key(brokerId, groupId, memberId));
  }

  /** ShareSessionCache.remove: the session, if it is still the member's. */
  remove(session: ShareSession): boolean {
    const key = ShareSessionCache.key(session.brokerId, session.groupId, session.memberId);
    if (this.sessions.get(key) !== session) {
      return false;
    }
    this.sessions.delete(key);
    this.disconnectHooks.get(session)?.();
    this.disconnectHooks.delete(session);
    const groupKey = ShareSessionCache.groupKey(session.brokerId, session.groupId);
    this.membersPerGroup.set(groupKey, Math.max(0, (this.membersPerGroup.get(groupKey) ?? 0) - 1));
    return true;
  }

  /**
   * ShareSessionCache.maybeCreateSession: a new session at epoch 1 for these partitions, replacing the member's
   * old one; SHARE_SESSION_LIMIT_REACHED when the broker holds its maximum. `onConnectionClose` registers the
   * disconnect handling of the connection that opened it.
   */
  create(brokerId: number, groupId: string, memberId: string, partitions: readonly SharePartitionRef[], onConnectionClose: (listener: () => void) => () => void): ShareSession {
    const old = this.get(brokerId, groupId, memberId);
    if (old !== undefined) {
      this.remove(old);
    }
    if (this.sessions.size >= this.maxEntries) {
      throw new KafkaApiError('SHARE_SESSION_LIMIT_REACHED', 'The limit of share sessions has been reached.');
    }
    const session: ShareSession = { brokerId, groupId, memberId, epoch: nextShareSessionEpoch(INITIAL_SHARE_SESSION_EPOCH), partitions: new Map() };
    ShareSessionCache.update(session, partitions, []);
    this.sessions.set(ShareSessionCache.key(brokerId, groupId, memberId), session);
    const groupKey = ShareSessionCache.groupKey(brokerId, groupId);
    this.membersPerGroup.set(groupKey, (this.membersPerGroup.get(groupKey) ?? 0) + 1);
    const unregister = onConnectionClose(() => {
      this.disconnectHooks.delete(session);
      this.onDisconnect(session);
    });
    if (this.sessions.get(ShareSessionCache.key(brokerId, groupId, memberId)) === session) {
      this.disconnectHooks.set(session, unregister);
    }
    return session;
  }

  /** ShareSession.update: partitions added by this request, forgotten ones removed. */
  static update(session: ShareSession, added: readonly SharePartitionRef[], forgotten: readonly SharePartitionRef[]): void {
    for (const ref of added) {
      if (!session.partitions.has(refKey(ref))) {
        session.partitions.set(refKey(ref), { topicId: ref.topicId, partition: ref.partition });
      }
    }
    for (const ref of forgotten) {
      session.partitions.delete(refKey(ref));
    }
  }

  /** PartitionIterator: a partition that returned records goes to the end of the session's order. */
  static moveToEnd(session: ShareSession, ref: SharePartitionRef): void {
    const known = session.partitions.get(refKey(ref));
    if (known !== undefined) {
      session.partitions.delete(refKey(ref));
      session.partitions.set(refKey(ref), known);
    }
  }

  /** ClientConnectionDisconnectListener.onDisconnect */
  private onDisconnect(session: ShareSession): void {
    if (this.get(session.brokerId, session.groupId, session.memberId) === session) {
      this.listener.onMemberLeave(session);
      this.remove(session);
    }
    const groupKey = ShareSessionCache.groupKey(session.brokerId, session.groupId);
    if ((this.membersPerGroup.get(groupKey) ?? 0) === 0) {
      this.membersPerGroup.delete(groupKey);
      this.listener.onGroupEmpty(session.brokerId, session.groupId);
    }
  }
}
