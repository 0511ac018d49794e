/**
 * The coordinator writes Kafka's records to `__consumer_offsets`, and the real-cluster derivation
 * reading them gives the engine's own timeline (offsetsTopicTimeline.ts says what is compared).
 */
import { strict as assert } from 'node:assert';
import { offsetsPartitionFor } from '../../../../../src/protocol/offsetsPartition';
import { decodeRecordBatches } from '../../../../../src/protocol/recordBatch';
import { OFFSETS_TOPIC, OFFSETS_TOPIC_PARTITIONS } from '../../../../../src/simulator/log/cluster';
import { encodedRecord, encodeStoredBatches } from '../../../../../src/simulator/log/coordinatorRecordLog';
import type { AssignorName } from '../../../../../src/simulator/common/control';
import { Simulation } from '../../../../../src/simulator/simulation';
import { decodeOffsetsTopicRecord, type OffsetsTopicRecord } from '../../../../../src/timeline/groupMetadataRecord';
import { classicRun, consumerGroupRun, coordinatorEvents, eventsFromOffsetsTopic, settledGenerations, TIMELINE_TOPIC, withoutCauses } from '../../offsetsTopicTimeline';

const TOPIC = TIMELINE_TOPIC;

function classicSimulation(assignor: AssignorName, groupId: string): Simulation {
  const sim = new Simulation({ seed: 3 });
  sim.createTopic(TOPIC, 6);
  classicRun(sim, assignor, groupId);
  return sim;
}

function offsetsLog(sim: Simulation, groupId: string) {
  const log = sim.cluster.partition(OFFSETS_TOPIC, offsetsPartitionFor(groupId, OFFSETS_TOPIC_PARTITIONS));
  assert.ok(log?.storedRecords, 'no stored records');
  return { log, stored: log.storedRecords };
}

/** Every record of the group's partition, decoded as a reader decodes them, with its batch's base offset. */
function decodedRecords(sim: Simulation, groupId: string): Array<OffsetsTopicRecord & { batch: number }> {
  const { log, stored } = offsetsLog(sim, groupId);
  return decodeRecordBatches(encodeStoredBatches(stored.read(log.logStartOffset, 'read_uncommitted', Infinity)))
    .filter((batch) => !batch.control)
    .flatMap((batch) => batch.records.map((r) => ({ ...decodeOffsetsTopicRecord(r.key ?? new Uint8Array(0), r.value), batch: Number(batch.baseOffset) })));
}

function deleteGroup(sim: Simulation, groupId: string): string {
  let error = '';
  sim.coordinator.deleteGroups({ groupsNames: [groupId] }, (response) => {
    error = response.results[0].errorCode;
  });
  sim.advance(100);
  return error;
}

describe('simulator/coordinatorRecords: the coordinator writes Kafka\'s records to __consumer_offsets', () => {
  for (const assignor of ['range', 'cooperative-sticky'] as const) {
    it(`a classic group (${assignor}): the timeline read from its records is the engine's`, () => {
      const groupId = `classic-${assignor}`;
      const sim = classicSimulation(assignor, groupId);
      try {
        const engine = settledGenerations(coordinatorEvents(sim, groupId));
        assert.ok(engine.filter((g) => g.state === 'Stable').length >= 4, JSON.stringify(engine));
        assert.ok(coordinatorEvents(sim, groupId).some((e) => e.kind === 'static-rejoin' && e.stateAfter === 'Stable'), 'the static member came back without a rebalance');
        assert.equal(engine.at(-1)?.state, 'Empty');
        assert.deepEqual(settledGenerations(eventsFromOffsetsTopic(sim, groupId)), engine);

        // Deleting the group writes its offsets' tombstones and its own, and both timelines end Dead.
        assert.equal(deleteGroup(sim, groupId), 'NONE');
        const afterDelete = settledGenerations(coordinatorEvents(sim, groupId));
        assert.equal(afterDelete.at(-1)?.state, 'Dead');
        assert.deepEqual(settledGenerations(eventsFromOffsetsTopic(sim, groupId)), afterDelete);
        const tail = decodedRecords(sim, groupId).slice(-2);
        assert.deepEqual(tail.map((r) => r.type), ['offset-commit', 'group-metadata']);
        assert.ok(tail[1].type === 'group-metadata' && tail[1].value === null, 'the group ends with a tombstone');
      } finally {
        sim.dispose();
      }
    });
  }

  it('writes a GroupMetadataValue v3 per generation and an OffsetCommitValue v4 per committed partition, stamped with the virtual time', () => {
    const sim = classicSimulation('range', 'layout');
    try {
      const { stored } = offsetsLog(sim, 'layout');
      const batches = stored.read(0, 'read_uncommitted', Infinity);
      const versions = new Set(batches.flatMap((b) => b.records.map(encodedRecord).flatMap(({ key, value }) =>
        (value === null ? [] : [`${Buffer.from(key).readInt16BE(0)}:${Buffer.from(value).readInt16BE(0)}`]))));
      assert.deepEqual([...versions].sort(), ['1:4', '2:3']);
      const records = decodedRecords(sim, 'layout');
      const generations = records.flatMap((r) => (r.type === 'group-metadata' && r.value ? [r.value] : []));
      assert.deepEqual(generations[0], { version: 3, protocolType: '', generation: 0, protocol: null, leader: null, currentStateTimestamp: 0, members: [] });
      const stable = generations.find((g) => g.members.length === 3);
      assert.ok(stable && stable.protocol === 'range' && stable.leader !== null);
      assert.deepEqual(stable.members.map((m) => m.clientId).sort(), ['a', 'b', 'c']);
      assert.ok(batches.every((b, i) => i === 0 || b.timestamp >= batches[i - 1].timestamp));
      assert.ok(records.some((r) => r.type === 'offset-commit' && r.topic === TOPIC));
    } finally {
      sim.dispose();
    }
  });

  it('a consumer group driven through ConsumerGroupHeartbeat: the timeline read from its records is the engine\'s', () => {
    const sim = new Simulation({ seed: 4 });
    sim.createTopic(TOPIC, 4);
    const groupId = 'kip848';
    try {
      consumerGroupRun(sim, groupId);
      const engine = sim.events.forGroup(groupId);
      assert.ok(engine.some((e) => e.kind === 'member-expired'), JSON.stringify(engine.map((e) => e.kind)));
      assert.deepEqual(withoutCauses(eventsFromOffsetsTopic(sim, groupId)), withoutCauses(engine));
      assert.equal(deleteGroup(sim, groupId), 'NONE');
      assert.deepEqual(withoutCauses(eventsFromOffsetsTopic(sim, groupId)), withoutCauses(sim.events.forGroup(groupId)));
    } finally {
      sim.dispose();
    }
  });
});
