/**
 * "Expose Simulator on a Port…": serves the live simulation over the Kafka protocol on 127.0.0.1, so
 * any Kafka application can join its groups and show up in the tree and the timeline.
 */
import * as vscode from 'vscode';
import { SimKafkaServer } from '../simulator/server/kafkaServer';
import { SimSource } from '../simulator/editor/simSource';
import type { SourceRegistry } from '../sources/sourceRegistry';
import type { TreeNode } from '../views/treeNodes';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';
import type { Prompts } from './simulatorPrompts';
import type { SimulatorExposures } from './simulatorExposures';
import { simulatorForNode } from './simulatorTargets';
import { vscodePrompts } from './vscodePrompts';
import { errorMessage } from '../protocol/errors';

/** Kafka's customary first port; brokers 2 and 3 take the next ones. */
export const DEFAULT_EXPOSE_PORT = 9092;

/** "0" asks for free ports; otherwise an unprivileged port leaving room for every broker. */
export function validateBasePort(text: string, brokers: number): string | undefined {
  if (!/^\d+$/.test(text.trim())) {
    return 'Give a port number (0 picks free ports)';
  }
  const port = Number(text.trim());
  if (port !== 0 && (port < 1024 || port + brokers - 1 > 65535)) {
    return `The port must be 0 or between 1024 and ${65535 - brokers + 1} (${brokers} brokers take consecutive ports)`;
  }
  return undefined;
}

export function registerExposeCommands(
  registry: SourceRegistry,
  log: vscode.LogOutputChannel,
  /** Where each simulator is served, shared with the offset commands (their CLI line names it). */
  exposures: SimulatorExposures,
  prompts: Prompts = vscodePrompts,
): vscode.Disposable[] {
  const servers = new Map<string, SimKafkaServer>();

  const stop = async (sourceId: string): Promise<void> => {
    const server = servers.get(sourceId);
    servers.delete(sourceId);
    exposures.delete(sourceId);
    if (server) {
      await server.close();
      log.info(`Stopped serving "${sourceId}" over the Kafka protocol`);
    }
  };

  // A simulator that goes away (setting turned off, restarted) takes its server with it.
  const unsubscribe = registry.onDidChangeSources(() => {
    for (const sourceId of [...servers.keys()]) {
      if (!registry.get(sourceId)) {
        void stop(sourceId);
      }
    }
  });

  return [
    registerReportingCommand(COMMANDS.exposeSimulator, 'Expose Simulator on a Port', log, async (node?: TreeNode) => {
      const target = simulatorForNode(registry, node);
      const source = registry.require(target.sourceId).source;
      if (!(source instanceof SimSource)) {
        throw new Error(`"${target.label}" cannot be served over the Kafka protocol`);
      }
      const running = servers.get(target.sourceId);
      if (running) {
        throw new Error(`"${target.label}" is already served at ${running.bootstrapServers.join(',')}; stop it first`);
      }
      const brokers = source.simulation.cluster.brokers.length;
      const text = await prompts.input({
        title: 'Expose Simulator on a Port',
        prompt: `First port on 127.0.0.1 (${brokers} brokers take consecutive ports; 0 picks free ports)`,
        value: String(DEFAULT_EXPOSE_PORT),
        validate: (t) => validateBasePort(t, brokers),
      });
      if (text === undefined) {
        return;
      }
      const server = new SimKafkaServer(source.simulation, {
        basePort: Number(text.trim()),
        live: source.live ?? undefined,
        log: (line) => log.warn(`[Kafka protocol] ${line}`),
      });
      try {
        await server.start();
      } catch (e) {
        const reason = errorMessage(e);
        throw new Error(/EADDRINUSE/.test(reason) ? `a port from ${text.trim()} on is in use (${reason})` : reason);
      }
      servers.set(target.sourceId, server);
      exposures.set(target.sourceId, server.bootstrapServers);
      const bootstrap = server.bootstrapServers.join(',');
      log.info(`Serving "${target.label}" over the Kafka protocol at ${bootstrap}`);
      const copy = 'Copy Bootstrap Servers';
      const answer = await vscode.window.showInformationMessage(
        `"${target.label}" is served at ${bootstrap}: point any Kafka client at it and its groups appear here.`,
        copy,
      );
      if (answer === copy) {
        await vscode.env.clipboard.writeText(bootstrap);
      }
    }),
    registerReportingCommand(COMMANDS.stopExposingSimulator, 'Stop Exposing Simulator', log, async (node?: TreeNode) => {
      const target = simulatorForNode(registry, node);
      if (!servers.has(target.sourceId)) {
        throw new Error(`"${target.label}" is not being served over the Kafka protocol`);
      }
      await stop(target.sourceId);
    }),
    {
      dispose: () => {
        unsubscribe();
        for (const sourceId of [...servers.keys()]) {
          void stop(sourceId);
        }
      },
    },
  ];
}
