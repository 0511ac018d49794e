/**
 * How much work a (structurally valid) scenario implies, so a scenario cannot ask the engine for
 * hours of CPU: a 1 ms heartbeat over 30 days is 2.6 billion events. The engine runs a few million
 * events a second, so the bound keeps any accepted scenario to seconds. Periodic wake-ups are
 * counted per consumer (heartbeats, auto-commits, and polls, which only run while there are records
 * to read, so at most one per record) and per producer (one flush a second).
 */
import { CONSUMER_DEFAULTS } from '../clients/consumer/consumer';
import type { Scenario, ScenarioConsumer, ScenarioProducer } from './scenarioTypes';

/** Engine events a scenario may imply. */
export const MAX_SCENARIO_EVENTS = 10_000_000;

const PRODUCER_FLUSH_MS = 1000;

interface Running<T> {
  item: T;
  path: string;
  fromMs: number;
}

function consumersOf(scenario: Scenario): Array<Running<ScenarioConsumer>> {
  const declared = (scenario.consumers ?? []).map((item, i) => ({ item, path: `scenario.consumers[${i}]`, fromMs: 0 }));
  const joined = (scenario.actions ?? []).flatMap((a, i) => (a.type === 'join' ? [{ item: a.consumer, path: `scenario.actions[${i}].consumer`, fromMs: a.atMs }] : []));
  return [...declared, ...joined];
}

function producersOf(scenario: Scenario): Array<Running<ScenarioProducer>> {
  const declared = (scenario.producers ?? []).map((item, i) => ({ item, path: `scenario.producers[${i}]`, fromMs: item.startAtMs ?? 0 }));
  const started = (scenario.actions ?? []).flatMap((a, i) => (a.type === 'startProducer' ? [{ item: a.producer, path: `scenario.actions[${i}].producer`, fromMs: a.atMs }] : []));
  return [...declared, ...started];
}

/** Records each topic receives over the scenario (an upper bound). */
function recordsPerTopic(scenario: Scenario): Map<string, number> {
  const records = new Map<string, number>();
  const add = (topic: string, n: number) => records.set(topic, (records.get(topic) ?? 0) + n);
  for (const topic of scenario.topics) {
    add(topic.name, topic.initialRecords ?? 0);
  }
  for (const { item, fromMs } of producersOf(scenario)) {
    const runMs = Math.max(0, Math.min(item.durationMs ?? Infinity, scenario.durationMs - fromMs));
    add(item.topic, (item.recordsPerSecond * runMs) / 1000);
  }
  for (const action of scenario.actions ?? []) {
    if (action.type === 'produce' || action.type === 'produceTransactional') {
      add(action.topic, action.records);
    }
  }
  return records;
}

/** Issues (path: why) when the scenario implies more than MAX_SCENARIO_EVENTS events; empty when it does not. */
export function scenarioWorkIssues(scenario: Scenario): string[] {
  const records = recordsPerTopic(scenario);
  const issues: string[] = [];
  let total = 0;
  for (const { item, path, fromMs } of consumersOf(scenario)) {
    const runMs = Math.max(0, scenario.durationMs - fromMs);
    const heartbeatMs = item.heartbeatIntervalMs ?? CONSUMER_DEFAULTS.heartbeatIntervalMs;
    const autoCommit = item.enableAutoCommit ?? CONSUMER_DEFAULTS.enableAutoCommit;
    const autoCommitMs = item.autoCommitIntervalMs ?? CONSUMER_DEFAULTS.autoCommitIntervalMs;
    const pollMs = Math.max(1, item.processingTimeMs ?? CONSUMER_DEFAULTS.processingTimeMs);
    // A regex subscription may match any topic.
    const readable = (item.topics ?? [...records.keys()]).reduce((n, t) => n + (records.get(t) ?? 0), 0);
    const heartbeats = runMs / heartbeatMs;
    const commits = autoCommit ? runMs / autoCommitMs : 0;
    const polls = Math.min(runMs / pollMs, readable);
    const events = heartbeats + commits + polls;
    if (events > MAX_SCENARIO_EVENTS) {
      issues.push(
        `${path}: implies about ${Math.round(events)} engine events over ${runMs} ms (${Math.round(heartbeats)} heartbeats every ${heartbeatMs} ms, ` +
          `${Math.round(commits)} auto-commits, up to ${Math.round(polls)} polls); the limit is ${MAX_SCENARIO_EVENTS}: raise the intervals or shorten scenario.durationMs`,
      );
    }
    total += events;
  }
  for (const { item, fromMs } of producersOf(scenario)) {
    total += Math.max(0, Math.min(item.durationMs ?? Infinity, scenario.durationMs - fromMs)) / PRODUCER_FLUSH_MS;
  }
  if (issues.length === 0 && total > MAX_SCENARIO_EVENTS) {
    issues.push(`scenario.durationMs: the consumers and producers together imply about ${Math.round(total)} engine events; the limit is ${MAX_SCENARIO_EVENTS}: raise their intervals or shorten the scenario`);
  }
  return issues;
}
