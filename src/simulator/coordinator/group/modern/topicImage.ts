/** A TopicMetadataImage over a plain list of topics, for callers that keep their topics elsewhere (and for tests). */
import type { TopicInfo, TopicMetadataImage } from './consumer/types';

export class InMemoryTopicImage implements TopicMetadataImage {
  private readonly byName = new Map<string, TopicInfo>();
  private readonly byId = new Map<string, TopicInfo>();

  constructor(topics: readonly TopicInfo[] = []) {
    topics.forEach((topic) => this.put(topic));
  }

  /** Adds a topic or changes its partition count; a name may not move to another id. */
  put(topic: TopicInfo): void {
    const existing = this.byName.get(topic.name);
    if (existing !== undefined && existing.topicId !== topic.topicId) {
      throw new Error(`Topic ${topic.name} already has id ${existing.topicId}`);
    }
    if (!Number.isInteger(topic.numPartitions) || topic.numPartitions < 1) {
      throw new Error(`Topic ${topic.name} needs a positive partition count, got ${topic.numPartitions}`);
    }
    const copy = { ...topic };
    this.byName.set(topic.name, copy);
    this.byId.set(topic.topicId, copy);
  }

  delete(name: string): void {
    const topic = this.byName.get(name);
    if (topic !== undefined) {
      this.byName.delete(name);
      this.byId.delete(topic.topicId);
    }
  }

  topicByName(name: string): TopicInfo | undefined {
    return this.byName.get(name);
  }

  topicById(topicId: string): TopicInfo | undefined {
    return this.byId.get(topicId);
  }

  topicNames(): Iterable<string> {
    return this.byName.keys();
  }
}
