import { strict as assert } from 'node:assert';
import { errorCodeOf } from '../../../../../src/protocol/errorCodes';
import type { ConsumerGroupDescribeResponseData } from '../../../../../src/protocol/messages/consumerGroupDescribeResponse';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import type { ConsumerGroupMigrationPolicy } from '../../../../../src/simulator/coordinator/group/modern/consumer';
import type { JoinGroupRequest, JoinGroupResponse, Respond } from '../../../../../src/simulator/common/requests';
import { describeSimGroup } from '../../../../../src/simulator/admin/groupDetailMapper';
import { Simulation } from '../../../../../src/simulator/simulation';
import { heartbeatRequest } from './modern/consumer/engineSupport';

const CONTEXT = { apiVersion: 1, clientId: 'java-consumer', clientHost: '/127.0.0.1' };
const GROUP = 'migrating';
const TOPIC = 'orders';
const PARTITIONS = 4;

type Described = ConsumerGroupDescribeResponseData['groups'][number];

/** A member of the consumer protocol driven by hand: it heartbeats with what it owns, as the Java client does. */
class ConsumerProtocolMember {
  memberId = 'member-c';
  epoch = 0;
  owned: ConsumerGroupHeartbeatRequestData['topicPartitions'] = [];

  constructor(private readonly sim: Simulation, private readonly instanceId: string | null = null) {}

  heartbeat(memberEpoch = this.epoch): ConsumerGroupHeartbeatResponseData {
    let answer: ConsumerGroupHeartbeatResponseData | undefined;
    const full = memberEpoch === 0;
    const request = heartbeatRequest({
      groupId: GROUP, memberId: this.memberId, memberEpoch, instanceId: this.instanceId,
      ...(full ? { rebalanceTimeoutMs: 30000, subscribedTopicNames: [TOPIC] } : {}), topicPartitions: this.owned,
    });
    this.sim.coordinator.consumerGroupHeartbeat(CONTEXT, request, (response) => {
      answer = response;
    });
    this.sim.advance(0);
    assert.ok(answer !== undefined, 'no heartbeat response');
    if (answer.errorCode === 0 && memberEpoch >= 0) {
      this.epoch = answer.memberEpoch;
      if (answer.assignment !== null) {
        this.owned = answer.assignment.topicPartitions;
      }
    }
    return answer;
  }

  /** Heartbeats every second for `ms` while the rest of the simulation runs. */
  run(ms: number): void {
    for (let elapsed = 0; elapsed < ms; elapsed += 1000) {
      this.sim.advance(1000);
      assert.equal(this.heartbeat().errorCode, 0);
    }
  }
}

/** The group's type as ListGroups gives it. */
function groupType(sim: Simulation): string | undefined {
  let type: string | undefined;
  sim.coordinator.listGroups({}, (response) => {
    type = response.groups.find((group) => group.groupId === GROUP)?.groupType;
  });
  sim.advance(0);
  return type;
}

function describe848(sim: Simulation): Described {
  return sim.coordinator.consumerGroupDescribeNow(GROUP);
}

/** Every partition of the topic is owned by exactly one member of the described group. */
function assertEachPartitionOwnedOnce(group: Described): void {
  const owners = new Map<number, string>();
  for (const member of group.members) {
    for (const partition of member.assignment.topicPartitions.flatMap((t) => t.partitions)) {
      assert.equal(owners.get(partition), undefined, `partition ${partition} owned by ${owners.get(partition)} and ${member.memberId}`);
      owners.set(partition, member.memberId);
    }
  }
  assert.equal(owners.size, PARTITIONS, `owned: ${[...owners.keys()].join(',')}`);
}

/** Advances the virtual clock until `done` holds, in bounded steps. */
function waitFor(sim: Simulation, done: () => boolean, what: string, step: () => void = () => sim.advance(1000)): void {
  for (let i = 0; i < 300 && !done(); i++) {
    step();
  }
  assert.ok(done(), `timed out waiting for ${what}`);
}

function newSimulation(policy?: ConsumerGroupMigrationPolicy): Simulation {
  const sim = new Simulation(policy === undefined ? {} : { coordinator: { consumerGroupMigrationPolicy: policy } });
  sim.createTopic(TOPIC, PARTITIONS);
  return sim;
}

/** Two simulated classic consumers (range first), Stable. */
function classicGroup(sim: Simulation): void {
  sim.addConsumer({ groupId: GROUP, topics: [TOPIC], assignors: ['range'] }, 'classic-1');
  sim.addConsumer({ groupId: GROUP, topics: [TOPIC], assignors: ['range'] }, 'classic-2');
  waitFor(sim, () => sim.coordinator.group(GROUP)?.state === 'Stable', 'a Stable classic group');
}

