/**
 * The real Kafka broker the extension-host suite reads beside the simulator: started by `npm run test:vscode`
 * before VS Code, with one group whose committed offsets trail the log ends by a known lag, and added to the
 * profile as a cluster the way a person adds one (the kafkaGroupLens.clusters setting). The suite finds the
 * names in HOST_TEST_KAFKA and checks the agent's read tools against the tree's rows of this cluster.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Kafka, logLevel } from 'kafkajs';

/* eslint-disable @typescript-eslint/no-require-imports -- scripts/kafka/broker.js is CommonJS without types */
const { startBroker, stopBroker } = require('../../scripts/kafka/broker') as {
  startBroker(options?: { version?: string }): Promise<BrokerHandle>;
  stopBroker(handle: BrokerHandle): Promise<void>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

interface BrokerHandle {
  bootstrap: string;
}

/** What the suite reads: the cluster's name, and a group with offsets 4 of 5 and 1 of 5 (lag 1 + 4). */
export const HOST_TEST_KAFKA = {
  clusterId: 'host-test-kafka',
  clusterName: 'Kafka (extension-host test)',
  groupId: 'kgl-host-test-billing',
  topic: 'kgl-host-test-invoices',
  committed: [4, 1],
  recordsPerPartition: 5,
} as const;

export interface HostTestCluster {
  /** The settings that add the broker as a cluster, for the profile's settings.json. */
  settings: Record<string, unknown>;
  stop(): Promise<void>;
}

export async function startHostTestCluster(): Promise<HostTestCluster> {
  const broker = await startBroker();
  const { topic, groupId, committed, recordsPerPartition } = HOST_TEST_KAFKA;
  try {
    const kafka = new Kafka({ clientId: 'kgl-host-test-seed', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 5 } });
    const admin = kafka.admin();
    const producer = kafka.producer();
    await admin.connect();
    await producer.connect();
    try {
      await admin.createTopics({ topics: [{ topic, numPartitions: committed.length }], waitForLeaders: true });
      await producer.send({
        topic,
        messages: committed.flatMap((_, partition) => Array.from({ length: recordsPerPartition }, (__, i) => ({ partition, value: `invoice-${partition}-${i}` }))),
      });
      await admin.setOffsets({ groupId, topic, partitions: committed.map((offset, partition) => ({ partition, offset: String(offset) })) });
    } finally {
      await producer.disconnect();
      await admin.disconnect();
    }
  } catch (error) {
    await stopBroker(broker);
    throw error;
  }
  return {
    settings: { 'kafkaGroupLens.clusters': [{ id: HOST_TEST_KAFKA.clusterId, name: HOST_TEST_KAFKA.clusterName, bootstrapServers: [broker.bootstrap] }] },
    stop: () => stopBroker(broker),
  };
}

/** Merges `settings` into a settings.json (created if missing). */
export function writeSettings(file: string, settings: Record<string, unknown>): void {
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...before, ...settings }, null, 2) + '\n');
}
