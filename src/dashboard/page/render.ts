/** Draws a snapshot: the title and subtitle as text, three charts per topic on one time axis, or the empty state. */
import type { DashboardSnapshot, TopicSeriesData } from '../dashboardProtocol';
import { lineChart } from './chart';

export function renderSnapshot(snapshot: DashboardSnapshot): void {
  byId('title').textContent = `Dashboard of ${snapshot.groupId}`;
  const samples = snapshot.times.length;
  byId('subtitle').textContent = `${snapshot.cluster} · ${samples} sample${samples === 1 ? '' : 's'} · ${snapshot.rebalances.length} rebalance${snapshot.rebalances.length === 1 ? '' : 's'}`;
  const empty = samples === 0 || snapshot.topics.length === 0;
  byId('empty').hidden = !empty;
  byId('topics').replaceChildren(...(empty ? [] : snapshot.topics.map((topic) => topicSection(topic, snapshot))));
}

function topicSection(topic: TopicSeriesData, { times, rebalances }: DashboardSnapshot): HTMLElement {
  const section = document.createElement('section');
  section.className = 'topic';
  const heading = document.createElement('h2');
  heading.textContent = `${topic.topic} (${topic.partitions} partition${topic.partitions === 1 ? '' : 's'})`;
  section.append(
    heading,
    lineChart({ title: 'Lag (messages)', lines: [{ className: 'lag', values: topic.lag }], times, markers: rebalances, format: count }),
    lineChart({ title: 'Lag in time (largest partition)', lines: [{ className: 'lag', values: topic.maxLagInTimeMs }], times, markers: rebalances, format: duration }),
    lineChart({
      title: 'Consumption vs production (offsets/s)',
      lines: [{ className: 'consumed', values: topic.consumedPerSec }, { className: 'produced', values: topic.producedPerSec }],
      times,
      markers: rebalances,
      format: rate,
    }),
  );
  return section;
}

function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function rate(value: number): string {
  return value >= 100 ? count(value) : value.toFixed(1);
}

function duration(ms: number): string {
  if (ms < 1000) {
    return `${Math.round(ms)} ms`;
  }
  if (ms < 120_000) {
    return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  }
  return `${(ms / 60_000).toFixed(1)} min`;
}

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) {
    throw new Error(`dashboard page: #${id} is missing`);
  }
  return element;
}
