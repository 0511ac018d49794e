/**
 * Runs a JSON scenario (see docs/scenarios.md) in virtual time. `runScenario` is the contract that
 * tests and tools use: it returns the whole event log and every group's final description.
 */
import type { GroupDetail, RebalanceEvent } from '../../model/types';
import { describeSimGroup } from '../admin/groupDetailMapper';
import { produceRecords } from '../clients/producer/producer';
import { validateScenario, type Scenario, type ScenarioAction, type ScenarioConsumer, type ScenarioProducer } from './scenarioSchema';
import { Simulation } from '../simulation';
import { ScenarioStreamsApps } from './streamsApps';
import { errorMessage } from '../../protocol/errors';

export type { Scenario, ScenarioAction } from './scenarioSchema';
export { ScenarioValidationError, validateScenario } from './scenarioSchema';

export interface ScenarioResult {
  events: RebalanceEvent[];
  groups: GroupDetail[];
}

export interface BuildOptions {
  /** Virtual start time (epoch ms for the live view); action times are relative to it. Default 0. */
  startTime?: number;
  /** Overrides the scenario's seed. */
  seed?: number;
  eventsPerGroup?: number;
}

function describeAction(action: ScenarioAction, index: number): string {
  return `scenario.actions[${index}] (${action.type} at ${action.atMs} ms)`;
}

/** A regex subscriber (consumer protocol) names no topics. */
function addScenarioConsumer(sim: Simulation, consumer: ScenarioConsumer): void {
  const { id, topics, ...spec } = consumer;
  sim.addConsumer({ ...spec, topics: topics ?? [] }, id);
}

function startProducer(sim: Simulation, producer: ScenarioProducer, index: number): void {
  const handle = producer.id ?? `producer-${index + 1}`;
  sim.startProducer({ topic: producer.topic, recordsPerSecond: producer.recordsPerSecond, durationMs: producer.durationMs }, handle);
}

/** The consume-process-produce step: the consumer's positions and group metadata go into the transaction. */
function sendConsumerOffsets(sim: Simulation, transactionalId: string, consumerHandle: string): void {
  const consumer = sim.consumer(consumerHandle);
  const offsets = consumer.positions.filter((p) => p.position >= 0).map(({ topic, partition, position }) => ({ topic, partition, offset: position }));
  if (offsets.length === 0) {
    throw new Error(`consumer "${consumerHandle}" has no fetched positions to send (is it assigned and running?)`);
  }
  sim.transactionalProducer(transactionalId).sendOffsetsToTransaction(offsets, consumer.groupMetadata);
}

