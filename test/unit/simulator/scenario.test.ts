import { strict as assert } from 'node:assert';
import { runScenario, ScenarioValidationError } from '../../../src/simulator/scenarios/runScenario';
import { DEMO_SCENARIO, WEIRD_GROUP_ID } from '../../../src/simulator/scenarios/demo';

function validationIssues(input: unknown): string[] {
  try {
    runScenario(input);
  } catch (e) {
    if (e instanceof ScenarioValidationError) {
      return e.issues;
    }
    throw e;
  }
  assert.fail('expected a validation error');
}

describe('runScenario', () => {
  it('shows a join, a crash expired by the session timeout, a static restart without rebalance and a poll timeout within 120 s', () => {
    const { events, groups } = runScenario(DEMO_SCENARIO);
    assert.ok(events.every((e) => e.time <= 120000));
    const orders = events.filter((e) => e.groupId === 'orders-processor');
    const lateJoin = orders.find((e) => e.kind === 'member-joined' && e.time === 20000);
    assert.ok(lateJoin, 'orders-4 joins at 20 s');
    const expired = orders.find((e) => e.kind === 'member-expired');
    assert.ok(expired && expired.time > 70000 && expired.time <= 75000, 'orders-2 crashed at 30 s and expires 45 s after its last heartbeat');
    assert.match(expired.cause ?? '', /on heartbeat expiration\.$/);

    const payments = events.filter((e) => e.groupId === 'payments-audit');
    const rejoin = payments.find((e) => e.kind === 'static-rejoin');
    assert.equal(rejoin?.time, 45000);
    assert.equal(payments.filter((e) => e.kind === 'rebalance-started').length, 1, 'only the initial rebalance');

    const inventory = events.filter((e) => e.groupId === 'inventory-sync');
    const timeout = inventory.find((e) => e.kind === 'poll-timeout');
    assert.ok(timeout && timeout.time > 59000 && timeout.time <= 60000, 'inventory-2 stalls at 40 s with max.poll.interval.ms=20000');
    assert.equal(inventory.find((e) => e.kind === 'member-left')?.cause, 'consumer poll timeout has expired.');

    const byId = new Map(groups.map((g) => [g.groupId, g]));
    assert.deepEqual([...byId.keys()], [WEIRD_GROUP_ID, 'billing-archive', 'inventory-sync', 'orders-processor', 'payments-audit']);
    const archive = byId.get('billing-archive')!;
    assert.equal(archive.state, 'Empty');
    assert.equal(archive.groupType, 'simple');
    assert.deepEqual(archive.offsets.map((o) => [o.partition, o.committedOffset, o.logEndOffset, o.lag]), [[0, 700, 1000, 300], [1, 1000, 1000, 0], [2, 250, 1000, 750]]);
    const ordersGroup = byId.get('orders-processor')!;
    assert.equal(ordersGroup.state, 'Stable');
    assert.equal(ordersGroup.assignor, 'range');
    assert.equal(ordersGroup.members.length, 3);
    assert.equal(ordersGroup.offsets.filter((o) => o.ownerMemberId).length, 6);
  });

  it('is deterministic: the same seed gives the same event log', () => {
    const a = runScenario(DEMO_SCENARIO);
    const b = runScenario(DEMO_SCENARIO);
    assert.deepEqual(a.events, b.events);
    const other = runScenario({ ...DEMO_SCENARIO, seed: 99 });
    assert.notDeepEqual(other.events.map((e) => e.memberId), a.events.map((e) => e.memberId));
  });

  it('reports every malformed field with its path and what was expected', () => {
    const issues = validationIssues({
      durationMs: -5,
      topics: [{ name: 'orders', partitions: 0 }],
      consumers: [{ id: 'c1', groupId: '', topics: ['nope'], assignors: ['fancy'], sessionTimeoutMs: 'long' }],
      actions: [{ atMs: 10, type: 'crash', consumer: 'ghost' }, { atMs: 5, type: 'explode' }],
      extra: true,
    });
    assert.deepEqual(issues, [
      'scenario.extra: unknown field; expected one of name, description, seed, durationMs, cluster, coordinator, streamsGroup, topics, consumers, streamsApps, producers, actions',
      'scenario.durationMs: expected a number between 1 and 2592000000, got -5',
      'scenario.topics[0].partitions: expected an integer between 1 and 100000, got 0',
      'scenario.consumers[0].groupId: expected a non-empty string, got ""',
      'scenario.consumers[0].topics[0]: expected a topic declared in topics (orders), got "nope"',
      'scenario.consumers[0].assignors[0]: expected one of range, roundrobin, sticky, cooperative-sticky, got "fancy"',
      'scenario.consumers[0].sessionTimeoutMs: expected an integer between 1 and 9007199254740991, got "long"',
      'scenario.actions[1].type: expected one of "join", "leave", "crash", "pause", "restart", "produce", "commit", "startProducer", "stopProducer", "beginTransaction", "produceTransactional", "sendOffsetsToTransaction", "commitTransaction", "abortTransaction", "startStreamsInstance", got "explode"',
      'scenario.actions[0].consumer: expected the id of a consumer or streams instance declared or started by an earlier action (c1), got "ghost"',
    ]);
  });

  it('checks transactional actions in time order, with clear errors', () => {
    const issues = validationIssues({
      durationMs: 1000,
      topics: [{ name: 't', partitions: 1 }],
      consumers: [{ id: 'c', groupId: 'g', topics: ['t'], isolationLevel: 'snapshot' }],
      actions: [
        { atMs: 10, type: 'produceTransactional', transactionalId: 'tx', topic: 't', records: 1 },
        { atMs: 20, type: 'beginTransaction', transactionalId: 'tx' },
        { atMs: 30, type: 'beginTransaction', transactionalId: 'tx' },
        { atMs: 40, type: 'sendOffsetsToTransaction', transactionalId: 'tx', consumer: 'nobody' },
        { atMs: 50, type: 'abortTransaction', transactionalId: 'tx', rewindConsumer: 'c', extra: 1 },
        { atMs: 60, type: 'commitTransaction', transactionalId: 'tx' },
      ],
    });
    assert.deepEqual(issues, [
      'scenario.consumers[0].isolationLevel: expected one of "read_uncommitted", "read_committed", got "snapshot"',
      'scenario.actions[0]: transactional producer "tx" has no transaction in progress (add a beginTransaction action before it)',
      'scenario.actions[2]: transactional producer "tx" already has a transaction in progress (commit or abort it first)',
      'scenario.actions[3].consumer: expected the id of a consumer or streams instance declared or started by an earlier action (c), got "nobody"',
      'scenario.actions[4].extra: unknown field; expected one of atMs, type, transactionalId, rewindConsumer',
      'scenario.actions[5]: transactional producer "tx" has no transaction in progress (add a beginTransaction action before it)',
    ]);
  });

  it('rejects a scenario that implies unbounded work (a 1 ms heartbeat for 30 days), naming the consumer', () => {
    const issues = validationIssues({
      durationMs: 30 * 24 * 3600 * 1000,
      topics: [{ name: 't', partitions: 1 }],
      consumers: [{ id: 'c', groupId: 'g', topics: ['t'], heartbeatIntervalMs: 1 }],
    });
    assert.equal(issues.length, 1);
    assert.match(issues[0], /^scenario\.consumers\[0\]: implies about 2\d{9} engine events .*2592000000 heartbeats every 1 ms.*the limit is 10000000/);
    const together = validationIssues({
      durationMs: 3_600_000,
      topics: [{ name: 't', partitions: 1 }],
      consumers: Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, groupId: 'g', topics: ['t'], heartbeatIntervalMs: 3 })),
    });
    assert.match(together[0], /^scenario\.durationMs: the consumers and producers together imply about 1\d{7} engine events/);
  });

  it('rejects a minimum session timeout above the maximum, a heartbeat not below the session timeout, an assignor listed twice and too many partitions', () => {
    const issues = validationIssues({
      durationMs: 1000,
      coordinator: { minSessionTimeoutMs: 60000, maxSessionTimeoutMs: 30000 },
      topics: [{ name: 't', partitions: 60000 }, { name: 'u', partitions: 60000 }],
      consumers: [{ id: 'c', groupId: 'g', topics: ['t'], sessionTimeoutMs: 10000, heartbeatIntervalMs: 10000, assignors: ['range', 'sticky', 'range'] }],
    });
    assert.deepEqual(issues, [
      'scenario.coordinator.minSessionTimeoutMs: 60000 must not exceed maxSessionTimeoutMs (30000), or no consumer can join',
      'scenario.topics: 120000 partitions in all; the simulator holds at most 100000',
      'scenario.consumers[0].assignors[2]: assignor "range" is listed twice',
      'scenario.consumers[0].heartbeatIntervalMs: 10000 must be lower than the session timeout (10000 ms)',
    ]);
  });

  it('rejects a non-object scenario and a bad topic name', () => {
    assert.deepEqual(validationIssues(42), ['scenario: expected an object, got 42']);
    assert.throws(() => runScenario({ durationMs: 10, topics: [{ name: 'bad name', partitions: 1 }] }), /scenario\.topics: Topic name "bad name" may contain only/);
  });

  it('names the failing action when it cannot be performed at run time', () => {
    assert.throws(
      () =>
        runScenario({
          durationMs: 10000,
          topics: [{ name: 't', partitions: 1 }],
          consumers: [{ id: 'c', groupId: 'g', topics: ['t'] }],
          actions: [
            { atMs: 1000, type: 'crash', consumer: 'c' },
            { atMs: 2000, type: 'crash', consumer: 'c' },
          ],
        }),
      /scenario\.actions\[1\] \(crash at 2000 ms\): Cannot crash consumer c: it is crashed/,
    );
  });
});
