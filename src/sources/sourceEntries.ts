/**
 * The registry entries of the two kinds of source, built the same way for every host: the extension's settings
 * (simulatorSetting.ts, kafkaSources.ts) and the MCP server (src/mcp). No `vscode` import.
 */
import { Kafka } from 'kafkajs';
import { buildKafkaConfig, type ConnectionConfig, type KafkaLogger, type Secrets } from '../kafka/connection';
import type { IsolationLevelLookup } from '../kafka/isolationLevels';
import { KafkaGroupAdmin } from '../kafka/kafkaGroupAdmin';
import { KafkaSource } from '../kafka/kafkaSource';
import { KafkaTransactionAdmin } from '../kafka/kafkaTransactionAdmin';
import type { ClusterSource } from '../model/clusterSource';
import type { SourceFailureKind } from '../model/sourceFailure';
import { SimGroupAdmin } from '../simulator/admin/simGroupAdmin';
import { createDemoSimSource, type DemoSimSourceOptions, type SimSource } from '../simulator/editor/simSource';
import type { RegisteredSource } from './sourceRegistry';

/** The built-in simulator with its controls, its GroupAdmin and its TransactionAdmin. */
export function createSimulatorEntry(options: DemoSimSourceOptions): RegisteredSource & { source: SimSource } {
  const source = createDemoSimSource(options);
  return { source, control: source.control, admin: new SimGroupAdmin(source.simulation), transactions: source.transactions };
}

/** A real cluster's source, GroupAdmin and TransactionAdmin over one kafkajs client; throws when the settings cannot be used. */
export function createKafkaEntry(config: ConnectionConfig, secrets: Secrets, options: { logger: KafkaLogger; isolationLevelFor: IsolationLevelLookup }): RegisteredSource {
  const kafka = new Kafka(buildKafkaConfig(config, secrets, { logger: options.logger }));
  const source = new KafkaSource(config, {}, { logger: options.logger, kafka, isolationLevelFor: options.isolationLevelFor });
  return { source, admin: new KafkaGroupAdmin(source), transactions: new KafkaTransactionAdmin(source.connection) };
}

/**
 * Stands in for a connection whose settings cannot be used (a missing password, an unreadable CA file),
 * so the cluster still shows with the reason instead of vanishing.
 */
export class UnusableSource implements ClusterSource {
  readonly kind = 'kafka' as const;
  readonly id: string;
  readonly label: string;

  /** `failure` is what the tree's retry policy sees: 'authentication' when only the user can mend it. */
  constructor(
    config: Pick<ConnectionConfig, 'id' | 'name'>,
    private readonly reason: string,
    private readonly failure: SourceFailureKind = 'other',
  ) {
    this.id = config.id;
    this.label = config.name;
  }

  private fail(): Promise<never> {
    return Promise.reject(Object.assign(new Error(`Cannot connect: ${this.reason}`), { kind: this.failure }));
  }

  describeCluster = (): Promise<never> => this.fail();
  listGroups = (): Promise<never> => this.fail();
  describeGroup = (): Promise<never> => this.fail();
  async dispose(): Promise<void> {}
}