function perform(sim: Simulation, streams: ScenarioStreamsApps, action: ScenarioAction, where: string): void {
  switch (action.type) {
    case 'join':
      addScenarioConsumer(sim, action.consumer);
      return;
    case 'leave':
      streams.handles(action.consumer).forEach((handle) => sim.stopConsumer(handle));
      return;
    case 'crash':
      streams.handles(action.consumer).forEach((handle) => sim.crashConsumer(handle));
      return;
    case 'restart':
      streams.handles(action.consumer).forEach((handle) => sim.restartConsumer(handle));
      return;
    case 'startStreamsInstance':
      streams.start(action.app, action.instance);
      return;
    case 'pause':
      streams.handles(action.consumer).forEach((handle) => sim.pausePolling(handle, action.durationMs));
      return;
    case 'produce':
      produceRecords(sim.cluster.requireTopic(action.topic), action.records, sim.now, action.partition);
      return;
    case 'startProducer':
      startProducer(sim, action.producer, 0);
      return;
    case 'stopProducer':
      sim.stopProducer(action.producer);
      return;
    case 'beginTransaction':
      // The first use of a transactional.id is its initTransactions().
      sim.initTransactionsOnce(action.transactionalId).beginTransaction();
      return;
    case 'produceTransactional':
      sim.transactionalProducer(action.transactionalId).send(action.topic, action.records, action.partition);
      return;
    case 'sendOffsetsToTransaction':
      sendConsumerOffsets(sim, action.transactionalId, action.consumer);
      return;
    case 'commitTransaction':
      sim.transactionalProducer(action.transactionalId).commitTransaction();
      return;
    case 'abortTransaction':
      sim.transactionalProducer(action.transactionalId).abortTransaction();
      if (action.rewindConsumer !== undefined) {
        sim.consumer(action.rewindConsumer).seekToCommitted();
      }
      return;
    case 'commit': {
      const byTopic = new Map<string, Array<{ partition: number; offset: number; metadata?: string }>>();
      for (const o of action.offsets) {
        byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), { partition: o.partition, offset: o.offset, metadata: o.metadata }]);
      }
      // An admin commit, as kafka-consumer-groups.sh --reset-offsets sends it: generation -1, no member.
      sim.coordinator.offsetCommit(
        { groupId: action.groupId, generationId: -1, memberId: '', groupInstanceId: null, topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })) },
        (response) => {
          const failed = response.topics.flatMap((t) => t.partitions.filter((p) => p.errorCode !== 'NONE').map((p) => `${t.name}-${p.partition}: ${p.errorCode}`));
          if (failed.length > 0) {
            throw new Error(`${where}: commit to group "${action.groupId}" failed (${failed.join(', ')})`);
          }
        },
      );
      return;
    }
  }
}

/** Builds the simulation of a scenario with its timed actions queued; nothing has run yet. */
export function buildScenario(input: unknown, options: BuildOptions = {}): { simulation: Simulation; scenario: Scenario } {
  const scenario = validateScenario(input);
  const start = options.startTime ?? 0;
  const simulation = new Simulation({
    seed: options.seed ?? scenario.seed ?? 1,
    startTime: start,
    cluster: scenario.cluster,
    coordinator: scenario.coordinator,
    streamsGroup: scenario.streamsGroup,
    eventsPerGroup: options.eventsPerGroup,
  });
  for (const topic of scenario.topics) {
    try {
      const created = simulation.cluster.createTopic(topic.name, topic.partitions);
      if (topic.initialRecords) {
        produceRecords(created, topic.initialRecords, start);
      }
    } catch (e) {
      throw new Error(`scenario.topics: ${errorMessage(e)}`);
    }
  }
  (scenario.producers ?? []).forEach((producer, i) => {
    const at = producer.startAtMs ?? 0;
    simulation.clock.scheduleAt(start + at, () => startProducer(simulation, producer, i));
  });
  for (const consumer of scenario.consumers ?? []) {
    addScenarioConsumer(simulation, consumer);
  }
  const streams = new ScenarioStreamsApps(simulation, scenario.streamsApps ?? []);
  streams.startDeclared();
  (scenario.actions ?? [])
    .map((action, index) => ({ action, index }))
    .sort((a, b) => a.action.atMs - b.action.atMs || a.index - b.index)
    .forEach(({ action, index }) => {
      const where = describeAction(action, index);
      simulation.clock.scheduleAt(start + action.atMs, () => {
        try {
          perform(simulation, streams, action, where);
        } catch (e) {
          const message = errorMessage(e);
          throw new Error(message.startsWith(where) ? message : `${where}: ${message}`);
        }
      });
    });
  return { simulation, scenario };
}

/** Validates and runs a scenario for its durationMs of virtual time. */
export function runScenario(input: unknown): ScenarioResult {
  const { simulation, scenario } = buildScenario(input);
  const events: RebalanceEvent[] = [];
  const unsubscribe = simulation.events.subscribe((event) => events.push(event));
  try {
    simulation.runUntil(scenario.durationMs);
  } finally {
    unsubscribe();
  }
  const groups = simulation.coordinator
    .groupIds()
    .sort()
    .map((id) => describeSimGroup(simulation, id));
  simulation.dispose();
  return { events, groups };
}
