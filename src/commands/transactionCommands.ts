/**
 * Find Hanging Transactions… and Abort Transaction…, on a cluster or a partition row, or from the palette
 * (which asks the cluster). The questions are transactionFlows'; this file is the editor glue: the
 * cluster's TransactionAdmin, a cancellable progress for the search, the tool's table in the log.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../constants';
import type { TransactionAdmin } from '../model/transactions';
import type { SourceRegistry } from '../sources/sourceRegistry';
import { findHangingTransactions, type HangingTransaction } from '../transactions/findHanging';
import { elapsedText, hangingTable } from '../transactions/transactionText';
import type { GroupsView } from '../views/groupsView';
import type { TreeNode } from '../views/treeNodes';
import type { AdminPrompts } from './adminPrompts';
import { registerReportingCommand } from './commandRunner';
import { abortTransactionFlow, findHangingFlow, type AbortTargetHint } from './transactionFlows';
import { vscodeAdminPrompts } from './vscodeAdminPrompts';

export interface TransactionCommandDeps {
  registry: SourceRegistry;
  view: Pick<GroupsView, 'refreshSource'>;
  log: vscode.LogOutputChannel;
  prompts?: AdminPrompts;
}

interface TransactionTarget {
  sourceId: string;
  label: string;
  admin: TransactionAdmin;
}

function sourceIdOf(node: TreeNode | undefined): string | undefined {
  switch (node?.kind) {
    case 'cluster':
    case 'group':
    case 'member':
    case 'transactions':
    case 'transaction':
      return node.sourceId;
    case 'partition':
      return node.group?.sourceId;
    default:
      return undefined;
  }
}

/** The cluster a row belongs to, or the one picked when the command runs from the palette. */
async function transactionTarget(registry: SourceRegistry, prompts: AdminPrompts, node: TreeNode | undefined, title: string): Promise<TransactionTarget | undefined> {
  const named = sourceIdOf(node);
  const candidates = (named === undefined ? registry.list() : [registry.require(named)]).filter((e) => e.transactions !== undefined);
  if (named !== undefined && candidates.length === 0) {
    throw new Error(`Cluster "${registry.require(named).source.label}" cannot administer transactions`);
  }
  const entry =
    candidates.length === 1
      ? candidates[0]
      : await prompts.pickOne(candidates.map((e) => ({ label: e.source.label, description: e.source.kind, value: e })), { title, placeholder: 'Cluster' });
  if (!entry?.transactions) {
    if (candidates.length === 0) {
      throw new Error('No cluster can administer transactions: add a Kafka cluster or turn the simulator on');
    }
    return undefined;
  }
  return { sourceId: entry.source.id, label: entry.source.label, admin: entry.transactions };
}

/** What a partition row (its partition) or a transaction row (its producer and partitions) tells of the transaction to abort. */
function abortHint(node: TreeNode | undefined): AbortTargetHint {
  if (node?.kind === 'partition') {
    return { topic: node.offsets.topic, partition: node.offsets.partition };
  }
  if (node?.kind === 'transaction') {
    return { producerId: node.listing.producerId, choices: node.description?.topicPartitions ?? [] };
  }
  return {};
}

function hangingItem(h: HangingTransaction) {
  return {
    label: `${h.topic}-${h.partition}`,
    description: `producer ${h.producer.producerId}, epoch ${h.producer.producerEpoch}, from offset ${h.producer.currentTxnStartOffset}`,
    detail: `Last written ${elapsedText(h.durationMinutes * 60_000)} ago; no transaction coordinator will end it. Pick it to abort it.`,
    value: h,
  };
}

export function registerTransactionCommands({ registry, view, log, prompts = vscodeAdminPrompts }: TransactionCommandDeps): vscode.Disposable[] {
  const abort = async (target: TransactionTarget, hint: AbortTargetHint): Promise<void> => {
    const outcome = await abortTransactionFlow(prompts, target.admin, hint);
    if (!outcome) {
      return;
    }
    const { topic, partition, startOffset } = outcome.target;
    const who = outcome.transactionalId === undefined ? `producer ${outcome.producerId}` : `"${outcome.transactionalId}" (producer ${outcome.producerId})`;
    log.info(`Abort Transaction on ${target.label}: ABORT marker written for ${who} on ${topic}-${partition}, transaction from offset ${startOffset}`);
    void vscode.window.showInformationMessage(`Aborted the transaction of ${who} on ${topic}-${partition} (from offset ${startOffset}).`);
    await view.refreshSource(target.sourceId);
  };

  return [
    registerReportingCommand(COMMANDS.findHangingTransactions, 'Find Hanging Transactions', log, async (node?: TreeNode) => {
      const target = await transactionTarget(registry, prompts, node, 'Find Hanging Transactions');
      if (!target) {
        return;
      }
      const search = (scope: Parameters<typeof findHangingTransactions>[1]) =>
        vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Finding hanging transactions on ${target.label}…`, cancellable: true }, async (_progress, token) => {
          const found = await findHangingTransactions(target.admin, scope);
          return token.isCancellationRequested ? undefined : found;
        });
      let cancelled = false;
      const result = await findHangingFlow(prompts, target.admin, {}, async (scope) => {
        const found = await search(scope);
        cancelled = found === undefined;
        return found ?? [];
      });
      if (!result || cancelled) {
        return;
      }
      const where = result.scope.topic !== undefined ? `topic ${result.scope.topic}` : `broker ${result.scope.brokerId}`;
      log.info(`Find Hanging Transactions on ${target.label}, ${where}, --max-transaction-timeout ${(result.scope.maxTransactionTimeoutMs ?? 0) / 60_000}:\n${hangingTable(result.hanging)}`);
      if (result.hanging.length === 0) {
        void vscode.window.showInformationMessage(`No hanging transactions on ${where} of ${target.label}.`);
        return;
      }
      const picked = await prompts.pickOne(result.hanging.map(hangingItem), { title: `${result.hanging.length} hanging transaction(s) on ${where}`, placeholder: 'Pick one to abort it, or press Escape' });
      if (picked) {
        await abort(target, { topic: picked.topic, partition: picked.partition, startOffset: picked.producer.currentTxnStartOffset });
      }
    }),

    registerReportingCommand(COMMANDS.abortTransaction, 'Abort Transaction', log, async (node?: TreeNode) => {
      const target = await transactionTarget(registry, prompts, node, 'Abort Transaction');
      if (target) {
        await abort(target, abortHint(node));
      }
    }),
  ];
}
