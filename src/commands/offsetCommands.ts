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
import { openResetPreview } from '../webview/resetPreviewPanel';
import { toPreviewData, toResultRows } from '../webview/resetPreviewData';
import type { GroupsView } from '../views/groupsView';
import type { SourceRegistry } from '../views/sourceRegistry';
import type { TreeNode } from '../views/treeNodes';
import type { AdminPrompts } from './adminPrompts';
import { COMMANDS } from './commandIds';
import { registerReportingCommand } from './commandRunner';
import { deleteGroupFlow, deleteOffsetsFlow, removeStaticMembersFlow, type AdminOutcome } from './groupAdminFlows';
import { CancelledError, describeFailures, describeUndoStep, executeReset, parseStoredSnapshot, planUndo, previewReset, undoReset, type CancelSignal } from './resetFlow';
import { promptResetRequest, type AskedReset } from './resetPrompts';
import { vscodeAdminPrompts } from './vscodeAdminPrompts';

export interface OffsetCommandDeps {
  registry: SourceRegistry;
  view: Pick<GroupsView, 'refreshSource'>;
  log: vscode.LogOutputChannel;
  /** Read when a command runs (undo snapshots live in workspaceState, the preview's files under extensionUri). */
  context: Pick<vscode.ExtensionContext, 'workspaceState' | 'extensionUri'>;
  prompts?: AdminPrompts;
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

async function bootstrapServers(source: ClusterSource): Promise<string[]> {
  const info = await source.describeCluster();
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

export function registerOffsetCommands({ registry, view, log, context, prompts = vscodeAdminPrompts }: OffsetCommandDeps): vscode.Disposable[] {
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
    const preview = await withCancellableProgress(`Planning the reset of ${target.groupId}…`, (signal) => previewReset(target.admin, asked.request, signal));
    if (!preview.ok) {
      void vscode.window.showErrorMessage(`Reset Offsets of ${target.groupId}: ${preview.error}`);
      return;
    }
    const commandConfig = target.source.cliCommandConfig?.();
    const cliOptions = async () => ({
      bootstrapServers: await bootstrapServers(target.source),
      fromFilePath: asked.fromFilePath,
      // A secured cluster: the line reads the client properties from a file the user saves next to it.
      commandConfigPath: commandConfig?.fileName,
    });
    openResetPreview(
      context.extensionUri,
      toPreviewData(preview, target.source.label, asked.fromFilePath),
      {
        execute: async () => {
          const executed = await withCancellableProgress(`Resetting the offsets of ${target.groupId}…`, async (signal) => {
            if (signal.cancelled) {
              throw new CancelledError();
            }
            return executeReset(target.admin, target.groupId, preview.rows, Date.now());
          });
          await context.workspaceState.update(undoSnapshotKey(target.sourceId, target.groupId), executed.snapshot);
          const failures = describeFailures(executed.results);
          const summary =
            failures.length === 0
              ? `Committed ${executed.results.length} offset(s) of ${target.groupId}. "Undo Last Offset Change" on the group puts the previous ones back.`
              : `${failures.length} of ${executed.results.length} partition(s) were not reset.`;
          log.info(`[${target.source.label}] Reset ${target.groupId}: ${summary}${failures.length ? `\n  ${failures.join('\n  ')}` : ''}`);
          await view.refreshSource(target.sourceId);
          return { summary, rows: toResultRows(preview.rows, executed.results) };
        },
        exportCsv: async () => {
          const uri = await vscode.window.showSaveDialog({ title: 'Export Reset Plan', filters: { 'CSV files': ['csv'] }, saveLabel: 'Export' });
          if (!uri) {
            return;
          }
          await writeFile(uri.fsPath, exportResetCsv([{ groupId: target.groupId, rows: preview.rows }]), 'utf8');
          void vscode.window.showInformationMessage(`Exported ${preview.rows.length} row(s) to ${uri.fsPath}`);
        },
        copyCli: async (mode) => {
          const command = resetOffsetsCommand(asked.request, { ...(await cliOptions()), mode });
          await vscode.env.clipboard.writeText(command);
          vscode.window.setStatusBarMessage(`Copied: ${command}`, 5000);
          if (commandConfig) {
            await offerCommandConfig(commandConfig, target.source.label);
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
      const steps = await planUndo(target.admin, snapshot);
      const confirmed = await prompts.confirm({
        message: `Put back the offsets ${target.groupId} had before the change of ${new Date(snapshot.takenAt).toLocaleString()}?`,
        detail: steps.map(describeUndoStep).join('\n'),
        action: 'Undo',
      });
      if (!confirmed) {
        return;
      }
      const results = await undoReset(target.admin, snapshot);
      const failures = describeFailures(results);
      if (failures.length === 0) {
        await context.workspaceState.update(key, undefined);
      }
      await report(target, {
        ok: failures.length === 0,
        summary: failures.length === 0 ? `Restored ${results.length} offset(s) of ${target.groupId}` : `${failures.length} of ${results.length} offset(s) of ${target.groupId} were not restored`,
        lines: results.map((r) => `${r.topic}-${r.partition}: ${r.error ?? 'restored'}`),
      });
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
