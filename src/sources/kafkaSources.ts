/**
 * Keeps one KafkaSource in the registry per configured connection, in step with the
 * `kafkaGroupLens.clusters` setting, the stored secrets and `kafkaGroupLens.readCommittedGroups`
 * (which groups count as read_committed: a change rebuilds every source).
 */
import * as vscode from 'vscode';
import type { ConnectionConfig } from '../kafka/connection';
import { readCommittedLookup, type IsolationLevelLookup } from '../kafka/isolationLevels';
import type { GroupAdmin } from '../model/groupAdmin';
import type { TransactionAdmin } from '../model/transactions';
import type { ClusterSource } from '../model/clusterSource';
import { createKafkaEntry, UnusableSource } from './sourceEntries';
import type { ConnectionStore } from './connectionStore';
import type { SourceRegistry } from './sourceRegistry';
import { errorMessage } from '../protocol/errors';
import { SETTINGS } from '../constants';

interface IsolationSetting {
  lookup: IsolationLevelLookup;
  /** The setting's value as read, to tell whether sources must be rebuilt. */
  fingerprint: string;
  problem?: string;
}

function readIsolationSetting(): IsolationSetting {
  const value = vscode.workspace.getConfiguration().get<unknown>(SETTINGS.readCommittedGroups, []);
  try {
    return { lookup: readCommittedLookup(value), fingerprint: JSON.stringify(value) };
  } catch (e) {
    // A bad entry must not hide the clusters: every group then counts as read_uncommitted.
    return { lookup: readCommittedLookup([]), fingerprint: '[]', problem: `${SETTINGS.readCommittedGroups} is ignored: ${errorMessage(e)}` };
  }
}

export function manageKafkaSources(registry: SourceRegistry, store: ConnectionStore, log: vscode.LogOutputChannel): vscode.Disposable {
  /** What each running source was built from, to rebuild only the ones that changed. */
  const running = new Map<string, string>();
  let queue: Promise<void> = Promise.resolve();
  let reportedProblems = '';
  let reportedWorkspaceValue = false;
  let reportedIsolationProblem: string | undefined;

  const fingerprint = (config: ConnectionConfig, isolation: IsolationSetting): string => JSON.stringify([config, isolation.fingerprint]);

  const start = async (config: ConnectionConfig, isolation: IsolationSetting): Promise<void> => {
    let source: ClusterSource;
    let admin: GroupAdmin | undefined;
    let transactions: TransactionAdmin | undefined;
    try {
      const stored = await store.secrets(config);
      if (stored.savedFor) {
        // The servers changed since the secrets were entered: they are not sent to the new servers.
        const reason = `the stored password or token was entered for ${stored.savedFor.join(',')}, not ${config.bootstrapServers.join(',')}; enter it again with "Edit Cluster…"`;
        log.warn(`Cluster "${config.name}": ${reason}`);
        registry.add({ source: new UnusableSource(config, reason, 'authentication') });
        running.set(config.id, fingerprint(config, isolation));
        return;
      }
      ({ source, admin, transactions } = createKafkaEntry(config, stored.secrets, { logger: log, isolationLevelFor: isolation.lookup }));
      log.info(`Cluster "${config.name}" added (${config.bootstrapServers.join(',')})`);
    } catch (e) {
      // Bad settings must not stop the other clusters; the node shows why.
      log.error(`Cluster "${config.name}" cannot be used: ${errorMessage(e)}`);
      source = new UnusableSource(config, errorMessage(e));
    }
    registry.add({ source, admin, transactions });
    running.set(config.id, fingerprint(config, isolation));
  };

  const sync = async (changedSecretsOf?: string): Promise<void> => {
    const { connections, problems } = store.read();
    const problemText = problems.join('\n');
    if (problemText && problemText !== reportedProblems) {
      log.warn(`Some entries of ${SETTINGS.clusters} are ignored:\n${problemText}`);
      void vscode.window.showWarningMessage(`Kafka Group Lens: ${problems.length} cluster setting(s) ignored: ${problems[0]}`);
    }
    reportedProblems = problemText;
    const workspaceValue = store.hasIgnoredWorkspaceValue();
    if (workspaceValue && !reportedWorkspaceValue) {
      log.warn(`${SETTINGS.clusters} in workspace or folder settings is ignored: cluster connections come from your user settings only`);
    }
    reportedWorkspaceValue = workspaceValue;
    const isolation = readIsolationSetting();
    if (isolation.problem && isolation.problem !== reportedIsolationProblem) {
      log.warn(isolation.problem);
      void vscode.window.showWarningMessage(`Kafka Group Lens: ${isolation.problem}`);
    }
    reportedIsolationProblem = isolation.problem;
    const wanted = new Map(connections.map((c) => [c.id, c]));
    for (const id of [...running.keys()]) {
      const config = wanted.get(id);
      if (!config || fingerprint(config, isolation) !== running.get(id) || id === changedSecretsOf) {
        running.delete(id);
        await registry.remove(id);
      }
    }
    for (const config of connections) {
      if (running.has(config.id)) {
        continue;
      }
      if (registry.get(config.id)) {
        log.warn(`Cluster id "${config.id}" clashes with another source; rename it in ${SETTINGS.clusters}`);
        continue;
      }
      await start(config, isolation);
    }
  };

  const schedule = (changedSecretsOf?: string): void => {
    queue = queue.then(() => sync(changedSecretsOf)).catch((e: unknown) => log.error(`Updating the cluster connections failed: ${errorMessage(e)}`));
  };

  schedule();
  const configListener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SETTINGS.clusters) || e.affectsConfiguration(SETTINGS.readCommittedGroups)) {
      schedule();
    }
  });
  const secretListener = store.onDidChangeSecrets((id) => schedule(id));
  return vscode.Disposable.from(configListener, secretListener);
}