function classicJoin(sim: Simulation, request: Partial<JoinGroupRequest>): JoinGroupResponse {
  let answer: JoinGroupResponse | undefined;
  const respond: Respond<JoinGroupResponse> = (response) => {
    answer = response;
  };
  sim.coordinator.joinGroup({
    groupId: GROUP, memberId: '', groupInstanceId: null, protocolType: 'consumer', sessionTimeoutMs: 10000, rebalanceTimeoutMs: 30000,
    clientId: 'classic', clientHost: '/127.0.0.1', apiVersion: 9,
    protocols: [{ name: 'range', metadata: { topics: [TOPIC], ownedPartitions: [], generationId: -1 } }], ...request,
  }, respond);
  sim.advance(0);
  assert.ok(answer !== undefined, 'no JoinGroup response');
  return answer;
}

describe('online migration between classic and consumer groups (group.consumer.migration.policy)', () => {
  let sim: Simulation;

  afterEach(() => sim.dispose());

  it('upgrades a classic group when a member of the consumer protocol joins, and serves the classic members inside it', () => {
    sim = newSimulation();
    classicGroup(sim);
    const member = new ConsumerProtocolMember(sim);
    const joined = member.heartbeat(0);
    assert.equal(joined.errorCode, 0, joined.errorMessage ?? '');
    assert.equal(groupType(sim), 'consumer');
    const converted = describe848(sim);
    assert.deepEqual(converted.members.map((m) => m.memberType).sort(), [0, 0, 1]);
    // The tree's mapping (the one KafkaSource uses) shows the migration under way and each member's type.
    const detail = describeSimGroup(sim, GROUP);
    assert.equal(detail.groupType, 'consumer');
    assert.deepEqual(detail.consumerGroup?.migration, { classicMembers: 2, consumerMembers: 1 });
    assert.deepEqual(detail.consumerGroup?.members.map((m) => m.memberType).sort(), ['classic', 'classic', 'consumer']);
    // The classic members rejoin (REBALANCE_IN_PROGRESS on heartbeat) until the three share the partitions.
    waitFor(sim, () => {
      const group = describe848(sim);
      return group.groupState === 'Stable' && group.members.every((m) => m.assignment.topicPartitions.flatMap((t) => t.partitions).length > 0);
    }, 'a Stable consumer group with every member assigned', () => member.run(1000));
    const stable = describe848(sim);
    assertEachPartitionOwnedOnce(stable);
    assert.equal(stable.members.length, 3);
    const memberIds = stable.members.map((m) => m.memberId);
    assert.ok(sim.listConsumers(GROUP).every((consumer) => consumer.status === 'running' && memberIds.includes(consumer.memberId ?? '')),
      'a classic consumer is not running under its member id');
  });

  it('downgrades to a classic group when the last member of the consumer protocol leaves', () => {
    sim = newSimulation();
    classicGroup(sim);
    const member = new ConsumerProtocolMember(sim);
    member.heartbeat(0);
    waitFor(sim, () => describe848(sim).groupState === 'Stable', 'a Stable consumer group', () => member.run(1000));
    const left = member.heartbeat(-1);
    assert.equal(left.errorCode, 0);
    assert.equal(groupType(sim), 'classic');
    assert.equal(sim.coordinator.group(GROUP)?.state, 'PreparingRebalance');
    waitFor(sim, () => sim.coordinator.group(GROUP)?.state === 'Stable', 'the classic group to rebalance');
    const classic = sim.coordinator.describeGroupNow(GROUP);
    const owned = classic.members.flatMap((m) => m.assignment.partitions.map((tp) => tp.partition)).sort();
    assert.deepEqual(owned, [0, 1, 2, 3]);
    assert.equal(describe848(sim).errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
    assert.equal(describeSimGroup(sim, GROUP).consumerGroup, undefined);
  });

  for (const policy of ['disabled', 'downgrade'] as const) {
    it(`refuses the upgrade under policy ${policy}: GROUP_ID_NOT_FOUND, the classic group stays`, () => {
      sim = newSimulation(policy);
      classicGroup(sim);
      const refused = new ConsumerProtocolMember(sim).heartbeat(0);
      assert.equal(refused.errorCode, errorCodeOf('GROUP_ID_NOT_FOUND'));
      assert.equal(refused.errorMessage, `Group ${GROUP} is not a consumer group.`);
      assert.equal(groupType(sim), 'classic');
      assert.equal(sim.coordinator.group(GROUP)?.state, 'Stable');
    });
  }

  for (const policy of ['disabled', 'upgrade'] as const) {
    it(`keeps the consumer group under policy ${policy} when only classic members remain`, () => {
      sim = newSimulation(policy);
      const member = new ConsumerProtocolMember(sim);
      member.heartbeat(0);
      const first = classicJoin(sim, {});
      assert.equal(first.errorCode, 'MEMBER_ID_REQUIRED');
      const joined = classicJoin(sim, { memberId: first.memberId });
      assert.equal(joined.errorCode, 'NONE');
      assert.equal(joined.leader, '');
      assert.equal(member.heartbeat(-1).errorCode, 0);
      assert.equal(groupType(sim), 'consumer');
      assert.deepEqual(describe848(sim).members.map((m) => [m.memberId, m.memberType]), [[first.memberId, 0]]);
    });
  }

  for (const policy of ['bidirectional', 'upgrade'] as const) {
    it(`${policy === 'bidirectional' ? 'downgrades' : 'does not downgrade (policy upgrade)'} when a classic static member replaces the last static member of the consumer protocol`, () => {
      sim = newSimulation(policy);
      const member = new ConsumerProtocolMember(sim, 'instance-1');
      member.heartbeat(0);
      const other = classicJoin(sim, { memberId: 'classic-a', apiVersion: 3 });
      assert.equal(other.errorCode, 'NONE');
      const owned = describe848(sim).members.find((m) => m.memberId === member.memberId)?.targetAssignment.topicPartitions.flatMap((t) => t.partitions);
      assert.ok(owned !== undefined && owned.length > 0, 'the static member has a target assignment');
      const replacing = classicJoin(sim, { groupInstanceId: 'instance-1' });
      assert.equal(replacing.errorCode, 'NONE');
      assert.notEqual(replacing.memberId, member.memberId);
      if (policy === 'upgrade') {
        assert.equal(groupType(sim), 'consumer');
        assert.deepEqual(describe848(sim).members.map((m) => m.memberType), [0, 0]);
        return;
      }
      assert.equal(groupType(sim), 'classic');
      const classic = sim.coordinator.group(GROUP);
      assert.equal(classic?.state, 'Stable', 'a replacement does not rebalance');
      assert.deepEqual(classic?.members.get(replacing.memberId)?.assignment.partitions.map((tp) => tp.partition), owned);
      assert.equal(classic?.staticMembers.get('instance-1'), replacing.memberId);
    });
  }

  it('answers a classic member inside a consumer group with Kafka\'s errors', () => {
    sim = newSimulation();
    const member = new ConsumerProtocolMember(sim);
    member.heartbeat(0);
    const joined = classicJoin(sim, { memberId: 'classic-a', apiVersion: 3 });
    assert.equal(joined.errorCode, 'NONE');
    assert.equal(joined.protocolName, 'range');
    const unsupported = classicJoin(sim, { protocols: [{ name: 'roundrobin', metadata: { topics: [TOPIC], ownedPartitions: [], generationId: -1 } }] });
    assert.equal(unsupported.errorCode, 'INCONSISTENT_GROUP_PROTOCOL');
    const coordinator = sim.coordinator;
    let heartbeat: string | undefined;
    coordinator.heartbeat({ groupId: GROUP, memberId: 'classic-a', groupInstanceId: null, generationId: joined.generationId + 5 }, (r) => {
      heartbeat = r.errorCode;
    });
    sim.advance(0);
    assert.equal(heartbeat, 'ILLEGAL_GENERATION');
    coordinator.heartbeat({ groupId: GROUP, memberId: member.memberId, groupInstanceId: null, generationId: member.epoch }, (r) => {
      heartbeat = r.errorCode;
    });
    sim.advance(0);
    assert.equal(heartbeat, 'UNKNOWN_MEMBER_ID', 'a member of the consumer protocol may not send a classic heartbeat');
    let sync: string | undefined;
    coordinator.syncGroup({
      groupId: GROUP, memberId: 'nobody', groupInstanceId: null, generationId: 1, protocolType: 'consumer', protocolName: 'range', assignments: [],
    }, (r) => {
      sync = r.errorCode;
    });
    sim.advance(0);
    assert.equal(sync, 'UNKNOWN_MEMBER_ID');
    const commit = (generationId: number): string | undefined => {
      let answer: string | undefined;
      coordinator.offsetCommit({
        groupId: GROUP, generationId, memberId: 'classic-a', groupInstanceId: null, topics: [{ name: TOPIC, partitions: [{ partition: 0, offset: 1 }] }],
      }, (r) => {
        answer = r.topics[0].partitions[0].errorCode;
      });
      sim.advance(0);
      return answer;
    };
    assert.equal(commit(joined.generationId + 5), 'ILLEGAL_GENERATION', 'a classic member commits with its generation and hears of it so');
    assert.equal(commit(joined.generationId), 'NONE');
  });
});
