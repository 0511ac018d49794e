/**
 * Transactions on a real broker: a kafkajs transactional producer commits one transaction and
 * leaves a second one open, so the last stable offset (LSO) stays below the high watermark. KafkaSource
 * must show both ends, and for a group marked read_committed the lag to the LSO; the figures are
 * checked against a Java consumer's own `records-lag` metric (test/kafka/java/LagProbe.java), which
 * the client computes as LSO - position under read_committed and HW - position otherwise.
 *
 * Layout (offsets per partition): the committed transaction writes 5 records to each partition
 * (0..4) and its COMMIT marker (5); the open one writes 3 records to partition 0 only (6..8).
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import type { Producer, Transaction } from 'kafkajs';
import { readCommittedLookup } from '../../src/kafka/isolationLevels';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupDetail, PartitionOffsets } from '../../src/model/types';
import { transactionBlockReason } from '../../src/health/transactionBlock';
import { runTool } from './groupTypesSupport';
import { MemoryLogger, brokerEnv, createTopics, javaTestClasspath, testKafka, waitFor, type BrokerEnv } from './support';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `txn-${RUN}`;
const GROUP = `eos-${RUN}-payments`;
const COMMITTED_RECORDS = 5;
const OPEN_RECORDS = 3;
/** Offset the group starts from, committed with an admin OffsetCommit. */
const START = 2;
/** Where the open transaction begins on partition 0, after the first transaction's records and marker. */
const LSO = COMMITTED_RECORDS + 1;
const HW_WITH_OPEN_TRANSACTION = LSO + OPEN_RECORDS;
const PROBE_TIMEOUT_MS = 60000;

type IsolationLevel = 'read_committed' | 'read_uncommitted';

/** Kafka's kafka-transactions.sh. */
const TRANSACTIONS_COMMAND = 'org.apache.kafka.tools.TransactionsCommand';

/** The rows of a kafka-transactions.sh table (a header line, then tab-separated values), by column name. */
function toolTable(output: string): Array<Record<string, string>> {
  const [header, ...lines] = output.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const names = header.split(/\s+/);
  return lines.map((line) => Object.fromEntries(line.split(/\s+/).map((v, i) => [names[i], v])));
}

interface ProbeRow {
  partition: number;
  position: number;
  recordsLag: number;
}

/** Runs LagProbe.java to completion and parses its per-partition lines. */
function runLagProbe(env: BrokerEnv, isolation: IsolationLevel, limit: number | 'all'): Promise<ProbeRow[]> {
  const child = spawn('java', ['-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', javaTestClasspath(env.lib, 'LagProbe'), 'LagProbe', env.bootstrap, GROUP, TOPIC, isolation, String(limit)]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const rows = [...output.matchAll(/^PARTITION (\d+) POSITION (\d+) RECORDS_LAG (\S+)$/gm)].map((m) => ({ partition: Number(m[1]), position: Number(m[2]), recordsLag: Number(m[3]) }));
      if (code !== 0 || rows.length === 0 || rows.some((r) => !Number.isFinite(r.recordsLag))) {
        reject(new Error(`LagProbe (${isolation}, ${limit}) ended with ${signal ?? `exit ${code}`}; its output:\n${output}`));
      } else {
        resolve(rows);
      }
    });
  });
}

function partitionRow(group: GroupDetail, partition: number): PartitionOffsets {
  const row = group.offsets.find((o) => o.topic === TOPIC && o.partition === partition);
  assert.ok(row, `no offsets row for ${TOPIC}-${partition} in ${JSON.stringify(group.offsets)}`);
  return row;
}

/**
 * The Java consumer's records-lag equals the end it reads to minus its position, and, once it has
 * committed that position, the lag figure we show for the partition.
 */
function assertAgrees(probe: readonly ProbeRow[], group: GroupDetail, end: 'logEndOffset' | 'lastStableOffset', lag: 'lag' | 'lastStableLag'): void {
  for (const p of probe) {
    const row = partitionRow(group, p.partition);
    assert.equal((row[end] ?? NaN) - p.position, p.recordsLag, `${end} - position, partition ${p.partition}`);
    assert.equal(row[lag], p.recordsLag, `${lag}, partition ${p.partition}`);
  }
}

