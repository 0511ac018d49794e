/**
 * The two timelines of one simulated group, for tests that hold them equal: the engine's own event
 * log, and the one the real-cluster derivation (OffsetsTopicEventLog) reads from the records the
 * coordinator wrote to `__consumer_offsets`, fetched as a broker sends them (record batches, decoded).
 *
 * What both can say, and so what is compared:
 * - classic groups: each settled generation (Stable after the leader's SyncGroup, Empty after a join
 *   phase with no members, Dead at deletion) with its number, time and members with their
 *   partitions. The engine also knows when each JoinGroup arrived and each rebalance started; the
 *   GroupMetadataValue records only the generation's membership and join completion, so those are not compared;
 * - consumer groups (KIP-848): every event, as both come from the same records; only the reason a
 *   member left (leave, session expiry, poll timeout) and the cause texts are the engine's alone.
 */
import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../src/model/types';
import type { ConsumerGroupHeartbeatRequestData } from '../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import { decodeRecordBatches } from '../../../src/protocol/recordBatch';
import { offsetsPartitionFor } from '../../../src/protocol/offsetsPartition';
import { OFFSETS_TOPIC, OFFSETS_TOPIC_PARTITIONS } from '../../../src/simulator/log/cluster';
import { encodeStoredBatches } from '../../../src/simulator/log/coordinatorRecordLog';
import type { AssignorName } from '../../../src/simulator/common/control';
import type { Simulation } from '../../../src/simulator/simulation';
import { OffsetsTopicEventLog } from '../../../src/timeline/offsetsTopicEventLog';
import { heartbeatRequest } from './coordinator/group/modern/consumer/engineSupport';

/** The topic the runs consume (the caller creates it, with 6 partitions for the classic run, 4 for the consumer group's). */
export const TIMELINE_TOPIC = 'orders';

/**
 * A classic group's life in virtual time through simulated consumers: three members join one after
 * the other, one leaves, the static one restarts (replaced without a rebalance), one crashes and
 * expires, the last one stops and expires (a static member sends no LeaveGroup).
 */
export function classicRun(sim: Simulation, assignor: AssignorName, groupId: string): void {
  const spec = { groupId, topics: [TIMELINE_TOPIC], assignors: [assignor], sessionTimeoutMs: 10000, heartbeatIntervalMs: 3000 };
  const handle = (name: string): string => `${groupId}-${name}`;
  sim.addConsumer({ ...spec, clientId: 'a' }, handle('a'));
  sim.advance(7000);
  sim.addConsumer({ ...spec, clientId: 'b' }, handle('b'));
  sim.advance(9000);
  sim.addConsumer({ ...spec, clientId: 'c', groupInstanceId: `${groupId}-static-c` }, handle('c'));
  sim.advance(20000);
  sim.stopConsumer(handle('b'));
  sim.advance(20000);
  sim.stopConsumer(handle('c'));
  sim.advance(2000);
  sim.restartConsumer(handle('c'));
  sim.advance(10000);
  sim.crashConsumer(handle('a'));
  sim.advance(40000);
  sim.stopConsumer(handle('c'));
  sim.advance(15000);
}

/**
 * A KIP-848 group driven through the coordinator's ConsumerGroupHeartbeat: a joins, static b joins
 * and a revokes what b gets, a leaves, b stops heartbeating and its session expires.
 */
export function consumerGroupRun(sim: Simulation, groupId: string): void {
  const context = { apiVersion: 1, clientId: 'java-consumer', clientHost: '/127.0.0.1' };
  const heartbeat = (request: Partial<ConsumerGroupHeartbeatRequestData> & { memberId: string }): ConsumerGroupHeartbeatResponseData => {
    let answer: ConsumerGroupHeartbeatResponseData | undefined;
    sim.coordinator.consumerGroupHeartbeat(context, heartbeatRequest({ groupId, ...request }), (response) => {
      answer = response;
    });
    sim.advance(0);
    assert.ok(answer && answer.errorCode === 0, JSON.stringify(answer));
    return answer;
  };
  const owned = (response: ConsumerGroupHeartbeatResponseData): ConsumerGroupHeartbeatRequestData['topicPartitions'] =>
    response.assignment?.topicPartitions.map((t) => ({ topicId: t.topicId, partitions: t.partitions })) ?? [];
  const join = { memberEpoch: 0, rebalanceTimeoutMs: 30000, subscribedTopicNames: [TIMELINE_TOPIC], topicPartitions: [] };
  let a = heartbeat({ memberId: `${groupId}-a`, ...join });
  sim.advance(1000);
  const b = heartbeat({ memberId: `${groupId}-b`, ...join, instanceId: `${groupId}-static-b` });
  sim.advance(1000);
  a = heartbeat({ memberId: `${groupId}-a`, memberEpoch: a.memberEpoch, topicPartitions: owned(a) }); // revokes what b gets
  heartbeat({ memberId: `${groupId}-a`, memberEpoch: a.memberEpoch, topicPartitions: owned(a) });
  sim.advance(1000);
  const b2 = heartbeat({ memberId: `${groupId}-b`, memberEpoch: b.memberEpoch, topicPartitions: owned(b) });
  sim.advance(1000);
  heartbeat({ memberId: `${groupId}-a`, memberEpoch: -1 }); // leaves
  sim.advance(1000);
  heartbeat({ memberId: `${groupId}-b`, memberEpoch: b2.memberEpoch, topicPartitions: owned(b2) });
  sim.advance(60000);
}

