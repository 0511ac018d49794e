/**
 * Names of the topic ids KIP-848 records use (they name topics by id, as Fetch v13+ does), asked of
 * the cluster once per id: an id with no name (a deleted topic, a broker before Metadata v12, a
 * refused request) is not asked again and the timeline shows it as it is.
 */
import type { KafkaLogger } from './connection';
import { errorMessage } from '../protocol/errors';
import type { OffsetsTopicTransport } from './offsetsTopicTransport';

/** How long a name lookup may hold the reader up: the timeline must not wait on a lost answer. */
export const TOPIC_NAMES_TIMEOUT_MS = 5000;

export class OffsetsTopicNames {
  private readonly names = new Map<string, string>();
  private readonly unnamed = new Set<string>();

  constructor(private readonly transport: OffsetsTopicTransport, private readonly logger: KafkaLogger, private readonly timeoutMs = TOPIC_NAMES_TIMEOUT_MS) {}

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
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      for (const [topicId, name] of await Promise.race([this.transport.topicNames(leader, ask), timeout])) {
        this.names.set(topicId, name);
      }
    } catch (error) {
      this.logger.warn(`Could not name the topics of consumer-group records (${errorMessage(error)}); the timeline shows their ids`);
    } finally {
      clearTimeout(timer);
    }
    for (const id of ask) {
      if (!this.names.has(id)) {
        this.unnamed.add(id);
      }
    }
  }
}
