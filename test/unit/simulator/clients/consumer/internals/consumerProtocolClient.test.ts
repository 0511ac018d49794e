import { strict as assert } from 'node:assert';
import type { RebalanceEvent, TopicPartition } from '../../../../../../src/model/types';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerSpec } from '../../../../../../src/simulator/common/control';
import { Simulation } from '../../../../../../src/simulator/simulation';

const GROUP = 'g';

/** Topic "orders" of 6 partitions, the event log, and consumer-protocol members of group "g". */
function setup(coordinator: { responseLatencyMs?: number } = {}) {
  const sim = new Simulation({ seed: 7, coordinator });
  sim.createTopic('orders', 6);
  const events: RebalanceEvent[] = [];
  sim.events.subscribe((e) => events.push(e));
  const add = (handle: string, extra: Partial<ConsumerSpec> = {}) =>
    sim.addConsumer({ groupId: GROUP, topics: ['orders'], groupProtocol: 'consumer', autoOffsetReset: 'earliest', ...extra }, handle);
  const owned = (handle: string) => sim.consumer(handle).assignment.map((tp) => tp.partition).sort((a, b) => a - b);
  const group = () => sim.coordinator.consumerGroup(GROUP);
  return { sim, events, add, owned, group };
}

function key(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** Runs to `until` in steps of `stepMs`, checking at each step that no partition has two owners among `handles`. */
function runCheckingSingleOwners(sim: Simulation, handles: string[], until: number, stepMs: number): void {
  while (sim.now < until) {
    sim.runUntil(Math.min(until, sim.now + stepMs));
    const owners = new Map<string, string>();
    for (const handle of handles) {
      const consumer = sim.consumer(handle);
      if (!consumer.isRunning) {
        continue;
      }
      for (const tp of consumer.assignment) {
        const other = owners.get(key(tp));
        assert.equal(other, undefined, `${key(tp)} owned by ${other ?? ''} and ${handle} at ${sim.now} ms`);
        owners.set(key(tp), handle);
      }
    }
  }
}

function allPartitions(owned: number[][]): number[] {
  return owned.flat().sort((a, b) => a - b);
}

describe('consumer-protocol (KIP-848) simulated consumers', () => {
  it('join with epoch 0 and reach a stable group whose members own every partition once', () => {
    const { sim, add, owned, group, events } = setup();
    add('a');
    add('b');
    add('c');
    sim.runUntil(15000);
    assert.equal(group()?.state, 'Stable');
    assert.equal(sim.coordinator.group(GROUP), undefined, 'no classic group of that id');
    assert.deepEqual(allPartitions([owned('a'), owned('b'), owned('c')]), [0, 1, 2, 3, 4, 5]);
    for (const handle of ['a', 'b', 'c']) {
      assert.equal(owned(handle).length, 2, `${handle} owns two partitions`);
      assert.equal(sim.consumer(handle).membershipState, 'STABLE');
      assert.equal(sim.consumer(handle).generation, group()?.groupEpoch, 'member epoch reached the group epoch');
    }
    assert.equal(events.filter((e) => e.kind === 'member-joined').length, 3);
    assert.ok(events.some((e) => e.kind === 'assignment-changed' && e.reconciliation?.state === 'stable'), 'reconciliation reaches the event log');
  });

  it('sends every field to join, then only what changed, at the interval the coordinator returns, and epoch -1 to leave', () => {
    const { sim, add } = setup();
    const sent: Array<{ time: number; request: ConsumerGroupHeartbeatRequestData }> = [];
    const coordinator = sim.coordinator;
    const original = coordinator.consumerGroupHeartbeat.bind(coordinator);
    coordinator.consumerGroupHeartbeat = (context, request, respond) => {
      sent.push({ time: sim.now, request: structuredClone(request) });
      original(context, request, respond);
    };
    add('a', { maxPollIntervalMs: 60000 });
    sim.runUntil(20000);
    const [join, ...rest] = sent.map((s) => s.request);
    assert.equal(join.memberEpoch, 0);
    assert.ok(join.memberId.length > 0, 'the client made its member id');
    assert.equal(join.rebalanceTimeoutMs, 60000);
    assert.deepEqual(join.subscribedTopicNames, ['orders']);
    assert.deepEqual(join.topicPartitions, []);
    const ack = rest[0];
    assert.deepEqual(ack.topicPartitions?.flatMap((t) => t.partitions), [0, 1, 2, 3, 4, 5], 'the acknowledgement reports the reconciled partitions');
    assert.equal(ack.subscribedTopicNames, null);
    const steady = sent.slice(2);
    assert.ok(steady.length >= 2);
    for (const { request } of steady) {
      assert.deepEqual([request.rebalanceTimeoutMs, request.subscribedTopicNames, request.topicPartitions, request.memberEpoch], [-1, null, null, 2]);
    }
    assert.deepEqual(steady.slice(1).map((s, i) => s.time - steady[i].time), steady.slice(1).map(() => 5000), 'group.consumer.heartbeat.interval.ms');
    sim.stopConsumer('a');
    assert.equal(sent[sent.length - 1].request.memberEpoch, -1);
  });

  it('stays quiet in the steady state: heartbeats at the coordinator interval change nothing', () => {
    const { sim, add, group, events } = setup();
    add('a');
    add('b');
    sim.runUntil(20000);
    const epoch = group()?.groupEpoch;
    const seen = events.length;
    sim.runUntil(120000);
    assert.equal(group()?.groupEpoch, epoch);
    assert.equal(group()?.state, 'Stable');
    assert.deepEqual(events.slice(seen).filter((e) => e.kind !== 'offsets-committed').map((e) => e.kind), []);
  });

  for (const latency of [0, 20]) {
    it(`a member joining later gets its partitions only after their owner revoked them (response latency ${latency} ms)`, () => {
      const { sim, add, owned, group, events } = setup({ responseLatencyMs: latency });
      add('a');
      add('b');
      add('c');
      runCheckingSingleOwners(sim, ['a', 'b', 'c'], 15000, 5);
      const before = new Map(['a', 'b', 'c'].map((h) => [h, owned(h)]));
      add('d');
      runCheckingSingleOwners(sim, ['a', 'b', 'c', 'd'], 45000, 5);
      assert.equal(group()?.state, 'Stable');
      assert.deepEqual(allPartitions(['a', 'b', 'c', 'd'].map(owned)), [0, 1, 2, 3, 4, 5]);
      assert.ok(owned('d').length > 0, 'the new member got partitions');
      // Incremental: the members that stay keep what they still own; only what moved was revoked.
      for (const handle of ['a', 'b', 'c']) {
        assert.ok(owned(handle).every((p) => before.get(handle)?.includes(p)), `${handle} only lost partitions`);
      }
      const d = sim.consumer('d').currentMemberId;
      const moved = events.filter((e) => e.kind === 'assignment-changed' && e.memberId === d && e.assignments?.[0]?.assigned.length);
      const revoked = events.filter((e) => e.kind === 'assignment-changed' && e.memberId !== d && e.assignments?.[0]?.revoked.length && e.time >= 15000);
      assert.ok(revoked.length > 0 && moved.length > 0);
      assert.ok(revoked[0].time <= moved[0].time, 'revoked before assigned');
    });
  }

  it('leaves with epoch -1 on close: the others take its partitions', () => {
    const { sim, add, owned, group, events } = setup();
    add('a');
    add('b');
    add('c');
    sim.runUntil(15000);
    const leaving = sim.consumer('b').currentMemberId;
    sim.stopConsumer('b');
    sim.runUntil(40000);
    assert.ok(events.some((e) => e.kind === 'member-left' && e.memberId === leaving && /left the consumer group/.test(e.cause ?? '')));
    assert.equal(group()?.members.size, 2);
    assert.equal(group()?.state, 'Stable');
    assert.deepEqual(allPartitions([owned('a'), owned('c')]), [0, 1, 2, 3, 4, 5]);
  });

  it('a static member that restarts keeps its assignment, and the group epoch does not move', () => {
    const { sim, add, owned, group, events } = setup();
    add('a', { groupInstanceId: 'instance-a' });
    add('b', { groupInstanceId: 'instance-b' });
    sim.runUntil(15000);
    const partitions = owned('a');
    const epoch = group()?.groupEpoch;
    sim.stopConsumer('a'); // leave heartbeat with epoch -2: the assignment is kept for the instance id
    sim.runUntil(20000);
    assert.deepEqual(owned('b').length, 3, 'b did not take a\'s partitions');
    sim.restartConsumer('a');
    sim.runUntil(35000);
    assert.deepEqual(owned('a'), partitions);
    assert.equal(group()?.groupEpoch, epoch);
    assert.ok(events.some((e) => e.kind === 'static-rejoin'), 'the rejoin replaced the member');
  });

  it('a fenced member releases its partitions and rejoins with epoch 0 under the same member id', () => {
    const { sim, add, owned, group, events } = setup();
    add('a');
    add('b');
    sim.runUntil(15000);
    const memberId = sim.consumer('a').currentMemberId ?? '';
    // An admin removes the member behind the client's back; its next heartbeat gets UNKNOWN_MEMBER_ID.
    sim.coordinator.consumerGroupHeartbeat({ apiVersion: 1, clientId: 'admin', clientHost: '/127.0.0.1' }, {
      groupId: GROUP, memberId, memberEpoch: -1, instanceId: null, rackId: null, rebalanceTimeoutMs: -1,
      subscribedTopicNames: null, subscribedTopicRegex: null, serverAssignor: null, topicPartitions: null,
    }, () => undefined);
    sim.runUntil(15001);
    assert.equal(group()?.members.has(memberId), false);
    const rejoins: number[] = [];
    sim.events.subscribe((e) => {
      if (e.kind === 'member-joined' && e.memberId === memberId) {
        rejoins.push(owned('a').length);
      }
    });
    sim.runUntil(45000);
    assert.deepEqual(rejoins, [0], 'rejoined once, after releasing its partitions');
    assert.equal(sim.consumer('a').currentMemberId, memberId);
    assert.equal(group()?.state, 'Stable');
    assert.deepEqual(allPartitions([owned('a'), owned('b')]), [0, 1, 2, 3, 4, 5]);
    assert.ok(owned('a').length > 0);
    assert.ok(events.some((e) => e.kind === 'member-left' && e.memberId === memberId));
  });

  it('leaves when poll() stalls past max.poll.interval.ms and rejoins when it polls again', () => {
    const { sim, add, owned, group, events } = setup();
    add('a', { maxPollIntervalMs: 10000 });
    add('b');
    sim.runUntil(15000);
    sim.pausePolling('a', 20000);
    sim.runUntil(30000);
    assert.ok(events.some((e) => e.kind === 'poll-timeout' && e.groupId === GROUP));
    assert.equal(sim.consumer('a').membershipState, 'STALE');
    assert.deepEqual(owned('a'), []);
    sim.runUntil(60000);
    assert.equal(sim.consumer('a').membershipState, 'STABLE');
    assert.equal(group()?.members.size, 2);
    assert.deepEqual(allPartitions([owned('a'), owned('b')]), [0, 1, 2, 3, 4, 5]);
  });

  it('subscribes with a regex and asks for the range assignor', () => {
    const { sim, add, owned, group } = setup();
    sim.createTopic('orders-eu', 2);
    sim.addConsumer({ groupId: GROUP, topics: [], subscribedTopicRegex: 'orders.*', groupRemoteAssignor: 'range', groupProtocol: 'consumer' }, 'r');
    sim.runUntil(15000);
    assert.equal(owned('r').length, 8);
    assert.equal(group()?.state, 'Stable');
    assert.equal(sim.coordinator.consumerGroupDescribeNow(GROUP).assignorName, 'range');
    void add;
  });

  it('refuses classic-only settings with group.protocol=consumer, as the Java consumer does', () => {
    const { sim } = setup();
    assert.throws(() => sim.addConsumer({ groupId: GROUP, topics: ['orders'], groupProtocol: 'consumer', assignors: ['range'] }),
      /assignors: partition\.assignment\.strategy cannot be set when group\.protocol=CONSUMER/);
    assert.throws(() => sim.addConsumer({ groupId: GROUP, topics: ['orders'], groupRemoteAssignor: 'uniform' }),
      /group\.remote\.assignor cannot be set when group\.protocol=CLASSIC/);
  });
});

describe('consumer-protocol member answered after it left', () => {
  it('ignores an error answer that arrives once the member is STALE (it left on an expired poll timer)', () => {
    // Latency 3 s: the heartbeat sent at 18 s is answered at 21 s, while the poll timer (8 s after the
    // pause that starts at 12 s) expired at 20 s: the member is STALE when the refusal comes.
    const sim = new Simulation({ seed: 7, coordinator: { responseLatencyMs: 3000 } });
    sim.createTopic('orders', 2);
    sim.addConsumer({ groupId: GROUP, topics: ['orders'], groupProtocol: 'consumer', maxPollIntervalMs: 8000 }, 'a');
    sim.runUntil(12000);
    sim.pausePolling('a', 30000);
    const coordinator = sim.coordinator;
    const original = coordinator.consumerGroupHeartbeat.bind(coordinator);
    coordinator.consumerGroupHeartbeat = (context, request, respond) => {
      // The heartbeats of 15-20 s carry an epoch the coordinator no longer knows: FENCED_MEMBER_EPOCH.
      const fenced = request.memberEpoch > 0 && sim.now >= 15000 && sim.now < 20000;
      original(context, fenced ? { ...request, memberEpoch: request.memberEpoch + 100 } : request, respond);
    };
    sim.runUntil(30000);
    assert.equal(sim.consumer('a').membershipState, 'STALE');
    sim.runUntil(60000);
    assert.equal(sim.consumer('a').membershipState, 'STABLE');
  });
});

describe('consumer-protocol members under random churn', () => {
  it('never throw and never let two running members own a partition, across seeds (bounded: 12 runs of 3 virtual minutes)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const sim = new Simulation({ seed, coordinator: { responseLatencyMs: seed % 3 === 0 ? 0 : seed * 7 } });
      sim.createTopic('orders', 8);
      const handles = ['a', 'b', 'c', 'd'];
      handles.forEach((handle, i) => sim.addConsumer({
        groupId: GROUP, topics: ['orders'], groupProtocol: 'consumer', autoOffsetReset: 'earliest',
        groupInstanceId: i % 2 === 0 ? `instance-${handle}` : null, maxPollIntervalMs: 15000,
      }, handle));
      let state = seed;
      const next = (n: number): number => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state % n;
      };
      for (let step = 0; step < 36; step++) {
        const consumer = sim.consumer(handles[next(handles.length)]);
        const action = next(4);
        if (!consumer.isRunning) {
          if (action < 2 && consumer.failureReason === null) {
            sim.restartConsumer(consumer.handle);
          }
        } else if (action === 0) {
          sim.stopConsumer(consumer.handle);
        } else if (action === 1) {
          sim.crashConsumer(consumer.handle);
        } else if (action === 2) {
          sim.pausePolling(consumer.handle, 1000 + next(30000));
        }
        runCheckingSingleOwners(sim, handles, sim.now + 5000, 100);
      }
    }
  });
});
