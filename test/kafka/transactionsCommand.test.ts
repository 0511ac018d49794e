/**
 * kafka-transactions.sh (org.apache.kafka.tools.TransactionsCommand, KIP-664) against the simulator's
 * server and against the real broker, with the same script: a Java transactional producer commits one
 * transaction, writes into a second and dies, so the second stays open and holds the LSO. Then the
 * tool's list, describe, describe-producers, find-hanging and abort run against each, and their tables
 * must agree, column by column, once the values that differ by nature (producer ids, broker ids, clock
 * readings) are replaced by what they must be.
 */
import { strict as assert } from 'node:assert';
import { SimKafkaServer } from '../../src/simulator/server/kafkaServer';
import { Simulation } from '../../src/simulator/simulation';
import { brokerEnv, createTopics, javaTestClasspath, runJavaClass } from './support';
import { printedTable, transactionsTool, type Table } from './transactionsTool';

const RUN = `r${Date.now().toString(36)}`;
const TOPIC = `ledger-${RUN}`;
const TRANSACTIONAL_ID = `payments-tx-${RUN}`;
const COMMITTED = 3;
const OPEN = 2;
/** Long enough that no coordinator times the open transaction out during the test. */
const TRANSACTION_TIMEOUT_MS = 600_000;

interface ToolRun {
  list: Table;
  describe: Table;
  producers: Table;
  hanging: string[];
  abort: string[];
  producersAfterAbort: Table;
  listAfterAbort: Table;
}

describe('kafka-transactions.sh against the simulator\'s server and a real broker', function () {
  this.timeout(300000);
  let sim: Simulation;
  let server: SimKafkaServer;
  const serverLog: string[] = [];

  before(async () => {
    sim = new Simulation({ seed: 5, startTime: Date.now(), cluster: { brokers: 1 } });
    sim.cluster.createTopic(TOPIC, 1);
    server = new SimKafkaServer(sim, { log: (line) => serverLog.push(line) });
    await server.start();
    await createTopics([{ topic: TOPIC, numPartitions: 1 }]);
  });

  after(async () => {
    await server?.close();
    sim?.dispose();
  });

  const env = brokerEnv();
  const tool = (bootstrap: string, ...args: string[]) => transactionsTool(env, bootstrap, ...args);

  async function script(bootstrap: string): Promise<ToolRun> {
    const opened = await runJavaClass(javaTestClasspath(env.lib, 'OpenTransaction'), 'OpenTransaction', [bootstrap, TOPIC, TRANSACTIONAL_ID, String(COMMITTED), String(OPEN), String(TRANSACTION_TIMEOUT_MS)]);
    assert.ok(opened.includes('OPEN'), opened.join('\n'));
    const ours = (table: Table) => table.filter((row) => row.TransactionalId === TRANSACTIONAL_ID);
    const list = ours(printedTable(await tool(bootstrap, 'list'), 'TransactionalId'));
    const describe = printedTable(await tool(bootstrap, 'describe', '--transactional-id', TRANSACTIONAL_ID), 'CoordinatorId');
    const producers = printedTable(await tool(bootstrap, 'describe-producers', '--topic', TOPIC, '--partition', '0'), 'ProducerId');
    const hanging = (await tool(bootstrap, 'find-hanging', '--topic', TOPIC)).filter((line) => line !== '');
    const startOffset = producers[0]?.CurrentTransactionStartOffset ?? 'none';
    const abort = (await tool(bootstrap, 'abort', '--topic', TOPIC, '--partition', '0', '--start-offset', startOffset)).filter((line) => line !== '');
    const producersAfterAbort = printedTable(await tool(bootstrap, 'describe-producers', '--topic', TOPIC, '--partition', '0'), 'ProducerId');
    const listAfterAbort = ours(printedTable(await tool(bootstrap, 'list'), 'TransactionalId'));
    return { list, describe, producers, hanging, abort, producersAfterAbort, listAfterAbort };
  }

  /** Replaces what differs by nature: ids by their role, clock readings by whether they are sane. */
  function normalized(run: ToolRun, startedAt: number): unknown {
    const now = Date.now();
    const producerIds = new Set([...run.producers, ...run.list, ...run.describe].map((row) => row.ProducerId));
    const time = (value: string) => {
      const ms = Number(value);
      return Number.isFinite(ms) && ms >= startedAt - 1000 && ms <= now + 1000 ? '<during the run>' : `<out of range: ${value}>`;
    };
    const duration = (value: string) => {
      const ms = Number(value);
      return Number.isFinite(ms) && ms >= 0 && ms <= now - startedAt + 1000 ? '<since the start>' : `<out of range: ${value}>`;
    };
    const row = (r: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(r).map(([column, value]) => {
          if (column === 'ProducerId') {
            return [column, producerIds.size === 1 ? '<the producer>' : value];
          }
          if (column === 'Coordinator' || column === 'CoordinatorId') {
            return [column, /^\d+$/.test(value) ? '<a broker id>' : value];
          }
          if (column === 'LastTimestamp' || column === 'CurrentTransactionStartTimeMs') {
            return [column, time(value)];
          }
          if (column === 'TransactionDurationMs') {
            return [column, duration(value)];
          }
          return [column, value];
        }),
      );
    return {
      list: run.list.map(row),
      describe: run.describe.map(row),
      producers: run.producers.map(row),
      hanging: run.hanging,
      abort: run.abort,
      producersAfterAbort: run.producersAfterAbort.map(row),
      listAfterAbort: run.listAfterAbort.map(row),
    };
  }

  it('list, describe, describe-producers, find-hanging and abort print the same for a producer that died mid-transaction', async () => {
    const brokerStart = Date.now();
    const broker = await script(env.bootstrap);
    const fromBroker = normalized(broker, brokerStart);
    const simStart = Date.now();
    const simulated = await script(server.bootstrapServers.join(','));
    const fromSimulator = normalized(simulated, simStart);
    const shown = `broker:\n${JSON.stringify(broker, null, 1)}\nsimulator:\n${JSON.stringify(simulated, null, 1)}\nserver log:\n${serverLog.join('\n')}`;
    // What the broker printed is what the script must show; the simulator must print the same.
    assert.equal(broker.list.length, 1, shown);
    assert.equal(broker.list[0].TransactionState, 'Ongoing', shown);
    assert.equal(broker.producers[0]?.CurrentTransactionStartOffset, String(COMMITTED + 1), `the open transaction starts after the committed records and their marker\n${shown}`);
    assert.equal(broker.producersAfterAbort[0]?.CurrentTransactionStartOffset, 'None', shown);
    assert.deepEqual(fromSimulator, fromBroker, shown);
  });
});
