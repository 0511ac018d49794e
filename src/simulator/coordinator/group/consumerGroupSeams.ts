/**
 * What the KIP-848 engine needs from the simulator: Kafka's CoordinatorTimer on the virtual clock, and
 * the metadata image over the cluster's topics (with their Kafka Uuid ids).
 */
import type { ScheduledTask, VirtualClock } from '../../common/clock';
import type { SimCluster, SimTopic } from '../../log/cluster';
import type { CoordinatorTimer, TopicInfo, TopicMetadataImage } from './modern/consumer';

/** One task per key on the virtual clock; scheduling a key again replaces its task, as Kafka's timer does. */
export class VirtualClockTimer implements CoordinatorTimer {
  private readonly tasks = new Map<string, ScheduledTask>();

  constructor(private readonly clock: VirtualClock) {}

  schedule(key: string, delayMs: number, task: () => void): void {
    this.cancel(key);
    const scheduled = this.clock.schedule(delayMs, () => {
      this.tasks.delete(key);
      task();
    });
    this.tasks.set(key, scheduled);
  }

  cancel(key: string): void {
    const task = this.tasks.get(key);
    if (task !== undefined) {
      this.clock.cancel(task);
      this.tasks.delete(key);
    }
  }

  isScheduled(key: string): boolean {
    return this.tasks.has(key);
  }
}

/** The cluster's lookups the image reads. */
export type TopicLookup = Pick<SimCluster, 'topic' | 'topicById' | 'userTopics'>;

function topicInfo(topic: SimTopic | undefined): TopicInfo | undefined {
  return topic === undefined || topic.internal ? undefined : { topicId: topic.topicId, name: topic.name, numPartitions: topic.partitions.length };
}

/** The cluster's user topics as Kafka's metadata image (internal topics cannot be subscribed to). */
export class ClusterTopicImage implements TopicMetadataImage {
  constructor(private readonly topics: TopicLookup) {}

  topicByName(name: string): TopicInfo | undefined {
    return topicInfo(this.topics.topic(name));
  }

  topicById(topicId: string): TopicInfo | undefined {
    return topicInfo(this.topics.topicById(topicId));
  }

  topicNames(): Iterable<string> {
    return this.topics.userTopics().map((topic) => topic.name);
  }
}
