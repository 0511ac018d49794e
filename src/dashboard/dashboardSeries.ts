/**
 * The dashboard's snapshot of one group from the lag samples the tree took (`GroupHealthTracker.series`): per topic,
 * the total lag, the largest lag in time, and the consumption and production rates (committed and log end offsets
 * per second between consecutive samples), with the group's rebalances in the same time range as markers.
 */
import type { GroupSeries, PartitionSeries } from '../health/lagSamples';
import type { RebalanceEvent } from '../model/types';
import type { DashboardSnapshot, RebalanceMarkerData, TopicSeriesData } from './dashboardProtocol';

export function dashboardSnapshot(groupId: string, cluster: string, series: GroupSeries | undefined, rebalances: readonly RebalanceEvent[]): DashboardSnapshot {
  const times = series ? Array.from(series.times) : [];
  const byTopic = new Map<string, PartitionSeries[]>();
  for (const partition of series?.partitions ?? []) {
    const list = byTopic.get(partition.topic) ?? [];
    list.push(partition);
    byTopic.set(partition.topic, list);
  }
  const topics = [...byTopic.keys()].sort().map((topic) => topicSeries(topic, byTopic.get(topic) ?? [], times));
  return { groupId, cluster, times, topics, rebalances: markersWithin(rebalances, times) };
}

function topicSeries(topic: string, partitions: readonly PartitionSeries[], times: readonly number[]): TopicSeriesData {
  return {
    topic,
    partitions: partitions.length,
    lag: times.map((_, i) => sumKnown(partitions, (p) => p.logEnd[i] - p.committed[i])),
    maxLagInTimeMs: times.map((_, i) => maxKnown(partitions, (p) => (p.lagInTimeMs ? p.lagInTimeMs[i] : NaN))),
    consumedPerSec: times.map((_, i) => ratePerSecond(partitions, (p) => p.committed, times, i)),
    producedPerSec: times.map((_, i) => ratePerSecond(partitions, (p) => p.logEnd, times, i)),
  };
}

/**
 * Offsets per second between sample i − 1 and i, summed over the partitions known at both. A partition whose offset
 * went back (a reset, a recreated topic) says nothing about the rate and is left out, rather than drawn as a negative one.
 */
export function ratePerSecond(partitions: readonly PartitionSeries[], column: (p: PartitionSeries) => Float64Array, times: readonly number[], i: number): number | null {
  const seconds = i > 0 ? (times[i] - times[i - 1]) / 1000 : 0;
  if (!(seconds > 0)) {
    return null;
  }
  return sumKnown(partitions, (p) => {
    const delta = column(p)[i] - column(p)[i - 1];
    return delta >= 0 ? delta / seconds : NaN;
  });
}

/** Sum of the finite values; null when there is none. */
function sumKnown(partitions: readonly PartitionSeries[], value: (p: PartitionSeries) => number): number | null {
  let total: number | null = null;
  for (const p of partitions) {
    const v = value(p);
    if (Number.isFinite(v)) {
      total = (total ?? 0) + v;
    }
  }
  return total;
}

function maxKnown(partitions: readonly PartitionSeries[], value: (p: PartitionSeries) => number): number | null {
  let max: number | null = null;
  for (const p of partitions) {
    const v = value(p);
    if (Number.isFinite(v) && (max === null || v > max)) {
      max = v;
    }
  }
  return max;
}

/** The rebalances within the samples' time range: a marker outside the axis would only stretch it. */
function markersWithin(rebalances: readonly RebalanceEvent[], times: readonly number[]): RebalanceMarkerData[] {
  if (times.length === 0) {
    return [];
  }
  const first = times[0];
  const last = times[times.length - 1];
  return rebalances
    .filter((event) => event.time >= first && event.time <= last)
    .map((event) => ({ time: event.time, label: event.cause ? `${event.kind}: ${event.cause}` : event.kind }));
}
