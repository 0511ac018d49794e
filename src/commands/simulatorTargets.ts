/**
 * Finds what a simulator command acts on from the tree node it was invoked on: the simulator behind the
 * node's cluster, and for member rows the simulated consumer's handle. Members are matched through
 * `listConsumers(groupId)` at the moment the command runs, so a row that went stale gives a clear error.
 */
import type { SimulatedConsumerInfo, SimulatorControl } from '../simulator/common/control';
import type { SourceRegistry } from '../sources/sourceRegistry';
import type { TreeNode } from '../views/treeNodes';

export interface SimulatorTarget {
  sourceId: string;
  label: string;
  control: SimulatorControl;
}

export interface ConsumerTarget extends SimulatorTarget {
  consumer: SimulatedConsumerInfo;
  /** How the consumer is named in messages: client id and, for a static member, its instance id. */
  consumerLabel: string;
}

function sourceIdOf(node: TreeNode): string | undefined {
  return 'sourceId' in node ? node.sourceId : undefined;
}

/**
 * The simulator of the node's cluster; with no node (command palette), the only running simulator.
 */
export function simulatorForNode(registry: SourceRegistry, node: TreeNode | undefined): SimulatorTarget {
  if (node === undefined) {
    const simulators = registry.list().filter((e) => e.control !== undefined);
    if (simulators.length === 0) {
      throw new Error('The simulator is not running; enable the "kafkaGroupLens.simulator.enabled" setting');
    }
    if (simulators.length > 1) {
      throw new Error('Several simulators are running; run this command from a cluster in the Consumer Groups view');
    }
    const [only] = simulators;
    return { sourceId: only.source.id, label: only.source.label, control: only.control as SimulatorControl };
  }
  const sourceId = sourceIdOf(node);
  if (sourceId === undefined) {
    throw new Error('This command needs a cluster, group or member of the simulator');
  }
  const entry = registry.require(sourceId);
  if (!entry.control) {
    throw new Error(`"${entry.source.label}" is a real Kafka cluster; this command works only on the simulator`);
  }
  return { sourceId, label: entry.source.label, control: entry.control };
}

export function describeConsumer(consumer: SimulatedConsumerInfo): string {
  const name = consumer.clientId || consumer.handle;
  return consumer.groupInstanceId == null ? name : `${name} (static: ${consumer.groupInstanceId})`;
}

/** The simulated consumer behind a member row or a stopped-consumer row. */
export function consumerForNode(registry: SourceRegistry, node: TreeNode | undefined): ConsumerTarget {
  if (node === undefined || (node.kind !== 'member' && node.kind !== 'consumer')) {
    throw new Error('This command needs a member of a simulated consumer group; run it from the Consumer Groups view');
  }
  const target = simulatorForNode(registry, node);
  let consumer: SimulatedConsumerInfo | undefined;
  if (node.kind === 'member') {
    consumer = target.control.listConsumers(node.groupId).find((c) => c.memberId === node.member.memberId);
    if (!consumer) {
      throw new Error(
        `Member ${node.member.memberId} of group "${node.groupId}" is no longer held by a simulated consumer; refresh the view`,
      );
    }
  } else {
    const handle = node.consumer.handle;
    consumer = target.control.listConsumers(node.consumer.groupId).find((c) => c.handle === handle);
    if (!consumer) {
      throw new Error(`The simulator no longer knows consumer ${describeConsumer(node.consumer)}; refresh the view`);
    }
  }
  return { ...target, consumer, consumerLabel: describeConsumer(consumer) };
}