/** The group's events as a reader of its `__consumer_offsets` partition derives them, from the log start. */
export function eventsFromOffsetsTopic(sim: Simulation, groupId: string): RebalanceEvent[] {
  const log = sim.cluster.partition(OFFSETS_TOPIC, offsetsPartitionFor(groupId, OFFSETS_TOPIC_PARTITIONS));
  if (log?.storedRecords == null) {
    throw new Error(`${OFFSETS_TOPIC} has no stored records`);
  }
  const reader = new OffsetsTopicEventLog((topicId) => sim.cluster.topicById(topicId)?.name);
  const bytes = encodeStoredBatches(log.storedRecords.read(log.logStartOffset, 'read_uncommitted', Infinity));
  for (const batch of decodeRecordBatches(bytes)) {
    if (!batch.control) {
      for (const record of batch.records) {
        reader.ingest(record.key, record.value, Number(record.timestamp));
      }
      reader.endBatch();
    }
  }
  return reader.events(groupId);
}

/** One settled generation of a classic group: `member|instance|partitions` per member, sorted. */
export interface SettledGeneration {
  generation: number;
  time: number;
  state: string;
  members: string[];
}

const SETTLED = new Set(['Stable', 'Empty', 'Dead']);
const LEAVING = new Set(['member-left', 'member-expired', 'poll-timeout']);

/** The engine's coordinator events of a classic group: they carry the group state; the simulated clients' own events do not. */
export function coordinatorEvents(sim: Simulation, groupId: string): RebalanceEvent[] {
  return sim.events.forGroup(groupId).filter((event) => event.stateAfter !== undefined);
}

/**
 * Replays events in time order into the membership and partitions they describe, and takes it at
 * each settled state (after every event of that instant).
 */
export function settledGenerations(events: readonly RebalanceEvent[]): SettledGeneration[] {
  const members = new Map<string, { instanceId: string | null; partitions: Set<string> }>();
  const settled: SettledGeneration[] = [];
  let pending: Omit<SettledGeneration, 'members'> | null = null;
  const snapshot = (): void => {
    if (pending !== null) {
      const list = [...members].map(([id, m]) => `${id}|${m.instanceId ?? ''}|${[...m.partitions].sort().join(',')}`).sort();
      settled.push({ ...pending, members: list });
      pending = null;
    }
  };
  for (const event of [...events].sort((a, b) => a.time - b.time)) {
    if (pending !== null && event.time > pending.time) {
      snapshot();
    }
    const memberId = event.memberId ?? '';
    if (event.kind === 'member-joined' && !members.has(memberId)) {
      members.set(memberId, { instanceId: event.groupInstanceId ?? null, partitions: new Set() });
    } else if (event.kind === 'static-rejoin') {
      const replaced = [...members].find(([id, m]) => id !== memberId && m.instanceId !== null && m.instanceId === event.groupInstanceId);
      if (replaced) {
        members.delete(replaced[0]);
      }
      members.set(memberId, { instanceId: event.groupInstanceId ?? null, partitions: replaced?.[1].partitions ?? members.get(memberId)?.partitions ?? new Set() });
    } else if (LEAVING.has(event.kind)) {
      members.delete(memberId);
    }
    for (const change of event.assignments ?? []) {
      const member = members.get(change.memberId);
      change.revoked.forEach((tp) => member?.partitions.delete(`${tp.topic}-${tp.partition}`));
      change.assigned.forEach((tp) => member?.partitions.add(`${tp.topic}-${tp.partition}`));
    }
    if (event.kind === 'state-changed' && event.stateAfter !== undefined && SETTLED.has(event.stateAfter)) {
      if (event.stateAfter === 'Dead') {
        members.clear();
      }
      snapshot();
      pending = { generation: event.generation, time: event.time, state: event.stateAfter };
    }
  }
  snapshot();
  return settled;
}

/** A KIP-848 group's events without what only the engine knows: why a member left, and the cause texts. */
export function withoutCauses(events: readonly RebalanceEvent[]): RebalanceEvent[] {
  return events.map((event) => {
    const { cause: _cause, ...rest } = event;
    return LEAVING.has(event.kind) ? { ...rest, kind: 'member-left' } : rest;
  });
}
