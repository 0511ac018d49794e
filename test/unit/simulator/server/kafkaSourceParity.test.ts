/**
 * KafkaSource (the real-cluster source, through kafkajs) pointed at the simulator's Kafka server must
 * show what SimSource reads straight from the same simulation: the server is then a faithful
 * stand-in for a cluster, and the extension's two paths agree.
 */
import assert from 'node:assert/strict';
import { KafkaSource } from '../../../../src/kafka/kafkaSource';
import type { GroupDetail, GroupSummary } from '../../../../src/model/types';
import type { ConsumerSpec } from '../../../../src/simulator/common/control';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import type { OffsetCommitResponse } from '../../../../src/simulator/common/requests';
import { SimKafkaServer } from '../../../../src/simulator/server/kafkaServer';
import { SimSource } from '../../../../src/simulator/editor/simSource';
import { Simulation } from '../../../../src/simulator/simulation';
import { waitFor } from './serverTestKit';

const silentLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface Snapshot {
  groups: GroupSummary[];
  details: GroupDetail[];
}

async function snapshot(source: KafkaSource | SimSource, groupIds: readonly string[]): Promise<Snapshot> {
  const groups = (await source.listGroups()).sort((a, b) => a.groupId.localeCompare(b.groupId));
  const details: GroupDetail[] = [];
  for (const id of groupIds) {
    const detail = await source.describeGroup(id);
    // Row and member order is presentation: KafkaSource lists owned partitions by member, SimSource by partition.
    details.push({
      ...detail,
      members: [...detail.members].sort((a, b) => a.memberId.localeCompare(b.memberId)),
      offsets: [...detail.offsets].sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition),
    });
  }
  return { groups, details };
}

/**
 * What a client can know of an engine group over the Kafka protocol, the two legitimate differences:
 * - the coordinator's port: SimSource reports the simulated broker's nominal port (9092 + n - 1),
 *   the server binds free loopback ports, and Metadata/FindCoordinator give those (node ids and
 *   hosts agree);
 * - the generation: classic DescribeGroups carries none, so KafkaSource reports none (undefined)
 *   unless it reads the group's records in `__consumer_offsets` (a KIP-848 group's epoch it has).
 */
function protocolView<T extends GroupSummary>(group: T, server: SimKafkaServer): T {
  const endpoint = server.endpoints().find((e) => e.nodeId === group.coordinator?.nodeId);
  assert.ok(endpoint, `no listener for coordinator ${group.coordinator?.nodeId}`);
  if (group.groupType === 'consumer') {
    return { ...group, coordinator: { ...endpoint } }; // ConsumerGroupDescribe carries the group epoch
  }
  const { generation: _generation, ...known } = group;
  return { ...known, coordinator: { ...endpoint } } as T;
}

/**
 * A described group as KafkaSource can know it, beyond protocolView:
 * - isolationLevel: the simulator knows its consumers' isolation.level; a broker does not report it;
 * - leaderId: classic DescribeGroups does not name the leader;
 * - markerOnlyLag: only the simulator's transaction index tells whether lag is all markers;
 * - commitMetadata: KafkaSource leaves out an empty commit metadata string.
 */
function protocolDetailView(group: GroupDetail, server: SimKafkaServer): GroupDetail {
  const { isolationLevel: _isolationLevel, ...rest } = protocolView(group, server);
  return {
    ...rest,
    leaderId: null,
    offsets: group.offsets.map(({ markerOnlyLag: _markerOnlyLag, commitMetadata, ...row }) => (commitMetadata ? { ...row, commitMetadata } : row)),
  };
}

