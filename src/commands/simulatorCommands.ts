/**
 * The simulator commands of the tree's context menus. Each asks its questions (simulatorPrompts), calls
 * the simulator's control, logs what it did, and reloads the cluster so the effect shows at once.
 */
import * as vscode from 'vscode';
import type { ProducerSpec, SimulatorControl } from '../simulator/common/control';
import type { GroupsView } from '../views/groupsView';
import type { SourceRegistry } from '../sources/sourceRegistry';
import type { TreeNode } from '../views/treeNodes';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';
import { promptConsumerSpec, promptNewGroup, promptPauseMs, promptProducer, promptTopic, type Prompts } from './simulatorPrompts';
import { consumerForNode, simulatorForNode, type SimulatorTarget } from './simulatorTargets';
import { vscodePrompts } from './vscodePrompts';

export interface SimulatorCommandDeps {
  registry: SourceRegistry;
  view: Pick<GroupsView, 'refreshSource'>;
  log: vscode.LogOutputChannel;
  prompts?: Prompts;
}

interface StartedProducer {
  handle: string;
  spec: ProducerSpec;
}

function describeProducer(spec: ProducerSpec): string {
  const duration = spec.durationMs === undefined ? 'until stopped' : `for ${spec.durationMs / 1000} s`;
  return `${spec.recordsPerSecond} records/s to ${spec.topic} ${duration}`;
}

export function registerSimulatorCommands({ registry, view, log, prompts = vscodePrompts }: SimulatorCommandDeps): vscode.Disposable[] {
  // Producers this window started, per simulator instance, so "Stop Producer…" can offer them.
  const producers = new WeakMap<SimulatorControl, StartedProducer[]>();

  const done = async (target: SimulatorTarget, message: string): Promise<void> => {
    log.info(`[${target.label}] ${message}`);
    vscode.window.setStatusBarMessage(message, 4000);
    await view.refreshSource(target.sourceId);
  };

  const register = (id: string, title: string, handler: (node?: TreeNode) => Promise<void>): vscode.Disposable =>
    registerReportingCommand(id, title, log, handler);

  return [
    register(COMMANDS.addConsumerGroup, 'Add Consumer Group', async (node) => {
      const target = simulatorForNode(registry, node);
      const existing = new Set((await registry.require(target.sourceId).source.listGroups()).map((g) => g.groupId));
      const plan = await promptNewGroup(prompts, target.control, existing);
      if (!plan) {
        return;
      }
      for (const spec of plan.specs) {
        target.control.addConsumer(spec);
      }
      await done(target, `Started ${plan.specs.length} consumer(s) in new group "${plan.groupId}"`);
    }),

    register(COMMANDS.addConsumer, 'Add Consumer', async (node) => {
      if (node?.kind !== 'group') {
        throw new Error('Run "Add Consumer…" on a consumer group of the simulator');
      }
      const target = simulatorForNode(registry, node);
      const groupId = node.summary.groupId;
      const detail = await registry.require(target.sourceId).source.describeGroup(groupId);
      const groupTopics = new Set(detail.members.flatMap((m) => m.subscription));
      const spec = await promptConsumerSpec(prompts, target.control, groupId, groupTopics, detail.groupType);
      if (!spec) {
        return;
      }
      const info = target.control.addConsumer(spec);
      await done(target, `Started consumer ${info.clientId} in group "${groupId}"`);
    }),

    register(COMMANDS.produceRecords, 'Produce Records', async (node) => {
      const target = simulatorForNode(registry, node);
      const spec = await promptProducer(prompts, target.control);
      if (!spec) {
        return;
      }
      const handle = target.control.startProducer(spec);
      producers.set(target.control, [...(producers.get(target.control) ?? []), { handle, spec }]);
      await done(target, `Producing ${describeProducer(spec)}`);
    }),

    register(COMMANDS.stopProducer, 'Stop Producer', async (node) => {
      const target = simulatorForNode(registry, node);
      const started = producers.get(target.control) ?? [];
      if (!started.length) {
        throw new Error('No producer was started from this window; use "Produce Records…" first');
      }
      const choice = await prompts.pickOne(
        started.map((p) => ({ label: describeProducer(p.spec), description: p.handle, value: p })),
        { title: 'Stop Producer', placeholder: 'Producer to stop (timed ones may have finished already)' },
      );
      if (!choice) {
        return;
      }
      producers.set(target.control, started.filter((p) => p !== choice));
      target.control.stopProducer(choice.handle);
      await done(target, `Stopped producer ${choice.handle} (${describeProducer(choice.spec)})`);
    }),

    register(COMMANDS.createTopic, 'Create Topic', async (node) => {
      const target = simulatorForNode(registry, node);
      const topic = await promptTopic(prompts, target.control);
      if (!topic) {
        return;
      }
      target.control.createTopic(topic.name, topic.partitions);
      await done(target, `Created topic ${topic.name} with ${topic.partitions} partition(s)`);
    }),

    register(COMMANDS.stopConsumer, 'Stop Consumer', async (node) => {
      const target = consumerForNode(registry, node);
      target.control.stopConsumer(target.consumer.handle);
      const how = target.consumer.groupInstanceId == null ? 'sent LeaveGroup' : 'static member: no LeaveGroup, kept until session timeout';
      await done(target, `Stopped ${target.consumerLabel} (${how})`);
    }),

    register(COMMANDS.crashConsumer, 'Crash Consumer', async (node) => {
      const target = consumerForNode(registry, node);
      target.control.crashConsumer(target.consumer.handle);
      await done(target, `Crashed ${target.consumerLabel}: heartbeats stopped, no LeaveGroup`);
    }),

    register(COMMANDS.pausePolling, 'Pause Polling', async (node) => {
      const target = consumerForNode(registry, node);
      const durationMs = await promptPauseMs(prompts, target.consumerLabel);
      if (durationMs === undefined) {
        return;
      }
      target.control.pausePolling(target.consumer.handle, durationMs);
      await done(target, `Paused polling of ${target.consumerLabel} for ${durationMs / 1000} s`);
    }),

    register(COMMANDS.restartConsumer, 'Restart Consumer', async (node) => {
      const target = consumerForNode(registry, node);
      const { handle, status } = target.consumer;
      // A running consumer is bounced (closed, then started with the same config): the classic rolling
      // restart, which a static member survives without a rebalance.
      if (status === 'running' || status === 'paused') {
        target.control.stopConsumer(handle);
      }
      target.control.restartConsumer(handle);
      await done(target, `Restarted ${target.consumerLabel}`);
    }),
  ];
}
