/**
 * KafkaSource's lag in time over the Kafka protocol, against the simulator's server: two groups committed at
 * different offsets of one partition (one Fetch at the lower offset holds both) both get a figure, and the span of
 * produced time from ListOffsets MAX_TIMESTAMP is the one SimSource gives from the log itself. The age depends on
 * the wall clock here, so its value is checked against a real broker (test/kafka/lagInTime.test.ts) and with
 * encoded batches (lagInTime.test.ts).
 */
import { strict as assert } from 'node:assert';
import { MAX_COMMITTED_FETCH_ROUNDS } from '../../../src/kafka/groupLoader';
import { KafkaSource } from '../../../src/kafka/kafkaSource';
import type { OffsetCommitResponse } from '../../../src/simulator/common/requests';
import { SimKafkaServer } from '../../../src/simulator/server/kafkaServer';
import { SimSource } from '../../../src/simulator/editor/simSource';
import { Simulation } from '../../../src/simulator/simulation';

const silentLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('kafka/lagInTime through GroupLoader', () => {
  const start = Date.now();
  const OLD = start - 600_000;
  const NEWER = start - 60_000;
  const END = 4 + MAX_COMMITTED_FETCH_ROUNDS + 2;
  let sim: Simulation;
  let server: SimKafkaServer;
  let source: KafkaSource;

  const commit = (groupId: string, offset: number) =>
    new Promise<OffsetCommitResponse>((resolve) =>
      sim.coordinator.offsetCommit(
        { groupId, generationId: -1, memberId: '', groupInstanceId: null, topics: [{ name: 'events', partitions: [{ partition: 0, offset, leaderEpoch: -1, metadata: '' }] }] },
        resolve,
      ),
    );

  before(async () => {
    sim = new Simulation({ seed: 7, startTime: start, cluster: { brokers: 1 } });
    const log = sim.cluster.createTopic('events', 1).partitions[0];
    log.append(2, OLD); // offsets 0 and 1
    log.append(2, NEWER); // offsets 2 and 3
    log.append(MAX_COMMITTED_FETCH_ROUNDS + 2, NEWER);
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
    const many = Array.from({ length: MAX_COMMITTED_FETCH_ROUNDS + 1 }, (_, i): [string, number] => [`many-${i}`, 4 + i]);
    const groups: Array<[string, number]> = [['behind', 1], ['closer', 3], ['done', END], ...many];
    for (const [groupId, offset] of groups) {
      assert.deepEqual((await commit(groupId, offset)).topics[0].partitions.map((p) => p.errorCode), ['NONE']);
    }
    source = new KafkaSource({ id: 'sim', name: 'sim', bootstrapServers: server.bootstrapServers }, {}, { logger: silentLogger });
  });

  after(async () => {
    await source?.dispose();
    await server?.close();
    sim?.dispose();
  });

  it('reads each group at its own committed offset, and leaves listGroups and describeGroup without it', async () => {
    const details = await source.listGroupDetails();
    const lagOf = (groupId: string) => details.find((d) => d.groupId === groupId)?.offsets[0]?.lagInTimeMs;
    for (const groupId of ['behind', 'closer']) {
      const lag = lagOf(groupId);
      assert.ok(typeof lag === 'number' && lag >= 0, `${groupId}: ${lag}`);
      assert.equal(details.find((d) => d.groupId === groupId)?.maxLagInTimeMs, lag);
    }
    assert.equal(lagOf('done'), 0);
    // The Fetch at the lowest committed offset holds the later ones too: every lagging group gets a figure
    // (the bound on Fetch rounds per partition is roundReads.test.ts's).
    const read = details.filter((d) => typeof d.offsets[0]?.lagInTimeMs === 'number' && d.groupId !== 'done').length;
    assert.equal(read, MAX_COMMITTED_FETCH_ROUNDS + 3);
    const spanOf = (groupId: string) => details.find((d) => d.groupId === groupId)?.offsets[0]?.lagInTimeSpanMs;
    assert.deepEqual(['behind', 'closer', 'done'].map(spanOf), [NEWER - OLD, 0, 0]);
    const simSource = new SimSource(sim);
    try {
      const simDetails = await simSource.listGroupDetails();
      assert.deepEqual(['behind', 'closer'].map((id) => simDetails.find((d) => d.groupId === id)?.offsets[0]?.lagInTimeSpanMs), [NEWER - OLD, 0]);
    } finally {
      await simSource.dispose();
    }
    assert.equal((await source.describeGroup('behind')).offsets[0].lagInTimeMs, undefined);
    assert.equal((await source.listGroups()).find((g) => g.groupId === 'behind')?.maxLagInTimeMs, undefined);
  });
});
