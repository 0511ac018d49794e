/**
 * A scenario's Kafka Streams applications at run time: each instance is a process (one process id,
 * kept across restarts as Kafka Streams keeps it in its state directory) running `threads` StreamThreads,
 * each a member of the application's streams group. Actions name an instance to crash, stop or restart
 * all its threads at once, as killing or restarting the process would.
 */
import type { StreamsSubtopologySpec } from '../common/control';
import type { Simulation } from '../simulation';
import type { ScenarioStreamsApp, ScenarioStreamsInstance, ScenarioStreamsSubtopology } from './scenarioTypes';

/** Kafka Streams' internal topic names: `<application.id>-<name>-repartition` and `<application.id>-<store>-changelog`. */
export function repartitionTopic(applicationId: string, name: string): string {
  return `${applicationId}-${name}-repartition`;
}

export function changelogTopic(applicationId: string, store: string): string {
  return `${applicationId}-${store}-changelog`;
}

function subtopologySpec(applicationId: string, s: ScenarioStreamsSubtopology): StreamsSubtopologySpec {
  return {
    id: s.id,
    sourceTopics: [...(s.sourceTopics ?? [])],
    repartitionSourceTopics: (s.repartitionSources ?? []).map((name) => repartitionTopic(applicationId, name)),
    repartitionSinkTopics: (s.repartitionSinks ?? []).map((name) => repartitionTopic(applicationId, name)),
    stateChangelogTopics: (s.stores ?? []).map((store) => changelogTopic(applicationId, store)),
  };
}

export class ScenarioStreamsApps {
  private readonly apps: ReadonlyMap<string, ScenarioStreamsApp>;
  /** Instance id → its threads' consumer handles. */
  private readonly threads = new Map<string, string[]>();

  constructor(private readonly sim: Simulation, apps: readonly ScenarioStreamsApp[]) {
    this.apps = new Map(apps.map((app) => [app.applicationId, app]));
  }

  /** Starts every instance the scenario declares with its application. */
  startDeclared(): void {
    for (const app of this.apps.values()) {
      for (const instance of app.instances ?? []) {
        this.start(app.applicationId, instance);
      }
    }
  }

  /** Starts a new instance (a scale-out): a fresh process id, its threads joining the group. */
  start(applicationId: string, instance: ScenarioStreamsInstance): void {
    const app = this.apps.get(applicationId);
    if (app === undefined) {
      throw new Error(`no streams application "${applicationId}" (known: ${[...this.apps.keys()].join(', ') || 'none'})`);
    }
    if (this.threads.has(instance.id)) {
      throw new Error(`streams instance "${instance.id}" already exists`);
    }
    const processId = this.sim.random.uuid();
    const subtopologies = app.subtopologies.map((s) => subtopologySpec(applicationId, s));
    const handles: string[] = [];
    for (let n = 1; n <= (instance.threads ?? 1); n++) {
      const handle = `${instance.id}-StreamThread-${n}`;
      this.sim.addConsumer({
        groupId: applicationId,
        groupProtocol: 'streams',
        topics: [],
        clientId: `${applicationId}-${processId}-StreamThread-${n}-consumer`,
        processingTimeMs: instance.processingTimeMs,
        streams: { processId, subtopologies },
      }, handle);
      handles.push(handle);
    }
    this.threads.set(instance.id, handles);
  }

  /** The consumer handles an action's `consumer` stands for: an instance's threads, or the consumer itself. */
  handles(id: string): string[] {
    return this.threads.get(id) ?? [id];
  }
}
