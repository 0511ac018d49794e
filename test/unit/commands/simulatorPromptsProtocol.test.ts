import { strict as assert } from 'assert';
import { groupProtocolChoices, promptConsumerSpec, promptNewGroup } from '../../../src/commands/simulatorPrompts';
import { Simulation } from '../../../src/simulator/simulation';
import { FakeControl } from '../views/fakeSource';
import { ScriptedPrompts } from './scriptedPrompts';

function controlWithTopics(): FakeControl {
  const control = new FakeControl();
  control.createTopic('orders', 6);
  return control;
}

describe('commands/simulatorPrompts: the group protocol', () => {
  it('offers the group\'s own protocol first: the consumer protocol for a KIP-848 group, the classic assignors otherwise', () => {
    assert.deepEqual(groupProtocolChoices('consumer').slice(0, 2).map((c) => c.label), ['consumer protocol, uniform', 'consumer protocol, range']);
    const classic = groupProtocolChoices('classic').map((c) => c.label);
    assert.equal(classic[0], 'range, cooperative-sticky');
    assert.deepEqual(classic.slice(-2), ['consumer protocol, uniform', 'consumer protocol, range']);
  });

  it('builds a consumer-protocol member for a KIP-848 group without asking session.timeout.ms, and the simulator runs it', async () => {
    const prompts = new ScriptedPrompts([
      { pickMany: ['orders'] },
      { pick: 'consumer protocol, uniform' },
      { pick: 'Dynamic member' },
      { input: '60000' },
      { input: '250' },
    ]);
    const spec = await promptConsumerSpec(prompts, controlWithTopics(), 'clicks', new Set(['orders']), 'consumer');
    assert.deepEqual(spec, {
      groupId: 'clicks', topics: ['orders'], groupProtocol: 'consumer', groupRemoteAssignor: 'uniform', groupInstanceId: null, maxPollIntervalMs: 60000, processingTimeMs: 250,
    });
    assert.deepEqual(prompts.asked.filter((q) => q.kind === 'input').map((q) => q.title), ['Add Consumer to clicks (6/7)', 'Add Consumer to clicks (7/7)']);
    const sim = new Simulation({ seed: 1 });
    sim.createTopic('orders', 6);
    assert.ok(spec);
    sim.addConsumer(spec, 'new');
    sim.runUntil(10000);
    assert.equal(sim.coordinator.consumerGroup('clicks')?.state, 'Stable');
    assert.equal(sim.consumer('new').assignment.length, 6);
  });

  it('starts a new group with the consumer protocol from "Add Consumer Group…"', async () => {
    const prompts = new ScriptedPrompts([{ input: 'clicks' }, { pickMany: ['orders'] }, { pick: 'consumer protocol, range' }, { input: '2' }]);
    const plan = await promptNewGroup(prompts, controlWithTopics(), new Set());
    assert.deepEqual(plan?.specs, [
      { groupId: 'clicks', topics: ['orders'], groupProtocol: 'consumer', groupRemoteAssignor: 'range' },
      { groupId: 'clicks', topics: ['orders'], groupProtocol: 'consumer', groupRemoteAssignor: 'range' },
    ]);
  });
});
