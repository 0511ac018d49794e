import { strict as assert } from 'node:assert';
import { describeSimGroup, listSimGroups } from '../../../../src/simulator/admin/groupDetailMapper';
import { buildScenario } from '../../../../src/simulator/scenarios/runScenario';
import { EXACTLY_ONCE_SCENARIO } from '../../../../src/simulator/scenarios/exactlyOnce';
import { commit, harness } from '../harness';
import { Simulation } from '../../../../src/simulator/simulation';

describe('simulator groupDetailMapper: transactions', () => {
  it('gives each partition its LSO, the lag against it for read_committed groups, and the pending transactional offsets', () => {
    const { simulation } = buildScenario(EXACTLY_ONCE_SCENARIO);
    simulation.runUntil(EXACTLY_ONCE_SCENARIO.durationMs);
    const ledger = describeSimGroup(simulation, 'ledger');
    assert.equal(ledger.isolationLevel, 'read_committed');
    assert.deepEqual(
      ledger.offsets.map((r) => [r.partition, r.committedOffset, r.logEndOffset, r.lastStableOffset, r.lag, r.lastStableLag, r.markerOnlyLag]),
      [
        [0, 152, 172, 152, 20, 0, false],
        [1, 152, 172, 152, 20, 0, false],
      ],
      'the open transaction is lag against the HW but not against the LSO',
    );
    const enricher = describeSimGroup(simulation, 'payments-enricher');
    assert.equal(enricher.pendingTransactionalPartitions, 2);
    assert.deepEqual(enricher.offsets.map((r) => [r.partition, r.committedOffset, r.pendingTransactionalOffset]), [
      [0, 100, 150],
      [1, 100, 150],
    ]);
    const summary = listSimGroups(simulation).find((g) => g.groupId === 'payments-enricher');
    assert.equal(summary?.pendingTransactionalPartitions, 2);
    assert.equal('isolationLevel' in (summary ?? {}), false, 'the summary stays a GroupSummary');
    simulation.dispose();
  });

  it('flags lag that is only a transaction marker', () => {
    const { sim } = harness();
    const producer = sim.initTransactions('tx');
    producer.beginTransaction();
    producer.send('u', 4, 0); // 0-3, COMMIT marker at 4
    producer.commitTransaction();
    commit(sim, { generationId: -1, topic: 'u', offset: 4 });
    sim.advance(0);
    const row = describeSimGroup(sim, 'g').offsets.find((r) => r.topic === 'u')!;
    assert.equal(row.lag, 1);
    assert.equal(row.markerOnlyLag, true);
    assert.equal(row.lastStableLag, undefined, 'no read_committed consumer: the isolation level is unknown');
    commit(sim, { generationId: -1, topic: 'u', offset: 3 });
    sim.advance(0);
    assert.equal(describeSimGroup(sim, 'g').offsets.find((r) => r.topic === 'u')!.markerOnlyLag, false, 'one record is still unread');
  });
});

