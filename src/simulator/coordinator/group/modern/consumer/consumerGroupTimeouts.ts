/**
 * The timers of KIP-848 consumer groups (GroupMetadataManager's scheduleConsumerGroupSessionTimeout,
 * scheduleConsumerGroupRebalanceTimeout, the regex resolution it schedules, and cancelTimers), on the
 * CoordinatorTimer under Kafka's own keys. What happens when one fires is the heartbeat handler's: it
 * passes ConsumerGroupTimeoutActions.
 */
import type { ConsumerGroup } from './consumerGroup';
import type { OperationCause } from './consumerGroupEvents';
import type { ConsumerGroupMember } from './consumerGroupMember';
import {
  consumerGroupJoinKey, consumerGroupRebalanceTimeoutKey, consumerGroupRegexResolutionKey, consumerGroupSessionTimeoutKey, consumerGroupSyncKey,
} from './heartbeatSeam';
import type { CoordinatorTimer } from './types';

/** What a fired timer does, given by the heartbeat handler. */
export interface ConsumerGroupTimeoutActions {
  /** The group of this id, if it exists. */
  group(groupId: string): ConsumerGroup | undefined;
  /** consumerGroupFenceMember: the member leaves the group for this cause. */
  fence(group: ConsumerGroup, member: ConsumerGroupMember, cause: OperationCause): void;
  /** The group's regular expressions are resolved again against the current topics. */
  resolveRegularExpressions(group: ConsumerGroup): void;
}

export class ConsumerGroupTimeouts {
  constructor(
    private readonly timer: CoordinatorTimer,
    /** group.consumer.session.timeout.ms */
    private readonly sessionTimeoutMs: number,
    private readonly actions: ConsumerGroupTimeoutActions,
  ) {}

  /** Kafka resolves a new regex asynchronously: at once on the timer, after the request that asked for it. */
  scheduleRegexResolution(groupId: string): void {
    this.timer.schedule(consumerGroupRegexResolutionKey(groupId), 0, () => {
      const group = this.actions.group(groupId);
      if (group !== undefined && group.state !== 'Dead') {
        this.actions.resolveRegularExpressions(group);
      }
    });
  }

  cancelRegexResolution(groupId: string): void {
    this.timer.cancel(consumerGroupRegexResolutionKey(groupId));
  }

  /** The session timeout of a member: group.consumer.session.timeout.ms, or a classic member's own. */
  scheduleSessionTimeout(groupId: string, memberId: string, sessionTimeoutMs = this.sessionTimeoutMs): void {
    this.timer.schedule(consumerGroupSessionTimeoutKey(groupId, memberId), sessionTimeoutMs, () => {
      const group = this.actions.group(groupId);
      const member = group?.member(memberId);
      if (group !== undefined && member !== undefined) {
        this.actions.fence(group, member, { text: `Member ${memberId} fenced from the group because the member session expired.`, removal: 'member-expired' });
      }
    });
  }

  /** A member revoking partitions must finish within its rebalance timeout, or it is fenced. */
  scheduleRebalanceTimeout(groupId: string, memberId: string, memberEpoch: number, rebalanceTimeoutMs: number): void {
    this.timer.schedule(consumerGroupRebalanceTimeoutKey(groupId, memberId), rebalanceTimeoutMs, () => {
      const group = this.actions.group(groupId);
      const member = group?.member(memberId);
      if (group !== undefined && member?.memberEpoch === memberEpoch) {
        this.actions.fence(group, member, {
          text: `Member ${memberId} fenced from the group because it failed to transition from epoch ${memberEpoch} within ${rebalanceTimeoutMs}ms.`,
          removal: 'poll-timeout',
        });
      }
    });
  }

  cancelRebalanceTimeout(groupId: string, memberId: string): void {
    this.timer.cancel(consumerGroupRebalanceTimeoutKey(groupId, memberId));
  }

  /** Every timer of a member: session and rebalance, and a classic member's join and sync. */
  cancelTimers(groupId: string, memberId: string): void {
    this.timer.cancel(consumerGroupSessionTimeoutKey(groupId, memberId));
    this.timer.cancel(consumerGroupRebalanceTimeoutKey(groupId, memberId));
    this.timer.cancel(consumerGroupJoinKey(groupId, memberId));
    this.timer.cancel(consumerGroupSyncKey(groupId, memberId));
  }
}
