/**
 * The offset and group-administration commands of the tree: Reset Offsets… (with its preview panel),
 * Import Reset Plan from CSV…, Undo Last Offset Change, Delete Group…, Delete Committed Offsets…, Remove Static
 * Member(s). The questions and the admin calls live in resetPrompts / resetFlow / groupAdminFlows; this
 * file is the editor glue: targets, progress, notifications, clipboard, files and workspace state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { GroupAdmin } from '../model/groupAdmin';
import type { CliCommandConfig, ClusterSource } from '../model/clusterSource';
import { resetOffsetsCommand } from '../offsets/cliCommand';
import { exportResetCsv } from '../offsets/csv';
import { inactiveGroupError, type ResetScenarioKind } from '../offsets/resetPlan';
import type { OffsetSnapshot } from '../offsets/undo';
import { openResetPreview } from '../reset/resetPreviewPanel';
import { toPreviewData, toResultRows } from '../reset/resetPreviewData';
import type { GroupsView } from '../views/groupsView';
import type { SourceRegistry } from '../views/sourceRegistry';
import type { TreeNode } from '../views/treeNodes';
import type { AdminPrompts } from './adminPrompts';
import { COMMANDS } from './commandIds';
import { registerReportingCommand } from './commandRunner';
import { deleteGroupFlow, deleteOffsetsFlow, MAX_CONFIRMATIONS, removeStaticMembersFlow, type AdminOutcome } from './groupAdminFlows';
import {
  CancelledError,
  describeFailures,
  describeGroupChanges,
  executeReset,
  parseStoredSnapshot,
  planUndo,
  previewReset,
  undoConfirmation,
  undoReset,
  type CancelSignal,
  type GroupChanges,
} from './resetFlow';
import { promptResetRequest, type AskedReset } from './resetPrompts';
import type { SimulatorExposures } from './simulatorExposures';
import { vscodeAdminPrompts } from './vscodeAdminPrompts';
import { errorMessage } from '../protocol/errors';

export interface OffsetCommandDeps {
  registry: SourceRegistry;
  view: Pick<GroupsView, 'refreshSource'>;
  log: vscode.LogOutputChannel;
  /** Read when a command runs (undo snapshots live in workspaceState, the preview's files under extensionUri). */
  context: Pick<vscode.ExtensionContext, 'workspaceState' | 'extensionUri'>;
  prompts?: AdminPrompts;
  /** Where simulators are exposed, for the CLI line: the record the expose commands keep. */
  exposures: Pick<SimulatorExposures, 'bootstrapServers'>;
}

interface GroupTarget {
  sourceId: string;
  groupId: string;
  source: ClusterSource;
  admin: GroupAdmin;
}

/** The group a command was invoked on, with its cluster's admin (a group row or a member row). */
function groupTarget(registry: SourceRegistry, node: TreeNode | undefined, what: string): GroupTarget {
  if (node?.kind !== 'group' && node?.kind !== 'member') {
    throw new Error(`Run "${what}" on a consumer group in the Consumer Groups view`);
  }
  const entry = registry.require(node.sourceId);
  if (!entry.admin) {
    throw new Error(`Cluster "${entry.source.label}" cannot administer groups`);
  }
  const groupId = node.kind === 'group' ? node.summary.groupId : node.groupId;
  return { sourceId: node.sourceId, groupId, source: entry.source, admin: entry.admin };
}

/** Workspace-state key of the last reset of a group on a cluster. */
export function undoSnapshotKey(sourceId: string, groupId: string): string {
  return `kafkaGroupLens.lastReset:${encodeURIComponent(sourceId)}:${encodeURIComponent(groupId)}`;
}

/**
 * The --bootstrap-server of a copied CLI line: a real cluster's brokers; for the simulator the listeners it is
 * exposed at, and a refusal when it is not exposed (its brokers' addresses are served by nothing, or by a local
 * Kafka that happens to use them).
 */
