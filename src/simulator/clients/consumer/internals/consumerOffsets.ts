/**
 * The consumer's offset requests (ConsumerCoordinator's commit and fetch of committed offsets):
 * auto-commit and the commit before revoking, and the committed offsets that start newly assigned
 * partitions.
 */
import type { TopicPartition } from '../../../../model/types';
import type { CommitMembership, ConsumerHost } from '../consumerConfig';
import type { OwnedPartition, OwnedPartitions } from './ownedPartitions';
import type { OffsetCommitRequest } from '../../../common/requests';

export function groupByTopic<T extends TopicPartition, V>(partitions: readonly T[], value: (tp: T) => V): Array<{ name: string; partitions: V[] }> {
  const byTopic = new Map<string, V[]>();
  for (const tp of partitions) {
    const list = byTopic.get(tp.topic);
    if (list) {
      list.push(value(tp));
    } else {
      byTopic.set(tp.topic, [value(tp)]);
    }
  }
  return [...byTopic].map(([name, values]) => ({ name, partitions: values }));
}

export class ConsumerOffsets {
  constructor(
    private readonly host: ConsumerHost,
    private readonly owned: OwnedPartitions,
    private readonly membership: CommitMembership,
  ) {}

  maybeAutoCommitSync(): void {
    if (this.host.config.enableAutoCommit && this.membership.isStable()) {
      this.commitPositions();
    }
  }

  commitPositions(): void {
    this.commitPartitions(this.owned.list);
  }

  /** Commits the positions that moved; `onDone` runs when the commit is answered (whatever the answer), or at once when none is sent. */
  commitPartitions(partitions: OwnedPartition[], onDone?: () => void): void {
    const changed = partitions.filter((p) => p.position >= 0 && p.position !== p.lastCommitted);
    const memberId = this.membership.memberId;
    if (changed.length === 0 || memberId === '') {
      onDone?.();
      return;
    }
    const { groupId, groupInstanceId } = this.host.config;
    const request: OffsetCommitRequest = {
      groupId,
      generationId: this.membership.generationId,
      memberId,
      groupInstanceId,
      topics: groupByTopic(changed, (p) => ({ partition: p.partition, offset: p.position, metadata: '' })),
    };
    const sent = changed.map((p) => [p, p.position] as const);
    this.host.env.coordinator.offsetCommit(
      request,
      this.host.guard((response) => {
        const error = response.topics[0]?.partitions[0]?.errorCode ?? 'NONE';
        if (error === 'NONE') {
          for (const [p, offset] of sent) {
            p.lastCommitted = offset;
          }
        } else {
          this.membership.onCommitError(error);
        }
        onDone?.();
      }),
    );
  }

  /** OffsetFetch for newly owned partitions; an offset awaiting its transaction's marker is fetched again after retry.backoff.ms. */
  fetchCommittedPositions(partitions: TopicPartition[]): void {
    if (partitions.length === 0) {
      return;
    }
    this.host.env.coordinator.offsetFetch(
      { groupId: this.host.config.groupId, topics: groupByTopic(partitions, (tp) => tp.partition), requireStable: true },
      this.host.guard((response) => {
        const owned = this.owned.byTopic();
        const unstable: TopicPartition[] = [];
        for (const topic of response.topics) {
          for (const p of topic.partitions) {
            const target = owned.get(topic.name)?.get(p.partition);
            if (target && p.errorCode === 'UNSTABLE_OFFSET_COMMIT') {
              // A transaction's offsets await their marker: retry after retry.backoff.ms.
              unstable.push({ topic: topic.name, partition: p.partition });
            } else if (target && target.position < 0) {
              target.position = p.committedOffset >= 0 ? p.committedOffset : this.owned.resetPosition(target.log);
              target.lastCommitted = p.committedOffset;
            }
          }
        }
        if (unstable.length > 0) {
          this.host.env.clock.schedule(
            this.host.config.retryBackoffMs,
            this.host.guard<void>(() => this.fetchCommittedPositions(unstable.filter((tp) => this.owned.ownsUnpositioned(tp)))),
          );
        }
        this.host.wakeFromIdle();
      }),
    );
  }
}