describe('simulator groupDetailMapper: streams groups', () => {
  it('shows a streams group as a real broker\'s: type, epoch, members with the partitions their tasks read, committed offsets', () => {
    const simulation = new Simulation({ seed: 3, streamsGroup: { initialRebalanceDelayMs: 0 } });
    simulation.createTopic('clicks', 2);
    simulation.createTopic('counter-store-changelog', 2);
    const request = {
      groupId: 'counter', memberId: 'thread-1', memberEpoch: 0, endpointInformationEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30000,
      topology: {
        epoch: 0,
        subtopologies: [{
          subtopologyId: '0', sourceTopics: ['clicks'], sourceTopicRegex: [], repartitionSinkTopics: [], repartitionSourceTopics: [], copartitionGroups: [],
          stateChangelogTopics: [{ name: 'counter-store-changelog', partitions: 0, replicationFactor: 0, topicConfigs: [] }],
        }],
      },
      activeTasks: [], standbyTasks: [], warmupTasks: [], processId: 'process-1', userEndpoint: null, clientTags: [], taskOffsets: null, taskEndOffsets: null, shutdownApplication: false,
    };
    let epoch = 0;
    simulation.coordinator.streamsGroupHeartbeat({ apiVersion: 1, clientId: 'counter-StreamThread-1-consumer', clientHost: '/127.0.0.1' }, request, (r) => {
      epoch = r.response.memberEpoch;
    });
    simulation.runUntil(simulation.now + 10);
    simulation.coordinator.offsetCommit({ groupId: 'counter', memberId: 'thread-1', groupInstanceId: null, generationId: epoch, topics: [{ name: 'clicks', partitions: [{ partition: 1, offset: 0 }] }] }, () => undefined);
    simulation.runUntil(simulation.now + 10);
    const detail = describeSimGroup(simulation, 'counter');
    assert.equal(detail.groupType, 'streams');
    assert.equal(detail.protocolType, 'streams');
    assert.equal(detail.state, 'Stable');
    assert.equal(detail.generation, detail.streamsGroup?.groupEpoch);
    assert.deepEqual(detail.members.map((m) => [m.memberId, m.assignment.map((tp) => `${tp.topic}-${tp.partition}`)]), [['thread-1', ['clicks-0', 'clicks-1']]]);
    assert.equal(detail.streamsGroup?.members[0].processId, 'process-1');
    assert.deepEqual(detail.offsets.map((r) => [r.topic, r.partition, r.committedOffset, r.ownerMemberId]), [['clicks', 0, null, 'thread-1'], ['clicks', 1, 0, 'thread-1']]);
    assert.equal(listSimGroups(simulation).find((g) => g.groupId === 'counter')?.groupType, 'streams');
    simulation.dispose();
  });
});

describe('simulator groupDetailMapper: share groups', () => {
  it('shows a share group as a real broker\'s: type, epoch, members with their partitions, no owner per partition', () => {
    const simulation = new Simulation({ seed: 3 });
    simulation.createTopic('jobs', 2);
    const context = { apiVersion: 1, clientId: 'consumer-workers-1', clientHost: '/127.0.0.1' };
    let epoch = 0;
    const heartbeat = (memberEpoch: number) => {
      simulation.coordinator.shareGroupHeartbeat(context, { groupId: 'workers', memberId: 'w1', memberEpoch, rackId: null, subscribedTopicNames: memberEpoch === 0 ? ['jobs'] : null }, (r) => {
        epoch = r.memberEpoch;
      });
      simulation.runUntil(simulation.now + 10);
    };
    heartbeat(0);
    heartbeat(epoch);
    const detail = describeSimGroup(simulation, 'workers');
    assert.deepEqual([detail.groupType, detail.protocolType, detail.state, detail.assignor, detail.generation], ['share', 'share', 'Stable', 'simple', 2]);
    assert.deepEqual(detail.members.map((m) => [m.memberId, m.memberEpoch, m.subscription, m.assignment.map((tp) => `${tp.topic}-${tp.partition}`)]), [['w1', 2, ['jobs'], ['jobs-0', 'jobs-1']]]);
    assert.deepEqual([detail.shareGroup?.groupEpoch, detail.shareGroup?.assignmentEpoch, detail.shareGroup?.assignorName], [2, 2, 'simple']);
    // One row per initialized share partition, as DescribeShareGroupOffsets lists them; none fetched yet, so no
    // start offset and no lag (the CLI's "-"), and no single owner: many members may consume a share partition.
    assert.deepEqual(detail.offsets.map((r) => [r.topic, r.partition, r.committedOffset, r.lag, r.ownerMemberId]), [['jobs', 0, null, null, null], ['jobs', 1, null, null, null]]);
    assert.deepEqual(detail.shareGroup?.partitions.map((p) => [p.partition, p.startOffset, p.lag]), [[0, null, null], [1, null, null]]);
    assert.deepEqual([detail.shareGroup?.configs.autoOffsetReset, detail.shareGroup?.configs.recordLockDurationMs, detail.shareGroup?.configs.deliveryCountLimit], ['latest', 30000, 5]);
    assert.equal(listSimGroups(simulation).find((g) => g.groupId === 'workers')?.groupType, 'share');
    simulation.dispose();
  });
});
