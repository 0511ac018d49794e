/**
 * A broker of its own (started here, so the shared one is never frozen or stopped): a load while it
 * is frozen (SIGSTOP) fails with a timeout within the request timeout and the next load after SIGCONT
 * succeeds; once it stops, a source that had been connected says the connection is refused.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { startBroker, stopBroker, type BrokerHandle } from '../../scripts/kafka/broker';
import { CONNECTION_TIMEOUTS } from '../../src/kafka/connection';
import { KafkaConnectionError, KafkaSource } from '../../src/kafka/kafkaSource';
import { MemoryLogger } from './support';

const FREEZE_MS = 30000;
/** A frozen broker's load must fail within this, which the request timeout is chosen to meet. */
const FROZEN_LOAD_BOUND_MS = 15000;

/** The process's state letter from /proc (T when stopped by a signal); null once it is gone. */
function processState(pid: number): string | null {
  try {
    // The command name sits in parentheses and may hold spaces; the state follows the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/** Waits (bounded) until every thread of the process is stopped, so no request sent after it can be answered. */
async function waitUntilStopped(pid: number): Promise<void> {
  const deadline = Date.now() + 5000;
  const threadStates = (): string[] => {
    try {
      return fs.readdirSync(`/proc/${pid}/task`).map((tid) => processState(Number(tid)) ?? 'gone');
    } catch {
      return ['gone'];
    }
  };
  let states = threadStates();
  while (states.some((s) => s !== 'T' && s !== 't' && s !== 'gone') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    states = threadStates();
  }
  const running = states.filter((s) => s !== 'T' && s !== 't');
  assert.equal(running.length, 0, `the broker (pid ${pid}) did not stop: thread states ${[...new Set(states)].join(',')}`);
}

async function loadFailure(source: KafkaSource, context = ''): Promise<{ error: KafkaConnectionError; ms: number }> {
  const started = Date.now();
  const error = await Promise.all([source.describeCluster(), source.listGroups()]).then(
    ([info, groups]) => assert.fail(`the load succeeded after ${Date.now() - started} ms${context} (${info.brokers.length} brokers, ${groups.length} groups)`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof KafkaConnectionError, `expected a KafkaConnectionError, got ${String(error)}`);
  return { error, ms: Date.now() - started };
}

describe('a broker that freezes, then stops', function () {
  this.timeout(180000);
  let broker: BrokerHandle;
  let pid: number;
  let source: KafkaSource;

  before(async () => {
    assert.ok(CONNECTION_TIMEOUTS.requestTimeout < FROZEN_LOAD_BOUND_MS, 'the request timeout leaves room for the bound');
    broker = await startBroker();
    pid = broker.process?.pid ?? assert.fail('the broker has no process');
    source = new KafkaSource({ id: 'outage', name: 'outage', bootstrapServers: [broker.bootstrap] }, {}, { logger: new MemoryLogger() });
  });

  after(async () => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
    await source?.dispose();
    if (broker) {
      await stopBroker(broker);
    }
  });

  it(`fails each load while frozen (SIGSTOP ${FREEZE_MS / 1000} s) with a timeout within ${FROZEN_LOAD_BOUND_MS / 1000} s, and loads after SIGCONT`, async () => {
    await Promise.all([source.describeCluster(), source.listGroups()]);
    process.kill(pid, 'SIGSTOP');
    const frozenAt = Date.now();
    const timings: number[] = [];
    try {
      await waitUntilStopped(pid);
      do {
        const { error, ms } = await loadFailure(source, `, load ${timings.length + 1} while frozen, ${Date.now() - frozenAt} ms after SIGSTOP, broker state ${processState(pid)}`);
        timings.push(ms);
        assert.equal(error.kind, 'timeout', error.message);
        assert.match(error.message, /^Timed out talking to 127\.0\.0\.1:\d+/);
        assert.ok(ms <= FROZEN_LOAD_BOUND_MS, `a frozen load took ${ms} ms`);
      } while (Date.now() - frozenAt < FREEZE_MS);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    console.log(`      loads while frozen failed after ${timings.join(', ')} ms`);
    const started = Date.now();
    const [info] = await Promise.all([source.describeCluster(), source.listGroups()]);
    console.log(`      the first load after SIGCONT took ${Date.now() - started} ms`);
    assert.equal(info.brokers.length, 1);
  });

  it('says the connection is refused once the broker it was connected to stops, on every load', async () => {
    await Promise.all([source.describeCluster(), source.listGroups()]);
    await stopBroker(broker);
    for (let load = 0; load < 3; load++) {
      const { error } = await loadFailure(source);
      assert.equal(error.kind, 'unreachable', error.message);
      assert.equal(error.message, `Cannot reach ${broker.bootstrap}: connection refused`);
    }
  });
});