describe('KafkaSource over the simulator server', function () {
  this.timeout(60000);
  let sim: Simulation;
  let server: SimKafkaServer;
  let kafkaSource: KafkaSource;
  let simSource: SimSource;

  before(async () => {
    sim = new Simulation({ seed: 5, startTime: Date.now(), cluster: { brokers: 3 }, coordinator: { initialRebalanceDelayMs: 100 } });
    for (const [name, partitions, records] of [['payments', 4, 6], ['audit', 2, 3]] as const) {
      const topic = sim.cluster.createTopic(name, partitions);
      topic.partitions.forEach((log, index) => log.append(records + index, sim.now));
    }
    const consumer: Omit<ConsumerSpec, 'groupId'> = { topics: ['payments', 'audit'], autoOffsetReset: 'earliest', autoCommitIntervalMs: 200, heartbeatIntervalMs: 500, assignors: ['roundrobin'] };
    sim.addConsumer({ ...consumer, groupId: 'billing', clientId: 'billing-a' });
    sim.addConsumer({ ...consumer, groupId: 'billing', clientId: 'billing-b' });
    sim.addConsumer({ ...consumer, groupId: 'billing', clientId: 'billing-static', groupInstanceId: 'billing-static-1', clientHost: '/10.1.2.3' });
    server = new SimKafkaServer(sim, { log: () => undefined });
    await server.start();
    // A group with committed offsets and no members: lag without consumers, as after a deployment stops them.
    const committed = await new Promise<OffsetCommitResponse>((resolve) =>
      sim.coordinator.offsetCommit(
        {
          groupId: 'reports',
          generationId: -1,
          memberId: '',
          groupInstanceId: null,
          topics: [{ name: 'payments', partitions: [0, 2].map((partition) => ({ partition, offset: 1 + partition, leaderEpoch: -1, metadata: `batch-${partition}` })) }],
        },
        resolve,
      ),
    );
    assert.deepEqual(committed.topics[0].partitions.map((p) => p.errorCode), ['NONE', 'NONE']);
    // A KIP-848 group: one member joined through ConsumerGroupHeartbeat, as a Java consumer with group.protocol=consumer does.
    const joined = await new Promise<ConsumerGroupHeartbeatResponseData>((resolve) => sim.coordinator.consumerGroupHeartbeat(
      { apiVersion: 1, clientId: 'ledger-java', clientHost: '/127.0.0.1' },
      {
        groupId: 'ledger', memberId: 'ledger-member-000000000', memberEpoch: 0, instanceId: 'ledger-1', rackId: null, rebalanceTimeoutMs: 30000,
        subscribedTopicNames: ['audit'], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [],
      },
      resolve,
    ));
    assert.equal(joined.errorCode, 0);
    simSource = new SimSource(sim);
    kafkaSource = new KafkaSource({ id: 'sim-server', name: 'Simulator server', bootstrapServers: server.bootstrapServers }, {}, { logger: silentLogger });
    await waitFor('billing to be Stable with 3 members that committed every partition', async () => {
      const billing = await simSource.describeGroup('billing');
      return billing.state === 'Stable' && billing.members.length === 3 && billing.offsets.length === 6 && billing.totalLag === 0;
    });
  });

  after(async () => {
    await kafkaSource?.dispose();
    await simSource?.dispose();
    await server?.close();
    sim?.dispose();
  });

  it('lists and describes the same groups, members, assignments, offsets and lag as SimSource', async () => {
    const ids = ['billing', 'ledger', 'reports'];
    // The simulation keeps running (heartbeats, auto-commits), so compare against a SimSource
    // snapshot that did not change while KafkaSource was reading.
    let seenOverTheWire: Snapshot | undefined;
    let engineView: Snapshot | undefined;
    await waitFor('an engine snapshot that held still while KafkaSource read', async () => {
      const before = await snapshot(simSource, ids);
      seenOverTheWire = await snapshot(kafkaSource, ids);
      const after = await snapshot(simSource, ids);
      engineView = after;
      return JSON.stringify(before) === JSON.stringify(after);
    });
    assert.ok(seenOverTheWire && engineView);

    const expectedGroups = engineView.groups.map((g) => protocolView(g, server));
    assert.deepEqual(seenOverTheWire.groups, expectedGroups);
    for (const [index, wire] of seenOverTheWire.details.entries()) {
      assert.equal(wire.isolationLevel, undefined);
      assert.equal(wire.leaderId, null);
      assert.deepEqual(wire, protocolDetailView(engineView.details[index], server));
    }

    // The comparison is about something: the snapshot has the shape the setup built.
    const [billing, ledger, reports] = engineView.details;
    assert.equal(ledger.groupType, 'consumer');
    assert.equal(ledger.members[0].groupInstanceId, 'ledger-1');
    assert.equal(ledger.members[0].memberEpoch, 2);
    assert.equal(ledger.consumerGroup?.assignorName, 'uniform');
    assert.deepEqual(billing.members.map((m) => m.clientId).sort(), ['billing-a', 'billing-b', 'billing-static']);
    assert.equal(billing.members.find((m) => m.clientId === 'billing-static')?.groupInstanceId, 'billing-static-1');
    assert.equal(billing.members.find((m) => m.clientId === 'billing-static')?.clientHost, '/10.1.2.3');
    assert.equal(billing.assignor, 'roundrobin');
    assert.equal(billing.members.flatMap((m) => m.assignment).length, 6);
    assert.deepEqual(
      reports.offsets.map((o) => [o.partition, o.committedOffset, o.logEndOffset, o.lag]),
      [
        [0, 1, 6, 5],
        [2, 3, 8, 5],
      ],
    );
    assert.equal(reports.state, 'Empty');
    assert.equal(reports.totalLag, 10);
  });
});
