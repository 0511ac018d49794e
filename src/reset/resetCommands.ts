/**
 * The reset commands of the tree: Reset Offsets… (with its preview panel), Import Reset Plan from CSV… and
 * Undo Last Offset Change. The questions and the admin calls live in resetPrompts / resetFlow; this file is the
 * editor glue: targets, progress, notifications, clipboard, files and workspace state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { exportResetCsv } from '../offsets/csv';
import type { ResetScenarioKind } from '../offsets/resetPlan';
import type { ResetScope } from '../offsets/resetRequest';
import type { OffsetSnapshot } from '../offsets/undo';
import { errorMessage } from '../protocol/errors';
import type { SourceRegistry } from '../sources/sourceRegistry';
import type { GroupsView } from '../views/groupsView';
import type { TreeNode } from '../views/treeNodes';
import { openResetPreview } from './resetPreviewPanel';
import { toPreviewData, toResultRows } from './resetPreviewData';
import type { AdminPrompts } from '../commands/adminPrompts';
import { registerReportingCommand } from '../commands/commandRunner';
import { MAX_CONFIRMATIONS } from '../commands/groupAdminFlows';
import { groupTarget, reportAdminOutcome, undoSnapshotKey, type GroupTarget, type PickedGroupRef } from '../commands/groupTarget';
import type { SimulatorExposures } from '../commands/simulatorExposures';
import { vscodeAdminPrompts } from '../commands/vscodeAdminPrompts';
import { COMMANDS } from '../constants';
import { cliBootstrapServers, offerCommandConfig } from './resetCli';
import {
  CancelledError,
  describeFailures,
  describeGroupChanges,
  executeReset,
  executedResetSummary,
  parseStoredSnapshot,
  planUndo,
  undoConfirmation,
  undoRecordSaver,
  undoReset,
  type CancelSignal,
  type GroupChanges,
} from './resetFlow';
import { promptResetRequest, type AskedReset } from './resetPrompts';
import { resetRoute, type ResetRoute } from './resetRoute';
import { shareGroupOffsetsAdmin } from '../offsets/shareAdmin';

export interface ResetCommandDeps {
  registry: SourceRegistry;
  view: Pick<GroupsView, 'refreshSource'>;
  log: vscode.LogOutputChannel;
  /** Read when a command runs (undo snapshots live in workspaceState, the preview's files under extensionUri). */
  context: Pick<vscode.ExtensionContext, 'workspaceState' | 'extensionUri'>;
  prompts?: AdminPrompts;
  /** Where simulators are exposed, for the CLI line: the record the expose commands keep. */
  exposures: Pick<SimulatorExposures, 'bootstrapServers'>;
  /** Asks for a group when Reset Offsets… runs with no tree row (the command palette, a walkthrough link). */
  pickGroup?: (title: string) => Promise<{ sourceId: string; groupId: string } | undefined>;
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

