/**
 * The checks of a scenario's Kafka Streams applications (`streamsApps`), the broker's streams-group
 * configs (`streamsGroup`) and the `startStreamsInstance` action; scenarioSchema.ts calls them.
 */
import type { Checker, Json, ScenarioContext } from './scenarioChecker';

const MAX_THREADS = 32;

function names(c: Checker, obj: Json, key: string, path: string): string[] {
  if (obj[key] === undefined) {
    return [];
  }
  const list = c.array(obj[key], `${path}.${key}`) ?? [];
  return list.flatMap((name, i) => {
    if (typeof name !== 'string' || name.length === 0) {
      c.fail(`${path}.${key}[${i}]`, 'a non-empty string', name);
      return [];
    }
    return [name];
  });
}

/** An instance of an application: its id names it in actions, as a consumer's does. */
export function checkStreamsInstance(c: Checker, value: unknown, path: string, ctx: ScenarioContext): void {
  const obj = c.object(value, path);
  if (!obj) {
    return;
  }
  c.unknownKeys(obj, path, ['id', 'threads', 'processingTimeMs']);
  const id = c.string(obj, 'id', path);
  if (id !== undefined) {
    if (ctx.consumerIds.has(id)) {
      c.issues.push(`${path}.id: "${id}" is already the id of a consumer or streams instance`);
    }
    ctx.consumerIds.add(id);
  }
  c.number(obj, 'threads', path, { optional: true, min: 1, max: MAX_THREADS, integer: true });
  c.number(obj, 'processingTimeMs', path, { optional: true, min: 0 });
}

function checkSubtopologies(c: Checker, app: Json, path: string, ctx: ScenarioContext): void {
  const subtopologies = c.array(app.subtopologies, `${path}.subtopologies`);
  if (subtopologies === null) {
    return;
  }
  if (subtopologies.length === 0) {
    c.issues.push(`${path}.subtopologies: expected at least one subtopology`);
  }
  const ids = new Set<string>();
  const sinks = new Set<string>();
  const sources: Array<{ name: string; where: string }> = [];
  subtopologies.forEach((value, i) => {
    const where = `${path}.subtopologies[${i}]`;
    const s = c.object(value, where);
    if (!s) {
      return;
    }
    c.unknownKeys(s, where, ['id', 'sourceTopics', 'repartitionSources', 'repartitionSinks', 'stores']);
    const id = c.string(s, 'id', where);
    if (id !== undefined && ids.has(id)) {
      c.issues.push(`${where}.id: subtopology "${id}" is declared twice`);
    }
    ids.add(id ?? '');
    const topics = names(c, s, 'sourceTopics', where);
    topics.forEach((topic, t) => {
      if (!ctx.topics.has(topic)) {
        c.fail(`${where}.sourceTopics[${t}]`, `a topic declared in topics (${[...ctx.topics.keys()].join(', ')})`, topic);
      }
    });
    const repartitionSources = names(c, s, 'repartitionSources', where);
    repartitionSources.forEach((name, r) => sources.push({ name, where: `${where}.repartitionSources[${r}]` }));
    names(c, s, 'repartitionSinks', where).forEach((name) => sinks.add(name));
    names(c, s, 'stores', where);
    if (topics.length === 0 && repartitionSources.length === 0) {
      c.issues.push(`${where}: a subtopology reads something: give it sourceTopics or repartitionSources`);
    }
  });
  for (const { name, where } of sources.filter((source) => !sinks.has(source.name))) {
    c.issues.push(`${where}: no subtopology writes the repartition topic "${name}" (list it in another subtopology's repartitionSinks)`);
  }
}

/** `streamsApps`: each application's id, topology and the instances it starts with. */
export function checkStreamsApps(c: Checker, value: unknown, ctx: ScenarioContext, consumerGroupIds: ReadonlySet<string>): void {
  const apps = c.array(value, 'scenario.streamsApps') ?? [];
  apps.forEach((raw, i) => {
    const path = `scenario.streamsApps[${i}]`;
    const app = c.object(raw, path);
    if (!app) {
      return;
    }
    c.unknownKeys(app, path, ['applicationId', 'subtopologies', 'instances']);
    const applicationId = c.string(app, 'applicationId', path);
    if (applicationId !== undefined) {
      if (ctx.streamsApps.has(applicationId)) {
        c.issues.push(`${path}.applicationId: application "${applicationId}" is declared twice`);
      }
      if (consumerGroupIds.has(applicationId)) {
        c.issues.push(`${path}.applicationId: "${applicationId}" is a consumer's groupId; a streams group needs an id of its own (the coordinator refuses "not a streams group")`);
      }
      ctx.streamsApps.add(applicationId);
    }
    checkSubtopologies(c, app, path, ctx);
    if (app.instances !== undefined) {
      c.array(app.instances, `${path}.instances`)?.forEach((instance, k) => checkStreamsInstance(c, instance, `${path}.instances[${k}]`, ctx));
    }
  });
}

/** `streamsGroup`: the broker's group.streams.* configs. */
export function checkStreamsGroupConfig(c: Checker, value: unknown): void {
  const obj = c.object(value, 'scenario.streamsGroup');
  if (!obj) {
    return;
  }
  const path = 'scenario.streamsGroup';
  c.unknownKeys(obj, path, ['numStandbyReplicas', 'initialRebalanceDelayMs', 'sessionTimeoutMs', 'heartbeatIntervalMs']);
  c.number(obj, 'numStandbyReplicas', path, { optional: true, min: 0, max: 2, integer: true });
  c.number(obj, 'initialRebalanceDelayMs', path, { optional: true, min: 0, integer: true });
  const session = c.number(obj, 'sessionTimeoutMs', path, { optional: true, min: 1, integer: true }) ?? 45_000;
  const heartbeat = c.number(obj, 'heartbeatIntervalMs', path, { optional: true, min: 1, integer: true }) ?? 5_000;
  if (heartbeat >= session) {
    c.issues.push(`${path}.heartbeatIntervalMs: ${heartbeat} must be lower than the session timeout (${session} ms)`);
  }
}

/** The startStreamsInstance action: an instance of a declared application. */
export function checkStartStreamsInstance(c: Checker, obj: Json, path: string, ctx: ScenarioContext): void {
  c.unknownKeys(obj, path, ['atMs', 'type', 'app', 'instance']);
  if (typeof obj.app !== 'string' || !ctx.streamsApps.has(obj.app)) {
    c.fail(`${path}.app`, `the applicationId of an app declared in streamsApps (${[...ctx.streamsApps].join(', ')})`, obj.app);
  }
  checkStreamsInstance(c, obj.instance, `${path}.instance`, ctx);
}
