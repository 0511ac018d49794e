import { strict as assert } from 'assert';
import { consumerForNode, describeConsumer, simulatorForNode } from '../../../src/commands/simulatorTargets';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { nodeIds, type ClusterNode, type ConsumerNode, type MemberNode } from '../../../src/views/treeNodes';
import { FakeControl, FakeSource, member } from '../views/fakeSource';

function memberNode(sourceId: string, memberId: string): MemberNode {
  return {
    kind: 'member',
    id: nodeIds.member(sourceId, 'orders', memberId),
    sourceId,
    sourceKind: 'simulator',
    groupId: 'orders',
    member: member(memberId),
    partitions: [],
  };
}

describe('commands/simulatorTargets', () => {
  let registry: SourceRegistry;
  let control: FakeControl;

  beforeEach(() => {
    registry = new SourceRegistry();
    control = new FakeControl();
    registry.add({ source: new FakeSource('sim', 'Demo'), control });
    registry.add({ source: new FakeSource('prod', 'Production', 'kafka') });
  });

  it('finds the simulator of a node\'s cluster, or the only simulator from the palette', () => {
    const cluster: ClusterNode = { kind: 'cluster', id: nodeIds.cluster('sim'), sourceId: 'sim', sourceKind: 'simulator', label: 'Demo', state: { status: 'idle' } };
    assert.equal(simulatorForNode(registry, cluster).control, control);
    assert.equal(simulatorForNode(registry, undefined).sourceId, 'sim');
  });

  it('refuses real clusters, rows without a source, and a palette call with zero or several simulators', async () => {
    const prodCluster: ClusterNode = { kind: 'cluster', id: nodeIds.cluster('prod'), sourceId: 'prod', sourceKind: 'kafka', label: 'Production', state: { status: 'idle' } };
    assert.throws(() => simulatorForNode(registry, prodCluster), /"Production" is a real Kafka cluster/);
    assert.throws(() => simulatorForNode(registry, { kind: 'message', id: 'm', severity: 'info', text: 'x' }), /needs a cluster, group or member/);
    registry.add({ source: new FakeSource('sim2', 'Second'), control: new FakeControl() });
    assert.throws(() => simulatorForNode(registry, undefined), /Several simulators are running/);
    await registry.remove('sim');
    await registry.remove('sim2');
    assert.throws(() => simulatorForNode(registry, undefined), /simulator is not running/);
  });

  it('maps a member row to its consumer handle through listConsumers at call time', () => {
    const info = control.addConsumer({ groupId: 'orders', topics: ['orders'], groupInstanceId: 'inst-1', clientId: 'app' });
    info.memberId = 'app-1234';
    const target = consumerForNode(registry, memberNode('sim', 'app-1234'));
    assert.equal(target.consumer.handle, info.handle);
    assert.equal(target.consumerLabel, 'app (static: inst-1)');
  });

  it('explains a member that no simulated consumer holds any more', () => {
    assert.throws(() => consumerForNode(registry, memberNode('sim', 'left-long-ago')), /no longer held by a simulated consumer; refresh the view/);
  });

  it('resolves stopped-consumer rows by handle and rejects other rows', () => {
    const info = control.addConsumer({ groupId: 'orders', topics: ['orders'] });
    info.status = 'stopped';
    const node: ConsumerNode = { kind: 'consumer', id: 'x', sourceId: 'sim', consumer: { ...info } };
    assert.equal(consumerForNode(registry, node).consumer.status, 'stopped');
    assert.throws(() => consumerForNode(registry, undefined), /needs a member of a simulated consumer group/);
    control.consumers.length = 0;
    assert.throws(() => consumerForNode(registry, node), /no longer knows consumer/);
  });

  it('names consumers by client id, with the instance id for static ones', () => {
    assert.equal(describeConsumer({ handle: 'h', groupId: 'g', clientId: '', groupInstanceId: null, memberId: null, status: 'running' }), 'h');
  });
});