export function registerResetCommands({ registry, view, log, context, prompts = vscodeAdminPrompts, exposures, pickGroup }: ResetCommandDeps): vscode.Disposable[] {
  // The Cancel button of the progress notification ends the command quietly.
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

  const askReset = async (target: GroupTarget, scenario?: ResetScenarioKind, scope?: ResetScope): Promise<{ asked: AskedReset; route: ResetRoute } | undefined> => {
    const detail = await target.source.describeGroup(target.groupId);
    // The group's type decides the tool whose semantics the reset follows (share groups: kafka-share-groups.sh).
    const route = resetRoute(detail, target.admin, target.groupId);
    // Refuse before any question when the group is already known to be active, with the CLI's sentence.
    const refusal = route.refusal(target.groupId, await route.admin.groupState(target.groupId));
    if (refusal) {
      throw new Error(refusal);
    }
    if (scenario && route.scenarios && !route.scenarios.includes(scenario)) {
      throw new Error(`kafka-share-groups.sh has no --${scenario}`);
    }
    const committed = await route.admin.committedOffsets(target.groupId);
    const committedTopics = [...new Set(committed.map((c) => c.topic))];
    const groupTopics = [...new Set([...committedTopics, ...detail.members.flatMap((m) => m.subscription)])];
    const asked = await promptResetRequest(prompts, {
      groupId: target.groupId,
      committedTopics,
      groupTopics,
      readFile: (path) => readFile(path, 'utf8'),
      scenario,
      scenarios: route.scenarios,
      scope,
    });
    return asked ? { asked, route } : undefined;
  };

  const resetWithPreview = async (node: TreeNode | PickedGroupRef | undefined, scenario?: ResetScenarioKind, scope?: ResetScope): Promise<void> => {
    const target = groupTarget(registry, node, 'Reset Offsets…');
    const answered = await askReset(target, scenario, scope);
    if (!answered) {
      return;
    }
    const { asked, route } = answered;
    const plan = (title: string) => withCancellableProgress(title, (signal) => route.preview(asked.request, signal));
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
          const saveUndo = undoRecordSaver(context.workspaceState, undoKey, route.kind);
          const outcome = await withCancellableProgress(`Resetting the offsets of ${target.groupId}…`, async (signal) => {
            if (signal.cancelled) {
              throw new CancelledError();
            }
            return executeReset(route.admin, planned, { takenAt: Date.now(), saveUndo });
          });
          if (!outcome.ok) {
            const lines = describeGroupChanges(outcome.changes, 'previewed');
            log.warn(`[${target.source.label}] Reset ${target.groupId}: not executed, the group changed since the preview:\n  ${lines.join('\n  ')}`);
            const summary = `Not executed: ${target.groupId} changed since this preview. Re-plan to see what the reset would commit now.`;
            return { kind: 'changed' as const, changed: { summary, lines } };
          }
          const failures = describeFailures(outcome.results);
          const summary = executedResetSummary(target.groupId, outcome);
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
          const command = route.cliCommand(asked.request, {
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
              log.error('Saving the client properties failed:', e instanceof Error ? e : errorMessage(e));
              void vscode.window.showErrorMessage(`Saving the client properties failed: ${errorMessage(e)}`);
            });
          }
        },
      },
      log,
    );
  };

  return [
    register(COMMANDS.resetOffsets, 'Reset Offsets', async (node) => {
      if (node || !pickGroup) {
        return resetWithPreview(node);
      }
      // From the palette or a walkthrough link there is no row: ask which group; a dismissed pick does nothing.
      const picked = await pickGroup('Reset Offsets of Consumer Group');
      return picked ? resetWithPreview({ kind: 'picked-group', ...picked }) : undefined;
    }),
    register(COMMANDS.resetPartitionOffsets, 'Reset Offsets of This Partition', (node) => {
      if (node?.kind !== 'partition') {
        throw new Error('Run "Reset Offsets of This Partition…" on a partition row in the Consumer Groups view');
      }
      // --topic t:p: the same preview, execute and undo as the group's reset, over this one partition.
      return resetWithPreview(node, undefined, { kind: 'topics', topics: [{ topic: node.offsets.topic, partitions: [node.offsets.partition] }] });
    }),
    register(COMMANDS.importResetPlan, 'Import Reset Plan from CSV', (node) => resetWithPreview(node, 'from-file')),

    register(COMMANDS.undoLastReset, 'Undo Last Offset Change', async (node) => {
      const target = groupTarget(registry, node, 'Undo Last Offset Change');
      const key = undoSnapshotKey(target.sourceId, target.groupId);
      const snapshot: OffsetSnapshot | undefined = parseStoredSnapshot(context.workspaceState.get<unknown>(key));
      if (!snapshot) {
        throw new Error(`No offset reset or deletion of ${target.groupId} on ${target.source.label} to undo in this workspace`);
      }
      const admin = snapshot.groupType === 'share' ? shareGroupOffsetsAdmin(target.admin, target.groupId) : target.admin;
      let changedWhileAsking: GroupChanges | undefined;
      for (let asked = 0; ; asked++) {
        const steps = await planUndo(admin, snapshot);
        if (steps.every((s) => s.status === 'not-changed')) {
          await context.workspaceState.update(key, undefined);
          void vscode.window.showInformationMessage(`Nothing to undo: the last change of ${target.groupId} did not reach any partition (each still holds its offset from before).`);
          return;
        }
        if (!(await prompts.confirm(undoConfirmation(snapshot, steps, changedWhileAsking)))) {
          return;
        }
        const outcome = await undoReset(admin, snapshot, steps);
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
        await reportAdminOutcome(log, view, target, {
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
  ];
}
