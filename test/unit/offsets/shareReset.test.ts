import { strict as assert } from 'assert';
import type { ResetRequest, ResetScenario, ResetScope } from '../../../src/offsets/resetRequest';
import { shareDeleteGroupCommand, shareDeleteOffsetsCommand, shareResetOffsetsCommand } from '../../../src/offsets/shareCli';
import {
  planShareReset,
  shareGroupNotEmptyError,
  shareScenarioError,
  shareSeedCsv,
  SHARE_RESET_SCENARIOS_4_2,
  type ShareResetFacts,
} from '../../../src/offsets/shareReset';

/** orders has 3 partitions (log 10..100 each); the group has a start offset on orders-0 and state without one on orders-1. */
function facts(overrides: Partial<ShareResetFacts> = {}): ShareResetFacts {
  return {
    groupState: 'Empty',
    startOffsets: [
      { topic: 'orders', partition: 0, startOffset: 40 },
      { topic: 'orders', partition: 1, startOffset: null },
    ],
    partitionsPerTopic: { orders: 3 },
    logOffsets: [0, 1, 2].map((partition) => ({ topic: 'orders', partition, earliest: 10, latest: 100 })),
    offsetForTimestamp: (_topic, partition) => (partition === 0 ? 55 : null),
    now: 1_700_000_000_000,
    ...overrides,
  };
}

function request(scenario: ResetScenario, scope: ResetScope = { kind: 'all-topics' }): ResetRequest {
  return { groupId: 'sg', scenario, scope };
}

type Rows = Array<[string, number, number | null, number]>;

async function rowsOf(req: ResetRequest, f: ShareResetFacts = facts()): Promise<Rows> {
  const plan = await planShareReset(req, f);
  assert.ok(plan.ok, plan.ok ? '' : plan.error);
  return plan.rows.map((r) => [r.topic, r.partition, r.currentOffset, r.newOffset]);
}

