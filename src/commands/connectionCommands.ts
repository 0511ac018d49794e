/**
 * Add, edit, remove and test real cluster connections. Settings hold the non-secret fields; the
 * secrets go to SecretStorage through ConnectionStore.
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { ConnectionConfig } from '../kafka/connection';
import { KafkaSource } from '../kafka/kafkaSource';
import type { ConnectionStore } from '../sources/connectionStore';
import type { TreeNode } from '../views/treeNodes';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';
import { promptConnection } from './connectionFlow';
import { vscodePrompts } from './vscodePrompts';
import { errorMessage } from '../protocol/errors';

function checkReadableFile(path: string): string | undefined {
  try {
    fs.accessSync(path, fs.constants.R_OK);
    return fs.statSync(path).isFile() ? undefined : `${path} is not a file`;
  } catch {
    return `Cannot read ${path}`;
  }
}

/** The connection a command targets: the cluster node it was invoked on, else a pick. */
async function connectionFor(store: ConnectionStore, node: TreeNode | undefined, purpose: string): Promise<ConnectionConfig | undefined> {
  const { connections } = store.read();
  if (node && node.kind === 'cluster') {
    const config = connections.find((c) => c.id === node.sourceId);
    if (!config) {
      throw new Error(`"${node.label}" is not a configured Kafka connection`);
    }
    return config;
  }
  if (connections.length === 0) {
    throw new Error('No Kafka cluster is configured yet; use "Add Cluster…" first');
  }
  return vscodePrompts.pickOne(
    connections.map((c) => ({ label: c.name, description: c.bootstrapServers.join(','), value: c })),
    { title: purpose, placeholder: 'Cluster' },
  );
}

async function testConnection(config: ConnectionConfig, store: ConnectionStore, log: vscode.LogOutputChannel): Promise<void> {
  const stored = await store.secrets(config);
  if (stored.savedFor) {
    throw new Error(`The stored password or token of "${config.name}" was entered for ${stored.savedFor.join(',')}; enter it again with "Edit Cluster…"`);
  }
  const source = new KafkaSource(config, stored.secrets, { logger: log });
  try {
    const info = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Connecting to "${config.name}"…`, cancellable: true },
      (_progress, token) =>
        new Promise<Awaited<ReturnType<KafkaSource['describeCluster']>>>((resolve, reject) => {
          token.onCancellationRequested(() => reject(new Error('cancelled')));
          source.describeCluster().then(resolve, reject);
        }),
    );
    void vscode.window.showInformationMessage(`"${config.name}": connected, ${info.brokers.length} broker(s), cluster id ${info.clusterId}`);
  } catch (e) {
    if (errorMessage(e) !== 'cancelled') {
      throw e;
    }
  } finally {
    await source.dispose();
  }
}

export function registerConnectionCommands(store: ConnectionStore, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerReportingCommand(COMMANDS.addCluster, 'Add Cluster', log, async () => {
      const draft = await promptConnection(vscodePrompts, { existing: store.read().connections, checkFile: checkReadableFile });
      if (draft) {
        await store.save(draft.config, draft.secrets);
        log.info(`Saved cluster "${draft.config.name}"`);
      }
    }),
    registerReportingCommand(COMMANDS.editCluster, 'Edit Cluster', log, async (node?: TreeNode) => {
      const editing = await connectionFor(store, node, 'Edit which cluster?');
      if (!editing) {
        return;
      }
      const draft = await promptConnection(vscodePrompts, {
        existing: store.read().connections,
        editing,
        hasStoredSecrets: await store.hasSecrets(editing),
        checkFile: checkReadableFile,
      });
      if (draft) {
        await store.save(draft.config, draft.secrets);
        log.info(`Updated cluster "${draft.config.name}"`);
      }
    }),
    registerReportingCommand(COMMANDS.removeCluster, 'Remove Cluster', log, async (node?: TreeNode) => {
      const config = await connectionFor(store, node, 'Remove which cluster?');
      if (!config) {
        return;
      }
      const answer = await vscode.window.showWarningMessage(
        `Remove the connection "${config.name}" (${config.bootstrapServers.join(',')}) and its stored secrets? The cluster itself is not touched.`,
        { modal: true },
        'Remove',
      );
      if (answer === 'Remove') {
        await store.remove(config.id);
        log.info(`Removed cluster "${config.name}"`);
      }
    }),
    registerReportingCommand(COMMANDS.testCluster, 'Test Connection', log, async (node?: TreeNode) => {
      const config = await connectionFor(store, node, 'Test which cluster?');
      if (config) {
        await testConnection(config, store, log);
      }
    }),
  ];
}