describe('transactions on a real broker', function () {
  this.timeout(180000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  let producer: Producer | undefined;
  let openTransaction: Transaction | undefined;
  let readCommittedSource: KafkaSource;
  let defaultSource: KafkaSource;

  /** The group once its committed offsets are the given ones and the partition ends are as expected. */
  const describeWhen = (source: KafkaSource, ready: (g: GroupDetail) => boolean) =>
    waitFor(`group ${GROUP} to show the expected offsets`, async () => {
      const g = await source.describeGroup(GROUP);
      return g.error === undefined && g.offsets.length === 2 && ready(g) ? g : undefined;
    });
  const committedAt = (positions: readonly ProbeRow[]) => (g: GroupDetail) => positions.every((p) => partitionRow(g, p.partition).committedOffset === p.position);

  before(async () => {
    const connection = { id: 'txn', name: 'txn', bootstrapServers: [env.bootstrap] };
    readCommittedSource = new KafkaSource(connection, {}, { logger, isolationLevelFor: readCommittedLookup([`eos-${RUN}-*`]) });
    defaultSource = new KafkaSource(connection, {}, { logger });
    await createTopics([{ topic: TOPIC, numPartitions: 2 }]);

    producer = testKafka('txn-producer').producer({ transactionalId: `txn-${RUN}`, idempotent: true, maxInFlightRequests: 1, transactionTimeout: 600000 });
    await producer.connect();
    const committed = await producer.transaction();
    for (const partition of [0, 1]) {
      await committed.send({ topic: TOPIC, messages: Array.from({ length: COMMITTED_RECORDS }, (_, i) => ({ partition, value: `committed-${partition}-${i}` })) });
    }
    await committed.commit();
    openTransaction = await producer.transaction();
    await openTransaction.send({ topic: TOPIC, messages: Array.from({ length: OPEN_RECORDS }, (_, i) => ({ partition: 0, value: `open-${i}` })) });

    const results = await readCommittedSource.commitOffsets(GROUP, [0, 1].map((partition) => ({ topic: TOPIC, partition, offset: START })));
    assert.deepEqual(results, [0, 1].map((partition) => ({ topic: TOPIC, partition })));
  });

  after(async () => {
    await openTransaction?.abort().catch(() => undefined);
    await producer?.disconnect();
    await readCommittedSource?.dispose();
    await defaultSource?.dispose();
  });

  it('shows the open transaction: the LSO stays below the high watermark, and the LSO lag below the lag', async () => {
    const group = await describeWhen(readCommittedSource, (g) => partitionRow(g, 0).committedOffset === START && partitionRow(g, 0).logEndOffset === HW_WITH_OPEN_TRANSACTION);
    assert.equal(group.isolationLevel, 'read_committed');
    const open = partitionRow(group, 0);
    assert.deepEqual(
      [open.committedOffset, open.lastStableOffset, open.logEndOffset, open.lag, open.lastStableLag],
      [START, LSO, HW_WITH_OPEN_TRANSACTION, HW_WITH_OPEN_TRANSACTION - START, LSO - START],
    );
    assert.ok((open.lastStableOffset ?? Infinity) < (open.logEndOffset ?? -Infinity), 'LSO below the high watermark');
    assert.ok((open.lastStableLag ?? Infinity) < (open.lag ?? -Infinity), 'LSO lag below the lag');
    const settled = partitionRow(group, 1);
    assert.deepEqual([settled.lastStableOffset, settled.logEndOffset, settled.lag, settled.lastStableLag], [LSO, LSO, LSO - START, LSO - START]);

    // Without the setting the group counts as read_uncommitted: the LSO shows, no lag against it.
    const plain = await defaultSource.describeGroup(GROUP);
    assert.equal(plain.isolationLevel, undefined);
    assert.deepEqual(plain.offsets.map((o) => [o.partition, o.lastStableOffset, o.lag, 'lastStableLag' in o]), [
      [0, LSO, HW_WITH_OPEN_TRANSACTION - START, false],
      [1, LSO, LSO - START, false],
    ]);
    const summary = (await readCommittedSource.listGroups()).find((g) => g.groupId === GROUP);
    assert.equal(summary?.totalLag, HW_WITH_OPEN_TRANSACTION - START + (LSO - START));
  });

  it('agrees with a Java read_uncommitted consumer: its records-lag is HW - position, our lag once it commits', async () => {
    const probe = await runLagProbe(env, 'read_uncommitted', 1);
    assert.deepEqual(probe.map((p) => [p.partition, p.position]), [[0, START + 1], [1, START + 1]]);
    const group = await describeWhen(readCommittedSource, committedAt(probe));
    assertAgrees(probe, group, 'logEndOffset', 'lag');
    assert.deepEqual(probe.map((p) => p.recordsLag), [HW_WITH_OPEN_TRANSACTION - START - 1, LSO - START - 1]);
    // The same group read with read_committed would be closer to its end by the open transaction.
    assert.equal(partitionRow(group, 0).lastStableLag, LSO - START - 1);
  });

  it('agrees with a Java read_committed consumer partway through: its records-lag is LSO - position, our LSO lag', async () => {
    const probe = await runLagProbe(env, 'read_committed', 1);
    assert.deepEqual(probe.map((p) => [p.partition, p.position]), [[0, START + 2], [1, START + 2]]);
    const group = await describeWhen(readCommittedSource, committedAt(probe));
    assertAgrees(probe, group, 'lastStableOffset', 'lastStableLag');
    assert.deepEqual(probe.map((p) => p.recordsLag), [LSO - START - 2, LSO - START - 2]);
    assert.equal(partitionRow(group, 0).lag, HW_WITH_OPEN_TRANSACTION - START - 2);
  });

  it('sees a caught-up read_committed consumer stop at the LSO: no LSO lag, while the lag counts the open transaction', async () => {
    const probe = await runLagProbe(env, 'read_committed', 'all');
    const group = await describeWhen(readCommittedSource, committedAt(probe));
    for (const p of probe) {
      const row = partitionRow(group, p.partition);
      assert.equal(p.position, row.lastStableOffset, `position at the LSO, partition ${p.partition}`);
      assert.equal(p.recordsLag, 0);
      assert.equal(row.lastStableLag, 0);
    }
    assert.deepEqual(group.offsets.map((o) => [o.partition, o.lag]), [[0, OPEN_RECORDS], [1, 0]]);
  });

  it('names the transaction holding the LSO as kafka-transactions.sh does, and a group read up to it is blocked, not stalled', async () => {
    const group = await describeWhen(readCommittedSource, (g) => partitionRow(g, 0).committedOffset === LSO && partitionRow(g, 0).lsoHolder?.transaction !== undefined);
    const held = partitionRow(group, 0);
    const producers = toolTable(runTool(env, TRANSACTIONS_COMMAND, ['describe-producers', '--topic', TOPIC, '--partition', '0']));
    const open = producers.find((r) => r.CurrentTransactionStartOffset !== '-1');
    assert.ok(open, `an open transaction in describe-producers: ${JSON.stringify(producers)}`);
    const holder = held.lsoHolder;
    assert.deepEqual(
      [holder?.producer?.producerId, holder?.producer?.producerEpoch, holder?.producer?.currentTxnStartOffset],
      [Number(open.ProducerId), Number(open.ProducerEpoch), Number(open.CurrentTransactionStartOffset)],
    );
    assert.equal(holder?.producer?.currentTxnStartOffset, LSO);
    const [described] = toolTable(runTool(env, TRANSACTIONS_COMMAND, ['describe', '--transactional-id', `txn-${RUN}`]));
    assert.deepEqual(
      [holder?.transaction?.transactionalId, holder?.transaction?.producerId, holder?.transaction?.state, holder?.transaction?.transactionTimeoutMs],
      [described.TransactionalId, Number(described.ProducerId), described.TransactionState, Number(described.TransactionTimeoutMs)],
    );
    assert.equal(holder?.error, undefined);
    assert.equal(partitionRow(group, 1).lsoHolder, undefined, 'nothing asked where the LSO is the high watermark');
    assert.match(transactionBlockReason(held) ?? '', new RegExp(`^blocked by an open transaction: held at LSO ${LSO} by transaction \`txn-${RUN}\` \\(producer ${open.ProducerId}, epoch ${open.ProducerEpoch}\\)`));
  });

  it('moves the LSO to the high watermark when the transaction aborts, and read_committed skips the aborted records', async () => {
    const aborting = openTransaction;
    openTransaction = undefined;
    await aborting?.abort();
    // The ABORT marker takes one more offset.
    const ended = HW_WITH_OPEN_TRANSACTION + 1;
    await describeWhen(readCommittedSource, (g) => partitionRow(g, 0).lastStableOffset === ended && partitionRow(g, 0).logEndOffset === ended);
    const probe = await runLagProbe(env, 'read_committed', 'all');
    assert.deepEqual(probe.map((p) => [p.partition, p.position, p.recordsLag]), [[0, ended, 0], [1, LSO, 0]]);
    const group = await describeWhen(readCommittedSource, committedAt(probe));
    assert.deepEqual(group.offsets.map((o) => [o.partition, o.lag, o.lastStableLag]), [[0, 0, 0], [1, 0, 0]]);
  });

  it('tells lag that is only a transaction marker from lag with records, as the Java consumer skips markers', async () => {
    // Partition 0 holds COMMIT at 5, aborted records 6..8 and ABORT at 9; partition 1 holds COMMIT at 5.
    const abortMarker = HW_WITH_OPEN_TRANSACTION;
    const commitAt = async (offsets: Array<[number, number]>) => {
      const results = await readCommittedSource.commitOffsets(GROUP, offsets.map(([partition, offset]) => ({ topic: TOPIC, partition, offset })));
      assert.deepEqual(results.filter((r) => r.error), []);
      return describeWhen(readCommittedSource, (g) => offsets.every(([partition, offset]) => partitionRow(g, partition).committedOffset === offset));
    };
    const atMarkers = await commitAt([[0, abortMarker], [1, LSO - 1]]);
    assert.deepEqual(atMarkers.offsets.map((o) => [o.partition, o.lag, o.markerOnlyLag]), [[0, 1, true], [1, 1, true]]);
    // A Java read_committed consumer at those positions has nothing to read: it moves past the markers.
    const probe = await runLagProbe(env, 'read_committed', 'all');
    assert.deepEqual(probe.map((p) => [p.partition, p.position, p.recordsLag]), [[0, abortMarker + 1, 0], [1, LSO, 0]]);

    const beforeAborted = await commitAt([[0, LSO - 1], [1, LSO - 1]]);
    assert.deepEqual(beforeAborted.offsets.map((o) => [o.partition, o.lag, o.markerOnlyLag]), [[0, abortMarker + 1 - (LSO - 1), undefined], [1, 1, true]]);
  });
});
