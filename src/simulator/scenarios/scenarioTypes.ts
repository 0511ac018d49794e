/**
 * The JSON scenario format (documented in docs/scenarios.md) as types: what a scenario file holds.
 * scenarioSchema.ts validates a parsed file into these; scenarioWork.ts weighs the work one implies.
 */
import type { ConsumerSpec } from '../common/control';
import type { ConsumerGroupMigrationPolicy } from '../coordinator/group/modern/consumer';

export interface ScenarioConsumer extends Omit<ConsumerSpec, 'topics'> {
  /** Name used by actions ("crash orders-2"); also the control handle. */
  id: string;
  /** Required, except for a consumer-protocol member that subscribes with subscribedTopicRegex. */
  topics?: string[];
}

export interface ScenarioProducer {
  id?: string;
  topic: string;
  recordsPerSecond: number;
  durationMs?: number;
  /** Virtual time at which it starts; default 0. */
  startAtMs?: number;
}

export interface ScenarioOffset {
  topic: string;
  partition: number;
  offset: number;
  metadata?: string;
}

export type ScenarioAction =
  | { atMs: number; type: 'join'; consumer: ScenarioConsumer }
  | { atMs: number; type: 'leave' | 'crash' | 'restart'; consumer: string }
  | { atMs: number; type: 'pause'; consumer: string; durationMs: number }
  | { atMs: number; type: 'produce'; topic: string; records: number; partition?: number }
  | { atMs: number; type: 'commit'; groupId: string; offsets: ScenarioOffset[] }
  | { atMs: number; type: 'startProducer'; producer: ScenarioProducer }
  | { atMs: number; type: 'stopProducer'; producer: string }
  | { atMs: number; type: 'beginTransaction' | 'commitTransaction'; transactionalId: string }
  /** `rewindConsumer` seeks that consumer back to its committed offsets, so the aborted input is read again. */
  | { atMs: number; type: 'abortTransaction'; transactionalId: string; rewindConsumer?: string }
  | { atMs: number; type: 'produceTransactional'; transactionalId: string; topic: string; records: number; partition?: number }
  | { atMs: number; type: 'sendOffsetsToTransaction'; transactionalId: string; consumer: string };

export interface ScenarioTopic {
  name: string;
  partitions: number;
  /** Records appended to every partition (spread evenly) before the start. */
  initialRecords?: number;
}

export interface Scenario {
  name?: string;
  description?: string;
  seed?: number;
  /** How long to run, in virtual milliseconds. */
  durationMs: number;
  cluster?: { brokers?: number; host?: string; basePort?: number; clusterId?: string };
  coordinator?: {
    initialRebalanceDelayMs?: number;
    minSessionTimeoutMs?: number;
    maxSessionTimeoutMs?: number;
    maxGroupSize?: number;
    offsetsRetentionMs?: number;
    /** group.consumer.migration.policy: which online conversions between classic and consumer groups run. */
    consumerGroupMigrationPolicy?: ConsumerGroupMigrationPolicy;
  };
  topics: ScenarioTopic[];
  consumers?: ScenarioConsumer[];
  producers?: ScenarioProducer[];
  actions?: ScenarioAction[];
}
