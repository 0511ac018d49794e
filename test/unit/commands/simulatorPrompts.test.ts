import { strict as assert } from 'assert';
import {
  ASSIGNOR_CHOICES,
  CONSUMER_DEFAULTS,
  promptConsumerSpec,
  promptNewGroup,
  promptPauseMs,
  promptProducer,
  promptTopic,
} from '../../../src/commands/simulatorPrompts';
import { FakeControl } from '../views/fakeSource';
import { ScriptedPrompts } from './scriptedPrompts';

function controlWithTopics(): FakeControl {
  const control = new FakeControl();
  control.createTopic('payments', 3);
  control.createTopic('orders', 6);
  return control;
}

describe('commands/simulatorPrompts', () => {
  describe('promptNewGroup', () => {
    it('asks group id, topics, assignor and count, and plans that many consumers', async () => {
      const prompts = new ScriptedPrompts([
        { input: 'billing' },
        { pickMany: ['orders', 'payments'] },
        { pick: 'cooperative-sticky' },
        { input: '2' },
      ]);
      const plan = await promptNewGroup(prompts, controlWithTopics(), new Set(['existing']));
      assert.deepEqual(plan, {
        groupId: 'billing',
        specs: [
          { groupId: 'billing', topics: ['orders', 'payments'], assignors: ['cooperative-sticky'] },
          { groupId: 'billing', topics: ['orders', 'payments'], assignors: ['cooperative-sticky'] },
        ],
      });
      assert.deepEqual(prompts.asked[1].labels, ['orders', 'payments'], 'topics come from the simulator, sorted');
    });

    it('validates the group id against existing groups', async () => {
      const prompts = new ScriptedPrompts([{ input: 'existing' }]);
      await assert.rejects(promptNewGroup(prompts, controlWithTopics(), new Set(['existing'])), /already exists/);
    });

    it('returns undefined when a step is cancelled, and re-asks on an empty topic choice', async () => {
      const prompts = new ScriptedPrompts([{ input: 'billing' }, { pickMany: [] }, { cancel: true }]);
      assert.equal(await promptNewGroup(prompts, controlWithTopics(), new Set()), undefined);
      assert.equal(prompts.asked.filter((q) => q.kind === 'pickMany').length, 2);
    });

    it('fails clearly when the simulator has no topics', async () => {
      const prompts = new ScriptedPrompts([{ input: 'billing' }]);
      await assert.rejects(promptNewGroup(prompts, new FakeControl(), new Set()), /no topics yet; run "Create Topic…"/);
    });
  });

  describe('promptConsumerSpec', () => {
    it('builds a static consumer with the typed timeouts, preselecting the group\'s topics', async () => {
      const control = controlWithTopics();
      const prompts = new ScriptedPrompts([
        { pickMany: ['orders'] },
        { pick: 'range, cooperative-sticky' },
        { pick: 'Static member' },
        { input: 'node-a' },
        { input: '10000' },
        { input: '60000' },
        { input: '250' },
      ]);
      const spec = await promptConsumerSpec(prompts, control, 'billing', new Set(['orders']));
      assert.deepEqual(spec, {
        groupId: 'billing',
        topics: ['orders'],
        assignors: ['range', 'cooperative-sticky'],
        groupInstanceId: 'node-a',
        sessionTimeoutMs: 10000,
        maxPollIntervalMs: 60000,
        processingTimeMs: 250,
      });
      assert.deepEqual(prompts.asked[0].preselected, ['orders']);
      assert.deepEqual(
        prompts.asked.slice(4).map((q) => q.prefilled),
        [String(CONSUMER_DEFAULTS.sessionTimeoutMs), String(CONSUMER_DEFAULTS.maxPollIntervalMs), String(CONSUMER_DEFAULTS.processingTimeMs)],
      );
    });

    it('skips the instance id for a dynamic member', async () => {
      const prompts = new ScriptedPrompts([
        { pickMany: ['payments'] },
        { pick: 'roundrobin' },
        { pick: 'Dynamic member' },
        { input: '45000' },
        { input: '300000' },
        { input: '100' },
      ]);
      const spec = await promptConsumerSpec(prompts, controlWithTopics(), 'billing', new Set());
      assert.equal(spec?.groupInstanceId, null);
      assert.deepEqual(spec?.assignors, ['roundrobin']);
    });

    it('refuses a group.instance.id another consumer of the group already uses, and a bad session timeout', async () => {
      const control = controlWithTopics();
      control.addConsumer({ groupId: 'billing', topics: ['orders'], groupInstanceId: 'node-a' });
      const staticAnswers = [{ pickMany: ['orders'] }, { pick: 'range' }, { pick: 'Static member' }];
      await assert.rejects(
        promptConsumerSpec(new ScriptedPrompts([...staticAnswers, { input: 'node-a' }]), control, 'billing', new Set()),
        /already uses group.instance.id "node-a"/,
      );
      await assert.rejects(
        promptConsumerSpec(new ScriptedPrompts([...staticAnswers, { input: 'node b' }]), control, 'billing', new Set()),
        /may contain only/,
      );
      await assert.rejects(
        promptConsumerSpec(new ScriptedPrompts([...staticAnswers, { input: 'node-b' }, { input: '100' }]), control, 'billing', new Set()),
        /session.timeout.ms must be between 6000 and 1800000 ms/,
      );
    });
  });

  it('offers the assignor orders Kafka users configure, the default first', () => {
    assert.deepEqual(ASSIGNOR_CHOICES[0].value, ['range', 'cooperative-sticky']);
    assert.deepEqual(
      ASSIGNOR_CHOICES.map((c) => c.value.join(',')),
      ['range,cooperative-sticky', 'range', 'roundrobin', 'sticky', 'cooperative-sticky', 'cooperative-sticky,range'],
    );
  });

  describe('promptProducer', () => {
    it('asks topic, rate and duration; 0 s means until stopped', async () => {
      const timed = await promptProducer(new ScriptedPrompts([{ pick: 'orders' }, { input: '2.5' }, { input: '30' }]), controlWithTopics());
      assert.deepEqual(timed, { topic: 'orders', recordsPerSecond: 2.5, durationMs: 30000 });
      const endless = await promptProducer(new ScriptedPrompts([{ pick: 'orders' }, { input: '100' }, { input: '0' }]), controlWithTopics());
      assert.deepEqual(endless, { topic: 'orders', recordsPerSecond: 100 });
    });

    it('rejects a rate of zero', async () => {
      await assert.rejects(
        promptProducer(new ScriptedPrompts([{ pick: 'orders' }, { input: '0' }]), controlWithTopics()),
        /Rate must be between 0.001 and 100000/,
      );
    });
  });

  describe('promptTopic', () => {
    it('asks a valid new name and a partition count', async () => {
      const topic = await promptTopic(new ScriptedPrompts([{ input: 'invoices' }, { input: '12' }]), controlWithTopics());
      assert.deepEqual(topic, { name: 'invoices', partitions: 12 });
    });

    it('refuses an existing topic', async () => {
      await assert.rejects(promptTopic(new ScriptedPrompts([{ input: 'orders' }]), controlWithTopics()), /Topic "orders" already exists/);
    });
  });

  describe('promptPauseMs', () => {
    it('converts seconds to milliseconds and validates', async () => {
      assert.equal(await promptPauseMs(new ScriptedPrompts([{ input: '1.5' }]), 'c1'), 1500);
      assert.equal(await promptPauseMs(new ScriptedPrompts([{ cancel: true }]), 'c1'), undefined);
      await assert.rejects(promptPauseMs(new ScriptedPrompts([{ input: '0' }]), 'c1'), /Pause must be between/);
    });
  });
});
