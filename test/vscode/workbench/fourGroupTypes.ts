/**
 * A real Kafka broker (scripts/kafka/broker.js, jars fetched into .cache/ on first use) with one group of each
 * Kafka 4 type made by real Java clients (test/kafka/java): a classic group and a KIP-848 consumer group of
 * consumers (the consumer group's second member joins once the first is assigned, so the group reconciles),
 * a share group of a KafkaShareConsumer and a streams group of a Kafka Streams application. For the workbench
 * tests that show what the extension makes of a real cluster. stop() ends every client and the broker.
 */
import { Kafka, logLevel } from 'kafkajs';
import { startBroker, stopBroker, type BrokerHandle } from '../../../scripts/kafka/broker';
import { JavaClient } from '../../kafka/groupTypesSupport';

/** The group type codes the tree shows, and each type's group id in this cluster. */
export type FourTypeGroups = Record<'classic' | 'consumer' | 'share' | 'streams', string>;

const PARTITIONS = 4;
const RECORDS_PER_PARTITION = 20;

export class FourGroupTypesCluster {
  readonly groups: FourTypeGroups;
  readonly topic: string;
  private broker: BrokerHandle | undefined;
  private readonly clients: JavaClient[] = [];

  constructor(run = `wb${Date.now().toString(36)}`) {
    this.topic = `orders-${run}`;
    this.groups = { classic: `classic-${run}`, consumer: `consumer-${run}`, share: `share-${run}`, streams: `streams-${run}` };
  }

  get bootstrap(): string {
    if (!this.broker) {
      throw new Error('the broker is not started');
    }
    return this.broker.bootstrap;
  }

  /** Starts the broker (Kafka's version from KAFKA_VERSION), the topic with records, and the four groups' clients. */
  async start(version: string): Promise<void> {
    this.broker = await startBroker({ version });
    const env = { bootstrap: this.broker.bootstrap, saslBootstrap: this.broker.saslBootstrap, user: this.broker.user, password: this.broker.password, lib: this.broker.lib };
    const kafka = new Kafka({ clientId: 'workbench-setup', brokers: [env.bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 100 } });
    const admin = kafka.admin();
    const producer = kafka.producer();
    await admin.connect();
    await producer.connect();
    try {
      // The streams app's output topic too: the broker does not create topics on first use (auto.create.topics.enable=false),
      // and a Streams app sending to a missing topic times out after 60 s per record.
      await admin.createTopics({ topics: [{ topic: this.topic, numPartitions: PARTITIONS }, { topic: `${this.groups.streams}-out`, numPartitions: PARTITIONS }], waitForLeaders: true });
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const messages = Array.from({ length: RECORDS_PER_PARTITION }, (_, i) => ({ partition, key: `k${i}`, value: `v${i % 3}` }));
        await producer.send({ topic: this.topic, messages });
      }
    } finally {
      await producer.disconnect();
      await admin.disconnect();
    }

    const start = (className: string, args: string[], options: { streams?: boolean } = {}) => {
      const client = new JavaClient(env, className, args, options);
      this.clients.push(client);
      return client;
    };
    const { classic, consumer, share, streams } = this.groups;
    const first = start('GroupMember', [env.bootstrap, consumer, this.topic, 'consumer', '-', '-']);
    const waits = [
      start('GroupMember', [env.bootstrap, classic, this.topic, 'classic', '-', '-']).waitForOutput(/ASSIGNED/, 120000),
      start('ShareMember', [env.bootstrap, share, this.topic, 'earliest']).waitForOutput(/POLLED [1-9]/, 120000),
      start('StreamsApp', [env.bootstrap, streams, this.topic, `${streams}-out`, '1'], { streams: true }).waitForOutput(/STATE RUNNING/, 180000),
    ];
    // The second member joins a group whose partitions the first holds: the first revokes, the second waits.
    await first.waitForOutput(/ASSIGNED/, 120000);
    const second = start('GroupMember', [env.bootstrap, consumer, this.topic, 'consumer', '-', '-']);
    await Promise.all([...waits, second.waitForOutput(/ASSIGNED/, 120000)]);
  }

  /** Ends every client (each leaves its group) and the broker; safe to call after a failed start. */
  async stop(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.stop()));
    if (this.broker) {
      await stopBroker(this.broker);
      this.broker = undefined;
    }
  }

  /** The clients' last output, for a failure message. */
  clientLogs(): string {
    return this.clients.map((client) => client.log.slice(-1500)).join('\n---\n');
  }
}
