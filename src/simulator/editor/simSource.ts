/**
 * The simulator behind the ClusterSource interface the views use, plus the control surface for the
 * simulator commands. Change notifications are throttled: a live simulation changes constantly.
 */
import type { Unsubscribe, ClusterSource } from '../../model/clusterSource';
import type { ClusterInfo, GroupDetail, GroupSummary, RebalanceEvent } from '../../model/types';
import type { ConsumerSpec, ProducerSpec, SimulatedConsumerInfo, SimulatorControl } from '../common/control';
import { describeSimGroup, listSimGroups, type IsolationLevelLookup } from '../admin/groupDetailMapper';
import { SimTransactionAdmin } from '../admin/simTransactionAdmin';
import { fillLsoHolders } from '../../transactions/lsoHolders';
import { errorMessage } from '../../protocol/errors';
import { LiveSimulation, type LiveTimers } from '../live';
import { buildScenario } from '../scenarios/runScenario';
import { BUILT_IN_SCENARIO_NAMES, BUILT_IN_SCENARIOS, isBuiltInScenarioName, type BuiltInScenarioName } from '../scenarios/builtIn';
import type { Simulation } from '../simulation';

export interface NotifyTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SimSourceOptions {
  id?: string;
  label?: string;
  /** Wall-clock pacing; omitted for a source driven in virtual time through `advance`. */
  live?: { speed?: number; tickMs?: number; timers?: LiveTimers };
  /** Minimum wall time between two change notifications; default 1000 ms. */
  notifyThrottleMs?: number;
  notifyTimers?: NotifyTimers;
  /** Groups whose consumers read with read_committed (kafkaGroupLens.readCommittedGroups); see setIsolationLevelLookup. */
  isolationLevelFor?: IsolationLevelLookup;
}

