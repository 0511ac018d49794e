/**
 * Copy Group Id, Copy Member Id, Copy Offsets (as the CSV the CLI's --from-file reads, or as --describe prints them)
 * and Copy Partition Offsets, on the rows' context menus. The offsets are read fresh from the source, not from the
 * row, so what is copied is what the cluster says now.
 */
import * as vscode from 'vscode';
import type { TreeSources } from '../views/treeSources';
import type { TreeNode } from '../views/treeNodes';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';
import { offsetsAsDescribed, offsetsCsv, partitionLine } from './copyFormats';

async function copy(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`Copied ${what}`, 3000);
}

const FORMATS = [
  { label: 'As CSV', description: 'topic,partition,offset: the file kafka-consumer-groups.sh --reset-offsets --from-file reads', format: 'csv' },
  { label: 'As the CLI prints them', description: 'kafka-consumer-groups.sh --describe', format: 'describe' },
] as const;

export function registerCopyCommands(registry: Pick<TreeSources, 'get'>, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerReportingCommand(COMMANDS.copyGroupId, 'Copy Group Id', log, async (node?: TreeNode) => {
      if (node?.kind === 'group') {
        await copy(node.summary.groupId, 'the group id');
      }
    }),
    registerReportingCommand(COMMANDS.copyMemberId, 'Copy Member Id', log, async (node?: TreeNode) => {
      if (node?.kind === 'member') {
        await copy(node.member.memberId, 'the member id');
      }
    }),
    registerReportingCommand(COMMANDS.copyOffsets, 'Copy Offsets', log, async (node?: TreeNode) => {
      if (node?.kind !== 'group') {
        return;
      }
      const source = registry.get(node.sourceId)?.source;
      if (!source) {
        throw new Error('the cluster of this group is no longer registered');
      }
      const picked = await vscode.window.showQuickPick([...FORMATS], { title: `Copy the offsets of ${node.summary.groupId}` });
      if (!picked) {
        return;
      }
      const detail = await source.describeGroup(node.summary.groupId);
      await copy(picked.format === 'csv' ? offsetsCsv(detail) : offsetsAsDescribed(detail), `the offsets of ${detail.groupId}`);
    }),
    registerReportingCommand(COMMANDS.copyPartitionOffsets, 'Copy Partition Offsets', log, async (node?: TreeNode) => {
      if (node?.kind === 'partition') {
        await copy(partitionLine(node.offsets), `${node.offsets.topic}-${node.offsets.partition}`);
      }
    }),
  ];
}