async function cliBootstrapServers(target: GroupTarget, exposures: Pick<SimulatorExposures, 'bootstrapServers'>): Promise<string[]> {
  if (target.source.kind === 'simulator') {
    const exposed = exposures.bootstrapServers(target.sourceId);
    if (!exposed) {
      throw new Error(`kafka-consumer-groups.sh cannot reach "${target.source.label}": expose the simulator on a port first (Expose Simulator on a Port…)`);
    }
    return [...exposed];
  }
  const info = await target.source.describeCluster();
  return info.brokers.map((b) => `${b.host}:${b.port}`);
}

/**
 * The copied line of a secured cluster names a --command-config file: offer to save it (without
 * secrets) where the user runs the line.
 */
async function offerCommandConfig(config: CliCommandConfig, clusterLabel: string): Promise<void> {
  const save = 'Save Client Properties…';
  const answer = await vscode.window.showInformationMessage(
    `The copied command reads the client properties of ${clusterLabel} from ${config.fileName} (--command-config). Save that file next to where you run it, then fill in the password.`,
    save,
  );
  if (answer !== save) {
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({
    title: 'Save Client Properties',
    defaultUri: folder ? vscode.Uri.joinPath(folder, config.fileName) : undefined,
    filters: { Properties: ['properties'] },
    saveLabel: 'Save',
  });
  if (uri) {
    // Readable by its owner only: it gets a password once filled in.
    await writeFile(uri.fsPath, config.properties, { encoding: 'utf8', mode: 0o600 });
    void vscode.window.showInformationMessage(`Saved ${uri.fsPath}; replace the placeholders (such as <password>) before running the command.`);
  }
}

/** Long work in a cancellable notification; the flow checks the signal between its steps. */
function withCancellableProgress<T>(title: string, work: (signal: CancelSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) =>
    work({
      get cancelled() {
        return token.isCancellationRequested;
      },
    }),
  );
}