const realNotifyTimers: NotifyTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class SimSource implements ClusterSource {
  readonly kind = 'simulator' as const;
  readonly id: string;
  readonly label: string;
  readonly control: SimulatorControl;
  readonly live: LiveSimulation | null;
  /** A paced simulation's clock starts at the wall clock's now; an unpaced one counts from 0. */
  readonly timeBase: 'epoch' | 'virtual';
  private readonly listeners = new Set<() => void>();
  private readonly throttleMs: number;
  private readonly timers: NotifyTimers;
  private pendingNotify: unknown = null;
  private lastNotify = -Infinity;
  private disposed = false;
  private readonly stopEvents: () => void;
  private isolationLevelFor: IsolationLevelLookup | undefined;
  /** What Kafka's Admin client reads for transactions, answered from this source's simulation. */
  readonly transactions: SimTransactionAdmin;

  constructor(
    readonly simulation: Simulation,
    options: SimSourceOptions = {},
  ) {
    this.id = options.id ?? 'simulator';
    this.label = options.label ?? 'Simulator';
    this.throttleMs = options.notifyThrottleMs ?? 1000;
    this.timers = options.notifyTimers ?? realNotifyTimers;
    this.isolationLevelFor = options.isolationLevelFor;
    this.transactions = new SimTransactionAdmin(simulation);
    this.control = this.createControl();
    this.stopEvents = simulation.events.subscribe(() => this.changed());
    this.live = options.live ? new LiveSimulation(simulation, { ...options.live, onAdvance: () => this.changed() }) : null;
    this.timeBase = this.live ? 'epoch' : 'virtual';
    this.live?.start();
  }

  /** The simulation's clock, which its events and LSO holders are timed on. */
  now(): number {
    return this.simulation.now;
  }

  async describeCluster(): Promise<ClusterInfo> {
    this.assertOpen();
    return this.simulation.cluster.describe();
  }

  async listGroups(): Promise<GroupSummary[]> {
    this.assertOpen();
    return listSimGroups(this.simulation, this.isolationLevelFor);
  }

  /** With lag in time filled in, which describeGroup leaves out as KafkaSource's describeGroup does. */
  async listGroupDetails(): Promise<GroupDetail[]> {
    this.assertOpen();
    return this.withLsoHolders(this.simulation.coordinator.groupIds().sort().map((id) => this.withLagInTime(describeSimGroup(this.simulation, id, this.isolationLevelFor))));
  }

  /** A group that does not exist is described as Dead with no members, as Kafka's DescribeGroups does. */
  async describeGroup(groupId: string): Promise<GroupDetail> {
    this.assertOpen();
    const [detail] = await this.withLsoHolders([describeSimGroup(this.simulation, groupId, this.isolationLevelFor)]);
    return detail;
  }

  /** Names the open transaction holding a read_committed group's LSO, as KafkaSource does (issue 28). */
  private async withLsoHolders(details: GroupDetail[]): Promise<GroupDetail[]> {
    const rows = details.filter((d) => d.isolationLevel === 'read_committed').flatMap((d) => d.offsets);
    await fillLsoHolders(rows, this.transactions, errorMessage);
    return details;
  }

  /**
   * Lag in time from the partition logs' timestamps: the simulator reads the record at the committed offset
   * directly (a real cluster fetches its batch), so the figure is exact at batch resolution. The span of produced
   * time still to consume is the newest record's timestamp (the time index's maximum, as ListOffsets MAX_TIMESTAMP
   * answers) minus that one.
   */
  private withLagInTime(detail: GroupDetail): GroupDetail {
    const now = this.simulation.now;
    for (const row of detail.offsets) {
      const log = this.simulation.cluster.partition(row.topic, row.partition);
      if (!log || row.committedOffset === null || row.logEndOffset === null) {
        continue;
      }
      if (row.logEndOffset <= row.committedOffset) {
        row.lagInTimeMs = 0;
        row.lagInTimeSpanMs = 0;
        continue;
      }
      const stamp = log.timestampAt(Math.max(row.committedOffset, log.logStartOffset));
      row.lagInTimeMs = stamp === null ? null : Math.max(0, now - stamp);
      const newest = log.maxTimestampAndOffset();
      // The time index keeps a running maximum, so the newest is never below the first unconsumed one.
      row.lagInTimeSpanMs = stamp === null || newest === null ? null : Math.max(0, newest.timestamp - stamp);
      if (row.committedOffset < log.logStartOffset) {
        row.lagInTimeApproximate = ['retention'];
      }
    }
    const known = detail.offsets.map((o) => o.lagInTimeMs).filter((ms): ms is number => ms != null);
    if (known.length > 0) {
      detail.maxLagInTimeMs = Math.max(...known);
    }
    return detail;
  }

  /**
   * Which groups read with read_committed, as the user set it: their lag is also shown against the
   * last stable offset, whether their consumers are simulated or real clients of the exposed
   * server (which cannot tell). Takes effect at the next refresh, without restarting the cluster.
   */
  setIsolationLevelLookup(lookup: IsolationLevelLookup | undefined): void {
    this.isolationLevelFor = lookup;
    this.changed();
  }

  onDidChange(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  rebalanceEvents(groupId: string): RebalanceEvent[] {
    return this.simulation.events.forGroup(groupId);
  }

  /** Runs the simulation forward in virtual time (for sources that are not paced). */
  advance(ms: number): void {
    this.assertOpen();
    this.simulation.advance(ms);
    this.changed();
  }

  async dispose(): Promise<void> {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.live?.dispose();
    this.stopEvents();
    if (this.pendingNotify !== null) {
      this.timers.clearTimeout(this.pendingNotify);
      this.pendingNotify = null;
    }
    this.listeners.clear();
    this.simulation.dispose();
  }

  private assertOpen(): void {
    if (this.disposed) {
      throw new Error(`Simulator source "${this.label}" has been disposed`);
    }
  }

  /** Coalesces change notifications to at most one per throttle window. */
  private changed(): void {
    if (this.disposed || this.pendingNotify !== null) {
      return;
    }
    const wait = Math.max(0, this.lastNotify + this.throttleMs - this.timers.now());
    this.pendingNotify = this.timers.setTimeout(() => {
      this.pendingNotify = null;
      this.lastNotify = this.timers.now();
      for (const listener of [...this.listeners]) {
        listener();
      }
    }, wait);
  }

  private createControl(): SimulatorControl {
    const sim = this.simulation;
    const act = <T>(run: () => T): T => {
      this.assertOpen();
      const result = run();
      this.changed();
      return result;
    };
    return {
      addConsumer: (spec: ConsumerSpec): SimulatedConsumerInfo => act(() => sim.addConsumer(spec)),
      stopConsumer: (handle: string) => act(() => sim.stopConsumer(handle)),
      crashConsumer: (handle: string) => act(() => sim.crashConsumer(handle)),
      pausePolling: (handle: string, durationMs: number) => act(() => sim.pausePolling(handle, durationMs)),
      restartConsumer: (handle: string) => act(() => sim.restartConsumer(handle)),
      startProducer: (spec: ProducerSpec) => act(() => sim.startProducer(spec)),
      stopProducer: (handle: string) => act(() => sim.stopProducer(handle)),
      listConsumers: (groupId?: string) => sim.listConsumers(groupId),
      listTopics: () => sim.listTopics(),
      createTopic: (name: string, partitions: number) => act(() => sim.createTopic(name, partitions)),
    };
  }
}

export { BUILT_IN_SCENARIO_NAMES, isBuiltInScenarioName, type BuiltInScenarioName } from '../scenarios/builtIn';

export interface DemoSimSourceOptions {
  /** Run against the wall clock (started at once; dispose stops it). Default false. */
  paced?: boolean;
  /** Virtual ms per wall ms when paced; default 1. */
  speed?: number;
  seed?: number;
  /** Which built-in scenario to run; default "demo". */
  scenario?: BuiltInScenarioName;
  /** Groups whose consumers read with read_committed (the kafkaGroupLens.readCommittedGroups setting). */
  isolationLevelFor?: IsolationLevelLookup;
}

/**
 * A built-in scenario's cluster, by default the demo of src/simulator/scenarios/demo.ts. Paced, its
 * virtual clock starts at the current epoch time so record timestamps and event times are real dates;
 * unpaced, it starts at 0 and is driven with `advance`.
 */
export function createDemoSimSource(options: DemoSimSourceOptions = {}): SimSource {
  const name = options.scenario ?? 'demo';
  if (!isBuiltInScenarioName(name)) {
    throw new Error(`Unknown simulator scenario "${String(name)}"; expected one of: ${BUILT_IN_SCENARIO_NAMES.join(', ')}`);
  }
  const startTime = options.paced ? Date.now() : 0;
  const { simulation } = buildScenario(BUILT_IN_SCENARIOS[name], { startTime, seed: options.seed });
  return new SimSource(simulation, {
    id: 'simulator',
    label: `Simulator (${name})`,
    live: options.paced ? { speed: options.speed ?? 1 } : undefined,
    isolationLevelFor: options.isolationLevelFor,
  });
}
