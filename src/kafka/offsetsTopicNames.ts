/**
 * Names of the topic ids KIP-848 records use (they name topics by id, as Fetch v13+ does), asked of
 * the cluster once per id: an id with no name (a deleted topic, a broker before Metadata v12, a
 * refused request) is not asked again and the timeline shows it as it is.
 */
import type { KafkaLogger } from './connection';
import { errorMessage } from '../protocol/errors';
import type { OffsetsTopicTransport } from './offsetsTopicTransport';

export class OffsetsTopicNames {
  private readonly names = new Map<string, string>();
  private readonly unnamed = new Set<string>();

  constructor(private readonly transport: OffsetsTopicTransport, private readonly logger: KafkaLogger) {}

  /** The name of a topic id, when known. */
  name(topicId: string): string | undefined {
    return this.names.get(topicId);
  }

  /** Asks the cluster (through `leader`) for the ids never asked for. */
  async learn(leader: number, topicIds: readonly string[]): Promise<void> {
    const ask = topicIds.filter((id) => !this.names.has(id) && !this.unnamed.has(id));
    if (ask.length === 0 || this.transport.topicNames === undefined) {
      return;
    }
    try {
      for (const [topicId, name] of await this.transport.topicNames(leader, ask)) {
        this.names.set(topicId, name);
      }
    } catch (error) {
      this.logger.warn(`Could not name the topics of consumer-group records (${errorMessage(error)}); the timeline shows their ids`);
    }
    for (const id of ask) {
      if (!this.names.has(id)) {
        this.unnamed.add(id);
      }
    }
  }
}
