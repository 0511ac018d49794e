import { strict as assert } from 'assert';
import type { GroupState } from '../../../src/model/types';
import {
  inactiveGroupError,
  type OffsetForTimestamp,
  planReset,
  resetPartitions,
  type ResetPlanResult,
  type ResetRequest,
  type ResetRow,
  type ResetScenario,
  type ResetScope,
} from '../../../src/offsets/resetPlan';
import { expectError as errorOf, expectOk } from './expectResult';
import { facts } from './resetFixtures';

const ALL: ResetScope = { kind: 'all-topics' };

function request(scenario: ResetScenario, scope: ResetScope = ALL): ResetRequest {
  return { groupId: 'g1', scenario, scope };
}

function rows(result: ResetPlanResult): ResetRow[] {
  return expectOk(result).rows;
}

/** "topic-partition=new" per row, the CLI's table reduced to what matters. */
function summary(result: ResetPlanResult): string[] {
  return rows(result).map((row) => `${row.topic}-${row.partition}=${row.newOffset}`);
}

describe('planReset', () => {
  describe('group state', () => {
    for (const state of ['PreparingRebalance', 'CompletingRebalance', 'Stable', 'Assigning', 'Reconciling', 'Unknown'] as GroupState[]) {
      it(`refuses a group in ${state} with the CLI's sentence`, async () => {
        const result = await planReset(request({ kind: 'to-earliest' }), facts({ groupState: state }));
        assert.equal(errorOf(result), `Assignments can only be reset if the group 'g1' is inactive, but the current state is ${state}.`);
      });
    }

    for (const state of ['Empty', 'Dead', 'missing'] as const) {
      it(`allows a group that is ${state}`, async () => {
        assert.equal(inactiveGroupError('g1', state), null);
        assert.equal(rows(await planReset(request({ kind: 'to-earliest' }), facts({ groupState: state }))).length, 3);
      });
    }

    it('plans nothing for a missing group with --all-topics, since it has no committed offsets', async () => {
      assert.deepEqual(rows(await planReset(request({ kind: 'to-latest' }), facts({ groupState: 'missing', committed: [] }))), []);
    });
  });

  describe('scope', () => {
    it('--all-topics takes the partitions with committed offsets, sorted by topic then partition', async () => {
      assert.deepEqual(summary(await planReset(request({ kind: 'to-earliest' }), facts())), ['orders-0=10', 'orders-1=0', 'payments-0=5']);
    });

    it('--topic t takes every partition of t, committed or not', async () => {
      const result = await planReset(request({ kind: 'to-earliest' }, { kind: 'topics', topics: [{ topic: 'orders' }] }), facts());
      assert.deepEqual(summary(result), ['orders-0=10', 'orders-1=0', 'orders-2=0']);
    });

    it('--topic t:0,2 takes exactly those partitions, and several --topic values combine', async () => {
      const scope: ResetScope = { kind: 'topics', topics: [{ topic: 'payments' }, { topic: 'orders', partitions: [2, 0] }] };
      assert.deepEqual(summary(await planReset(request({ kind: 'to-latest' }, scope), facts())), [
        'orders-0=100',
        'orders-2=0',
        'payments-0=20',
        'payments-1=7',
      ]);
    });

    it('fails on an unknown topic like the CLI', async () => {
      const error = errorOf(await planReset(request({ kind: 'to-latest' }, { kind: 'topics', topics: [{ topic: 'nope' }] }), facts()));
      assert.match(error, /Topic 'nope' does not exist/);
      assert.match(error, /This server does not host this topic-partition\./);
    });

    it('fails when a partition is selected twice, as the CLI does with "Duplicate key"', async () => {
      const scope: ResetScope = { kind: 'topics', topics: [{ topic: 'orders' }, { topic: 'orders', partitions: [1] }] };
      assert.match(errorOf(await planReset(request({ kind: 'to-latest' }, scope), facts())), /orders-1 is selected more than once.*Duplicate key orders-1/);
    });

    it('fails when a needed log offset is unknown, naming the partition', async () => {
      const scope: ResetScope = { kind: 'topics', topics: [{ topic: 'orders', partitions: [7] }] };
      assert.equal(errorOf(await planReset(request({ kind: 'to-latest' }, scope), facts())), 'Error getting ending offset of topic partition: orders-7');
      assert.equal(errorOf(await planReset(request({ kind: 'to-earliest' }, scope), facts())), 'Error getting starting offset of topic partition: orders-7');
    });

    it('tells the caller which partitions need log offsets', () => {
      const scoped = resetPartitions(request({ kind: 'to-latest' }, { kind: 'topics', topics: [{ topic: 'payments' }] }), facts());
      assert.deepEqual(scoped, { ok: true, partitions: [{ topic: 'payments', partition: 0 }, { topic: 'payments', partition: 1 }] });
      const fromFile = resetPartitions(request({ kind: 'from-file', csv: 'orders,2,0\n' }, ALL), facts());
      assert.deepEqual(fromFile, { ok: true, partitions: [{ topic: 'orders', partition: 2 }] });
    });
  });

  describe('scenarios', () => {
    it('to-latest uses the log end offset and reports the current committed offset', async () => {
      const result = rows(await planReset(request({ kind: 'to-latest' }), facts()));
      assert.deepEqual(result, [
        { topic: 'orders', partition: 0, currentOffset: 40, newOffset: 100 },
        { topic: 'orders', partition: 1, currentOffset: 50, newOffset: 50 },
        { topic: 'payments', partition: 0, currentOffset: 12, newOffset: 20 },
      ]);
    });

    it('to-current keeps committed offsets unclamped and uses the log end offset where none is committed', async () => {
      const stale = facts({ committed: [{ topic: 'orders', partition: 0, offset: 3 }] });
      const result = rows(await planReset(request({ kind: 'to-current' }, { kind: 'topics', topics: [{ topic: 'orders' }] }), stale));
      assert.deepEqual(
        result.map((row) => [row.partition, row.currentOffset, row.newOffset, row.warning]),
        [
          [0, 3, 3, undefined],
          [1, null, 50, undefined],
          [2, null, 0, undefined],
        ],
      );
    });

    it('to-offset clamps above the log end and below the log start, with the CLI warnings', async () => {
      const scope: ResetScope = { kind: 'topics', topics: [{ topic: 'orders' }] };
      const result = await planReset(request({ kind: 'to-offset', offset: 60 }, scope), facts());
      assert.deepEqual(summary(result), ['orders-0=60', 'orders-1=50', 'orders-2=0']);
      assert.ok(result.ok);
      assert.deepEqual(result.warnings, [
        'New offset (60) is higher than latest offset for topic partition orders-1. Value will be set to 50',
        'New offset (60) is higher than latest offset for topic partition orders-2. Value will be set to 0',
      ]);
      assert.equal(result.rows[1].warning, result.warnings[0]);

      const low = await planReset(request({ kind: 'to-offset', offset: 5 }, scope), facts());
      assert.deepEqual(summary(low), ['orders-0=10', 'orders-1=5', 'orders-2=0']);
      assert.equal(rows(low)[0].warning, 'New offset (5) is lower than earliest offset for topic partition orders-0. Value will be set to 10');
      assert.match(rows(low)[2].warning ?? '', /higher than latest offset for topic partition orders-2\. Value will be set to 0/);
    });

    it('to-offset takes any Java long exactly and clamps it', async () => {
      const scope: ResetScope = { kind: 'topics', topics: [{ topic: 'orders', partitions: [0] }] };
      const high = await planReset(request({ kind: 'to-offset', offset: 2n ** 63n - 1n }, scope), facts());
      assert.deepEqual(rows(high).map((r) => [r.newOffset, r.warning]), [
        [100, 'New offset (9223372036854775807) is higher than latest offset for topic partition orders-0. Value will be set to 100'],
      ]);
      assert.match(errorOf(await planReset(request({ kind: 'to-offset', offset: 2n ** 63n }, scope), facts())), /Cannot parse argument '9223372036854775808' of option to-offset/);
    });

    it('to-offset rejects a non-integer offset', async () => {
      assert.match(errorOf(await planReset(request({ kind: 'to-offset', offset: 1.5 }), facts())), /Cannot parse argument '1\.5' of option to-offset/);
    });

    it('shift-by adds to the committed offset and clamps both ways', async () => {
      const forward = await planReset(request({ kind: 'shift-by', shift: 15 }), facts());
      assert.deepEqual(summary(forward), ['orders-0=55', 'orders-1=50', 'payments-0=20']);
      assert.match(rows(forward)[1].warning ?? '', /^New offset \(65\) is higher than latest offset for topic partition orders-1\. Value will be set to 50$/);
      assert.match(rows(forward)[2].warning ?? '', /^New offset \(27\) is higher/);

      const back = await planReset(request({ kind: 'shift-by', shift: -35 }), facts());
      assert.deepEqual(summary(back), ['orders-0=10', 'orders-1=15', 'payments-0=5']);
      assert.equal(rows(back)[0].warning, 'New offset (5) is lower than earliest offset for topic partition orders-0. Value will be set to 10');
    });

    it('shift-by fails when a partition in scope has no committed offset', async () => {
      const result = await planReset(request({ kind: 'shift-by', shift: 1 }, { kind: 'topics', topics: [{ topic: 'orders' }] }), facts());
      assert.equal(errorOf(result), 'Cannot shift offset for partition orders-2 since there is no current committed offset');
    });

    it('shift-by rejects a fractional shift', async () => {
      assert.match(errorOf(await planReset(request({ kind: 'shift-by', shift: 0.5 }), facts())), /option shift-by/);
    });
  });

  describe('timestamps', () => {
    /** Offsets per partition of records at t=1000, 2000, 3000 (starting at the log start). */
    const calls: Array<[string, number, number]> = [];
    const lookup: OffsetForTimestamp = async (topic, partition, timestampMs) => {
      calls.push([topic, partition, timestampMs]);
      if (topic === 'orders' && partition === 2) {
        return null; // empty partition
      }
      if (timestampMs > 3000) {
        return null; // after the last record
      }
      return (topic === 'orders' && partition === 0 ? 10 : 0) + Math.max(0, Math.ceil(timestampMs / 1000) - 1);
    };

    beforeEach(() => {
      calls.length = 0;
    });

    it('to-datetime looks up each partition at the parsed timestamp, falling back to the log end with a warning', async () => {
      const scope: ResetScope = { kind: 'topics', topics: [{ topic: 'orders' }] };
      const result = await planReset(request({ kind: 'to-datetime', datetime: '1970-01-01T00:00:02.000' }, scope), facts({ offsetForTimestamp: lookup }));
      assert.deepEqual(summary(result), ['orders-0=11', 'orders-1=1', 'orders-2=0']);
      assert.deepEqual(calls.map((call) => call[2]), [2000, 2000, 2000]);
      assert.equal(rows(result)[2].warning, 'Partition 2 from topic orders is empty. Falling back to latest known offset.');
    });

    it('to-datetime honours a zone offset', async () => {
      const result = await planReset(request({ kind: 'to-datetime', datetime: '1970-01-01T01:00:03.000+01:00' }), facts({ offsetForTimestamp: lookup }));
      assert.deepEqual(summary(result), ['orders-0=12', 'orders-1=2', 'payments-0=2']);
    });

    it('falls back to the log end for every partition when the time is after the last record', async () => {
      const result = await planReset(request({ kind: 'to-datetime', datetime: '2030-01-01T00:00:00.000Z' }), facts({ offsetForTimestamp: lookup }));
      assert.deepEqual(summary(result), ['orders-0=100', 'orders-1=50', 'payments-0=20']);
      assert.ok(result.ok);
      assert.equal(result.warnings.length, 3);
    });

    it('to-datetime rejects an invalid datetime before any lookup', async () => {
      const result = await planReset(request({ kind: 'to-datetime', datetime: '1970-01-01T00:00:02Z' }), facts({ offsetForTimestamp: lookup }));
      assert.match(errorOf(result), /^Unparseable date: "1970-01-01T00:00:02Z".*milliseconds are required/);
      assert.equal(calls.length, 0);
    });

    it('to-datetime passes on the warning for text the CLI ignores after the zone', async () => {
      const result = await planReset(request({ kind: 'to-datetime', datetime: '1970-01-01T02:00:01.000+0200' }), facts({ offsetForTimestamp: lookup }));
      assert.ok(result.ok);
      assert.match(result.warnings[0], /ignores "00" after the zone/);
      assert.deepEqual(calls.map((call) => call[2]), [1000, 1000, 1000]);
    });

    it('by-duration looks up now minus the duration, to the millisecond floor', async () => {
      const result = await planReset(request({ kind: 'by-duration', duration: 'PT1.0005S' }), facts({ offsetForTimestamp: lookup, now: 3000 }));
      assert.deepEqual(calls.map((call) => call[2]), [1999, 1999, 1999]);
      assert.deepEqual(summary(result), ['orders-0=11', 'orders-1=1', 'payments-0=1']);
    });

    it('by-duration with a negative duration looks into the future and falls back to the log end', async () => {
      const result = await planReset(request({ kind: 'by-duration', duration: '-PT1H' }), facts({ offsetForTimestamp: lookup, now: 3000 }));
      assert.deepEqual(calls.map((call) => call[2]), [3_603_000, 3_603_000, 3_603_000]);
      assert.deepEqual(summary(result), ['orders-0=100', 'orders-1=50', 'payments-0=20']);
    });

    it('by-duration rejects an invalid duration and one reaching before the epoch', async () => {
      const withLookup = facts({ offsetForTimestamp: lookup, now: 3000 });
      assert.match(errorOf(await planReset(request({ kind: 'by-duration', duration: 'P1W' }), withLookup)), /^Text cannot be parsed to a Duration/);
      assert.match(errorOf(await planReset(request({ kind: 'by-duration', duration: 'PT4S' }), withLookup)), /before 1970/);
    });

    it('needs the lookup and the clock', async () => {
      assert.match(errorOf(await planReset(request({ kind: 'to-datetime', datetime: '2024-01-01T00:00:00.000' }), facts())), /offsetForTimestamp/);
      assert.match(errorOf(await planReset(request({ kind: 'by-duration', duration: 'PT1H' }), facts({ offsetForTimestamp: lookup }))), /facts\.now/);
    });

    it('reports a failed lookup with the partition', async () => {
      const failing: OffsetForTimestamp = (_topic, partition) => (partition === 1 ? Promise.reject(new Error('broker down')) : 0);
      const result = await planReset(request({ kind: 'to-datetime', datetime: '2024-01-01T00:00:00.000' }), facts({ offsetForTimestamp: failing }));
      assert.equal(errorOf(result), 'Error getting offset by timestamp of topic partition: orders-1: broker down');
    });
  });

  describe('from-file', () => {
    it('resets the file rows, clamped, ignoring the scope', async () => {
      const csv = 'orders,2,5\norders,0,3\npayments,1,4\n';
      const result = await planReset(request({ kind: 'from-file', csv }, { kind: 'topics', topics: [{ topic: 'nope' }] }), facts());
      assert.deepEqual(summary(result), ['orders-0=10', 'orders-2=0', 'payments-1=4']);
      assert.deepEqual(rows(result).map((row) => row.currentOffset), [40, null, null]);
      assert.deepEqual(rows(result).map((row) => Boolean(row.warning)), [true, true, false]);
    });

    it('takes only its own group in the group,topic,partition,offset format', async () => {
      const csv = 'g1,orders,1,7\nother,orders,0,99\ng1,payments,0,6\n';
      assert.deepEqual(summary(await planReset(request({ kind: 'from-file', csv }), facts())), ['orders-1=7', 'payments-0=6']);
    });

    it('fails like the CLI when the file has no rows for the group', async () => {
      const csv = 'other,orders,0,99\n';
      assert.equal(errorOf(await planReset(request({ kind: 'from-file', csv }), facts())), 'No reset plan for group g1 found');
    });

    it('clamps offsets beyond 2^53 exactly to the log end, as checkOffsetsRange does, and names them in full', async () => {
      const csv = '\uFEFForders,0,9223372036854775807\norders,1,-9007199254740993\n';
      const result = await planReset(request({ kind: 'from-file', csv }), facts());
      assert.deepEqual(summary(result), ['orders-0=100', 'orders-1=0']);
      assert.deepEqual(rows(result).map((row) => row.warning), [
        'New offset (9223372036854775807) is higher than latest offset for topic partition orders-0. Value will be set to 100',
        'New offset (-9007199254740993) is lower than earliest offset for topic partition orders-1. Value will be set to 0',
      ]);
    });

    it('passes on CSV errors with their line', async () => {
      assert.match(errorOf(await planReset(request({ kind: 'from-file', csv: 'orders,0,1\norders,x,1\n' }), facts())), /^Line 2: partition 'x'/);
    });
  });
});