describe('share group reset plan (kafka-share-groups.sh 4.4)', () => {
  it('resets every share-partition of the group on --all-topics, with or without a start offset', async () => {
    assert.deepEqual(await rowsOf(request({ kind: 'to-earliest' })), [
      ['orders', 0, 40, 10],
      ['orders', 1, null, 10],
    ]);
    assert.deepEqual(await rowsOf(request({ kind: 'to-latest' })), [
      ['orders', 0, 40, 100],
      ['orders', 1, null, 100],
    ]);
  });

  it('keeps the start offset on --to-current and takes the log end where there is none', async () => {
    assert.deepEqual(await rowsOf(request({ kind: 'to-current' }, { kind: 'topics', topics: [{ topic: 'orders' }] })), [
      ['orders', 0, 40, 40],
      ['orders', 1, null, 100],
      ['orders', 2, null, 100],
    ]);
  });

  it('clamps --to-offset and --from-file to the log, and falls back to the log end on --to-datetime', async () => {
    const clamped = await planShareReset(request({ kind: 'to-offset', offset: 500 }, { kind: 'topics', topics: [{ topic: 'orders', partitions: [2] }] }), facts());
    assert.ok(clamped.ok);
    assert.deepEqual(clamped.rows.map((r) => r.newOffset), [100]);
    assert.match(clamped.warnings[0], /higher than latest offset for topic partition orders-2/);
    assert.deepEqual(await rowsOf(request({ kind: 'from-file', csv: 'orders,2,5\n' })), [['orders', 2, null, 10]]);
    const byTime = await planShareReset(request({ kind: 'to-datetime', datetime: '2024-01-01T00:00:00.000' }), facts());
    assert.ok(byTime.ok);
    assert.deepEqual(byTime.rows.map((r) => r.newOffset), [55, 100]);
    assert.deepEqual(byTime.warnings, ['Partition 1 from topic orders is empty. Falling back to latest known offset.']);
  });

  it('refuses a group with members with the CLI sentence, and plans for a group that does not exist yet', async () => {
    assert.equal(shareGroupNotEmptyError('sg', 'Stable'), "Share group 'sg' is not empty.");
    const refused = await planShareReset(request({ kind: 'to-earliest' }), facts({ groupState: 'Stable' }));
    assert.deepEqual(refused, { ok: false, error: "Share group 'sg' is not empty." });
    // A reset of an unknown group creates it: the topics named are the scope.
    const created = await rowsOf(request({ kind: 'to-earliest' }, { kind: 'topics', topics: [{ topic: 'orders', partitions: [0, 2] }] }), facts({ groupState: 'missing', startOffsets: [] }));
    assert.deepEqual(created, [
      ['orders', 0, null, 10],
      ['orders', 2, null, 10],
    ]);
    assert.deepEqual(await rowsOf(request({ kind: 'to-earliest' }), facts({ groupState: 'missing', startOffsets: [] })), []);
  });

  it('refuses partitions that do not exist, as checkAllTopicPartitionsValid does', async () => {
    const plan = await planShareReset(request({ kind: 'to-earliest' }, { kind: 'topics', topics: [{ topic: 'orders', partitions: [1, 7] }, { topic: 'nope', partitions: [0] }] }), facts());
    assert.deepEqual(plan, { ok: false, error: 'The partitions "orders-7,nope-0" do not exist' });
  });

  it('refuses the scenarios the share tool does not have, and those of 4.4 on an older cluster', async () => {
    for (const scenario of [{ kind: 'shift-by', shift: 1 }, { kind: 'by-duration', duration: 'PT1H' }] as const) {
      const plan = await planShareReset(request(scenario), facts());
      assert.equal(plan.ok, false);
      assert.match(plan.ok ? '' : plan.error, new RegExp(`cannot reset a share group with --${scenario.kind}: it resets with --to-earliest`));
    }
    assert.equal(shareScenarioError('to-current', SHARE_RESET_SCENARIOS_4_2), 'kafka-share-groups.sh cannot reset a share group with --to-current (added in Kafka 4.4; this cluster is older): it resets with --to-earliest, --to-latest, --to-datetime');
    assert.equal(shareScenarioError('to-datetime', SHARE_RESET_SCENARIOS_4_2), null);
  });

  it('seeds a share group from a consumer group with the single-group CSV', async () => {
    const csv = shareSeedCsv([
      { topic: 'orders', partition: 1, offset: 60 },
      { topic: 'orders', partition: 0, offset: 50 },
    ]);
    assert.equal(csv, 'orders,0,50\norders,1,60\n');
    assert.deepEqual(await rowsOf(request({ kind: 'from-file', csv })), [
      ['orders', 0, 40, 50],
      ['orders', 1, null, 60],
    ]);
  });
});

describe('kafka-share-groups.sh lines', () => {
  const servers = { bootstrapServers: 'localhost:9092' };

  it('always names --dry-run or --execute on a reset', () => {
    assert.equal(
      shareResetOffsetsCommand(request({ kind: 'to-current' }, { kind: 'topics', topics: [{ topic: 'orders', partitions: [0, 1] }] }), { ...servers, mode: 'dry-run' }),
      'kafka-share-groups.sh --bootstrap-server localhost:9092 --group sg --reset-offsets --to-current --topic orders:0,1 --dry-run',
    );
    assert.equal(
      shareResetOffsetsCommand(request({ kind: 'to-earliest' }), { ...servers, mode: 'execute' }),
      'kafka-share-groups.sh --bootstrap-server localhost:9092 --group sg --reset-offsets --to-earliest --all-topics --execute',
    );
    assert.throws(() => shareResetOffsetsCommand(request({ kind: 'shift-by', shift: 1 }), { ...servers, mode: 'dry-run' }), /cannot reset a share group with --shift-by/);
  });

  it('deletes offsets per topic and deletes the group', () => {
    assert.equal(shareDeleteOffsetsCommand('sg', ['orders', 'pay'], servers), 'kafka-share-groups.sh --bootstrap-server localhost:9092 --group sg --delete-offsets --topic orders --topic pay');
    assert.equal(shareDeleteGroupCommand('sg', servers), 'kafka-share-groups.sh --bootstrap-server localhost:9092 --group sg --delete');
  });
});