export function registerOffsetCommands({ registry, view, log, context, prompts = vscodeAdminPrompts, exposures }: OffsetCommandDeps): vscode.Disposable[] {
  const register = (id: string, title: string, handler: (node?: TreeNode) => Promise<void>): vscode.Disposable =>
    registerReportingCommand(id, title, log, async (node?: TreeNode) => {
      try {
        await handler(node);
      } catch (e) {
        if (!(e instanceof CancelledError)) {
          throw e;
        }
      }
    });

  const report = async (target: GroupTarget, outcome: AdminOutcome | undefined): Promise<void> => {
    if (!outcome) {
      return;
    }
    log.info(`[${target.source.label}] ${outcome.summary}\n  ${outcome.lines.join('\n  ')}`);
    if (outcome.ok) {
      void vscode.window.showInformationMessage(outcome.summary);
    } else {
      const shown = outcome.lines.slice(0, 5).join('; ') + (outcome.lines.length > 5 ? `; … (${outcome.lines.length - 5} more in the output log)` : '');
      void vscode.window.showWarningMessage(`${outcome.summary}. ${shown}`);
    }
    await view.refreshSource(target.sourceId);
  };

  const askReset = async (target: GroupTarget, scenario?: ResetScenarioKind): Promise<AskedReset | undefined> => {
    // Refuse before any question when the group is already known to be active, with the CLI's sentence.
    const refusal = inactiveGroupError(target.groupId, await target.admin.groupState(target.groupId));
    if (refusal) {
      throw new Error(refusal);
    }
    const committed = await target.admin.committedOffsets(target.groupId);
    const detail = await target.source.describeGroup(target.groupId);
    const committedTopics = [...new Set(committed.map((c) => c.topic))];
    const groupTopics = [...new Set([...committedTopics, ...detail.members.flatMap((m) => m.subscription)])];
    return promptResetRequest(prompts, {
      groupId: target.groupId,
      committedTopics,
      groupTopics,
      readFile: (path) => readFile(path, 'utf8'),
      scenario,
    });
  };

  const resetWithPreview = async (node: TreeNode | undefined, scenario?: ResetScenarioKind): Promise<void> => {
    const target = groupTarget(registry, node, 'Reset Offsets…');
    const asked = await askReset(target, scenario);
    if (!asked) {
      return;
    }
    const plan = (title: string) => withCancellableProgress(title, (signal) => previewReset(target.admin, asked.request, signal));
    const first = await plan(`Planning the reset of ${target.groupId}…`);
    if (!first.ok) {
      void vscode.window.showErrorMessage(`Reset Offsets of ${target.groupId}: ${first.error}`);
      return;
    }
    /** The plan the panel shows; Re-plan replaces it. */
    let current = first;
    const undoKey = undoSnapshotKey(target.sourceId, target.groupId);
    const commandConfig = target.source.cliCommandConfig?.();
    openResetPreview(
      context.extensionUri,
      toPreviewData(current, target.source.label, asked.fromFilePath),
      {
        execute: async () => {
          const planned = current;
          // A reset that changes nothing keeps the undo record of the change before it.
          const previousUndo = context.workspaceState.get<unknown>(undoKey);
          const outcome = await withCancellableProgress(`Resetting the offsets of ${target.groupId}…`, async (signal) => {
            if (signal.cancelled) {
              throw new CancelledError();
            }
            return executeReset(target.admin, planned, {
              takenAt: Date.now(),
              saveUndo: async (snapshot) => context.workspaceState.update(undoKey, snapshot ?? previousUndo),
            });
          });
          if (!outcome.ok) {
            const lines = describeGroupChanges(outcome.changes, 'previewed');
            log.warn(`[${target.source.label}] Reset ${target.groupId}: not executed, the group changed since the preview:\n  ${lines.join('\n  ')}`);
            const summary = `Not executed: ${target.groupId} changed since this preview. Re-plan to see what the reset would commit now.`;
            return { kind: 'changed' as const, changed: { summary, lines } };
          }
          const failures = describeFailures(outcome.results);
          const undoHint = outcome.snapshot ? ' "Undo Last Offset Change" on the group puts the previous ones back.' : '';
          const summary = !outcome.confirmed
            ? `The commit failed and the offsets could not be read back: which of the ${outcome.results.length} partition(s) were reset is unknown. "Undo Last Offset Change" restores those the reset reached.`
            : failures.length === 0
              ? `Committed ${outcome.results.length} offset(s) of ${target.groupId}.${undoHint}`
              : `${failures.length} of ${outcome.results.length} partition(s) were not reset.${undoHint}`;
          log.info(`[${target.source.label}] Reset ${target.groupId}: ${summary}${failures.length ? `\n  ${failures.join('\n  ')}` : ''}`);
          await view.refreshSource(target.sourceId);
          return { kind: 'results' as const, summary, rows: toResultRows(planned.rows, outcome.results) };
        },
        replan: async () => {
          const next = await plan(`Planning the reset of ${target.groupId} again…`);
          if (!next.ok) {
            return next;
          }
          current = next;
          return { ok: true, preview: toPreviewData(next, target.source.label, asked.fromFilePath) };
        },
        exportCsv: async () => {
          const rows = current.rows;
          const uri = await vscode.window.showSaveDialog({ title: 'Export Reset Plan', filters: { 'CSV files': ['csv'] }, saveLabel: 'Export' });
          if (!uri) {
            return;
          }
          await writeFile(uri.fsPath, exportResetCsv([{ groupId: target.groupId, rows }]), 'utf8');
          void vscode.window.showInformationMessage(`Exported ${rows.length} row(s) to ${uri.fsPath}`);
        },
        copyCli: async (mode) => {
          const command = resetOffsetsCommand(asked.request, {
            bootstrapServers: await cliBootstrapServers(target, exposures),
            fromFilePath: asked.fromFilePath,
            // A secured cluster: the line reads the client properties from a file the user saves next to it.
            commandConfigPath: commandConfig?.fileName,
            mode,
          });
          await vscode.env.clipboard.writeText(command);
          vscode.window.setStatusBarMessage(`Copied: ${command}`, 5000);
          if (commandConfig) {
            // Not awaited: the offer may stay unanswered for as long as the user likes.
            offerCommandConfig(commandConfig, target.source.label).then(undefined, (e: unknown) => {
              log.error('Saving the client properties failed:', e instanceof Error ? e : String(e));
              void vscode.window.showErrorMessage(`Saving the client properties failed: ${errorMessage(e)}`);
            });
          }
        },
      },
      log,
    );
  };

  return [
    register(COMMANDS.resetOffsets, 'Reset Offsets', (node) => resetWithPreview(node)),
    register(COMMANDS.importResetPlan, 'Import Reset Plan from CSV', (node) => resetWithPreview(node, 'from-file')),

    register(COMMANDS.undoLastReset, 'Undo Last Offset Change', async (node) => {
      const target = groupTarget(registry, node, 'Undo Last Offset Change');
      const key = undoSnapshotKey(target.sourceId, target.groupId);
      const snapshot: OffsetSnapshot | undefined = parseStoredSnapshot(context.workspaceState.get<unknown>(key));
      if (!snapshot) {
        throw new Error(`No offset reset or deletion of ${target.groupId} on ${target.source.label} to undo in this workspace`);
      }
      let changedWhileAsking: GroupChanges | undefined;
      for (let asked = 0; ; asked++) {
        const steps = await planUndo(target.admin, snapshot);
        if (steps.every((s) => s.status === 'not-changed')) {
          await context.workspaceState.update(key, undefined);
          void vscode.window.showInformationMessage(`Nothing to undo: the last change of ${target.groupId} did not reach any partition (each still holds its offset from before).`);
          return;
        }
        if (!(await prompts.confirm(undoConfirmation(snapshot, steps, changedWhileAsking)))) {
          return;
        }
        const outcome = await undoReset(target.admin, snapshot, steps);
        if (!outcome.ok) {
          // Someone committed while the user read the confirmation: show the new offsets and ask again.
          if (asked >= MAX_CONFIRMATIONS - 1) {
            throw new Error(`The offsets of ${target.groupId} keep changing (${describeGroupChanges(outcome.changes, 'shown').join('; ')}); nothing was undone`);
          }
          changedWhileAsking = outcome.changes;
          continue;
        }
        const failures = describeFailures(outcome.results);
        if (failures.length === 0) {
          await context.workspaceState.update(key, undefined);
        }
        await report(target, {
          ok: failures.length === 0,
          summary:
            failures.length === 0
              ? `Restored ${outcome.results.length} offset(s) of ${target.groupId}`
              : `${failures.length} of ${outcome.results.length} offset(s) of ${target.groupId} were not restored`,
          lines: outcome.results.map((r) => `${r.topic}-${r.partition}: ${r.error ?? 'restored'}`),
        });
        return;
      }
    }),

    register(COMMANDS.deleteGroup, 'Delete Group', async (node) => {
      const target = groupTarget(registry, node, 'Delete Group…');
      const memberCount = node?.kind === 'group' ? node.summary.memberCount : 0;
      await report(target, await deleteGroupFlow(prompts, target.admin, target.groupId, memberCount));
    }),

    register(COMMANDS.deleteOffsets, 'Delete Committed Offsets', async (node) => {
      const target = groupTarget(registry, node, 'Delete Committed Offsets…');
      const outcome = await deleteOffsetsFlow(prompts, target.admin, target.groupId);
      if (outcome?.undo) {
        await context.workspaceState.update(undoSnapshotKey(target.sourceId, target.groupId), outcome.undo);
        outcome.summary += '. "Undo Last Offset Change" on the group commits them again';
      }
      await report(target, outcome);
    }),

    register(COMMANDS.removeStaticMember, 'Remove Static Member', async (node) => {
      if (node?.kind !== 'member' || node.member.groupInstanceId == null) {
        throw new Error('Run "Remove Static Member" on a static member (one with a group.instance.id)');
      }
      const target = groupTarget(registry, node, 'Remove Static Member');
      const detail = await target.source.describeGroup(target.groupId);
      await report(target, await removeStaticMembersFlow(prompts, target.admin, detail, [node.member.groupInstanceId]));
    }),

    register(COMMANDS.removeStaticMembers, 'Remove Static Members', async (node) => {
      const target = groupTarget(registry, node, 'Remove Static Members…');
      const detail = await target.source.describeGroup(target.groupId);
      await report(target, await removeStaticMembersFlow(prompts, target.admin, detail));
    }),
  ];
}
