import { strict as assert } from 'node:assert';
import { ACTIVE_SEGMENT_RECORDS, CoordinatorRecordLog, DELETE_RETENTION_MS } from '../../../../src/simulator/log/coordinatorRecordLog';
import { newOffsetCommitRecord, newOffsetCommitTombstoneRecord, type CoordinatorRecord } from '../../../../src/simulator/coordinator/group/coordinatorRecords';
import { GROUP_COORDINATOR_RECORD_SERDE } from '../../../../src/simulator/coordinator/group/offsetsTopicWriter';
import { PartitionLog } from '../../../../src/simulator/log/partitionLog';

/** A record of key `name` (an offset commit of topic `name`) whose value says `text` (its metadata); text null: a tombstone. */
function put(name: string, text: string | null): CoordinatorRecord {
  return text === null
    ? newOffsetCommitTombstoneRecord('g', name, 0)
    : newOffsetCommitRecord('g', name, 0, { offset: 1, leaderEpoch: -1, metadata: text, commitTimestamp: 0 });
}

function keyName(record: CoordinatorRecord): string {
  return record.type === 'OffsetCommit' ? record.key.topic : '';
}

function newLog(): { log: PartitionLog; records: CoordinatorRecordLog<CoordinatorRecord> } {
  const log = new PartitionLog();
  return { log, records: new CoordinatorRecordLog(log, GROUP_COORDINATOR_RECORD_SERDE) };
}

/** The newest value of each key a reader of the whole log ends with (tombstones delete). */
function replayed(records: CoordinatorRecordLog<CoordinatorRecord>): Map<string, string> {
  const state = new Map<string, string>();
  for (const batch of records.read(0, 'read_committed', Infinity)) {
    for (const { record } of batch.records) {
      if (record.type === 'OffsetCommit' && record.value === null) {
        state.delete(record.key.topic);
      } else if (record.type === 'OffsetCommit' && record.value !== null) {
        state.set(record.key.topic, record.value.metadata);
      }
    }
  }
  return state;
}

describe('simulator/CoordinatorRecordLog: the stored, compacted contents of a __consumer_offsets partition', () => {
  it('keeps one batch per append with its offsets and time, and counts them in the partition log', () => {
    const { log, records } = newLog();
    assert.equal(records.append([put('a', '1'), put('b', '2')], 10), 0);
    assert.equal(records.append([put('a', null)], 20), 2);
    assert.equal(log.highWatermark, 3);
    assert.deepEqual(records.read(1, 'read_uncommitted', Infinity).map((b) => [b.baseOffset, b.lastOffset, b.timestamp, b.records.length]), [[0, 1, 10, 2], [2, 2, 20, 1]]);
    assert.deepEqual(records.read(2, 'read_uncommitted', Infinity).map((b) => b.baseOffset), [2]);
    assert.deepEqual([...replayed(records)], [['b', '2']]);
  });

  it('stays bounded under hours of rewrites of the same keys, and a reader still ends with the newest value of each', () => {
    const { log, records } = newLog();
    const keys = 50;
    for (let round = 0; round < 2000; round++) {
      records.append(Array.from({ length: keys }, (_, k) => put(`k${k}`, `${round}`)), round * 1000);
    }
    assert.equal(log.highWatermark, 2000 * keys);
    assert.ok(records.storedRecords <= keys + 2 * ACTIVE_SEGMENT_RECORDS + 1000, `${records.storedRecords} records stored`);
    const state = replayed(records);
    assert.equal(state.size, keys);
    assert.ok([...state.values()].every((v) => v === '1999'));
    // Offsets never move: cleaned batches keep theirs, so offsets only grow along the log.
    const offsets = records.read(0, 'read_uncommitted', Infinity).flatMap((b) => b.records.map((r) => r.offset));
    assert.ok(offsets.every((o, i) => i === 0 || o > offsets[i - 1]));
  });

  it('drops a deleted key\'s tombstone once delete.retention.ms has passed, never inside the active segment', () => {
    const { records } = newLog();
    for (let group = 0; group < 3000; group++) {
      records.append([put(`g${group}`, 'x')], 0);
      records.append([put(`g${group}`, null)], 1);
    }
    const recent = records.storedRecords;
    assert.ok(recent >= 2 * ACTIVE_SEGMENT_RECORDS, 'nothing of the last segment is cleaned within the retention');
    for (let i = 0; i < 2000; i++) {
      records.append([put(`live${i % 10}`, `${i}`)], DELETE_RETENTION_MS + 10);
    }
    assert.ok(records.storedRecords < recent, `${records.storedRecords} records stored, ${recent} before`);
    assert.ok(records.read(0, 'read_uncommitted', Infinity).every((b) => b.records.every((r) => keyName(r.record).startsWith('live') || r.offset >= 6000 - ACTIVE_SEGMENT_RECORDS)));
  });

  it('writes a transaction\'s records in it, its marker at the end, and only a committed write supersedes', () => {
    const { log, records } = newLog();
    records.append([put('a', 'plain')], 0);
    records.append([put('a', 'aborted')], 1, 7);
    assert.equal(log.lastStableOffset, 1);
    assert.deepEqual(records.read(0, 'read_committed', Infinity).map((b) => b.baseOffset), [0]);
    assert.equal(records.endTransaction(7, 'ABORT', 2), true);
    assert.equal(records.endTransaction(7, 'ABORT', 2), false, 'no second marker without a transaction');
    records.append([put('a', 'committed')], 3, 8);
    records.endTransaction(8, 'COMMIT', 4);
    assert.deepEqual(records.read(0, 'read_uncommitted', Infinity).map((b) => [b.baseOffset, b.marker]), [[0, null], [1, null], [2, 'ABORT'], [3, null], [4, 'COMMIT']]);
    assert.deepEqual(records.read(0, 'read_committed', Infinity).map((b) => b.baseOffset), [0, 2, 3, 4]);
    assert.deepEqual([...replayed(records)], [['a', 'committed']]);
  });
});
