/**
 * The group-administration commands of the tree: Delete Group…, Delete Committed Offsets… and Remove Static
 * Member(s) (a streams group's deletion, with its internal topics, is streamsDeleteFlow's). The questions and the admin calls live in groupAdminFlows; this file is the editor glue. The reset
 * commands (and the undo that also puts deleted offsets back) are in src/reset/.
 */
import type * as vscode from 'vscode';
import type { SourceRegistry } from '../sources/sourceRegistry';
import type { GroupsView } from '../views/groupsView';
import type { TreeNode } from '../views/treeNodes';
import type { AdminPrompts } from './adminPrompts';
import { COMMANDS } from '../constants';
import { registerReportingCommand } from './commandRunner';
import { deleteGroupFlow, deleteOffsetsFlow, keepDeletionUndo, offsetsAdminFor, removeStaticMembersFlow, type GroupOffsetsKind } from './groupAdminFlows';
import { deleteStreamsGroupFlow } from './streamsDeleteFlow';
import { groupTarget, reportAdminOutcome, undoSnapshotKey, type GroupTarget } from './groupTarget';
import type { GroupAdmin } from '../model/groupAdmin';
import { vscodeAdminPrompts } from './vscodeAdminPrompts';

export interface GroupAdminCommandDeps {
  registry: SourceRegistry;
  view: Pick<GroupsView, 'refreshSource'>;
  log: vscode.LogOutputChannel;
  /** Read when a command runs (a deletion keeps its undo record in workspaceState). */
  context: Pick<vscode.ExtensionContext, 'workspaceState'>;
  prompts?: AdminPrompts;
}

async function offsetsAdmin(target: GroupTarget): Promise<{ admin: GroupAdmin; kind: GroupOffsetsKind }> {
  return offsetsAdminFor(target.admin, target.groupId, (await target.source.describeGroup(target.groupId)).groupType);
}

export function registerGroupAdminCommands({ registry, view, log, context, prompts = vscodeAdminPrompts }: GroupAdminCommandDeps): vscode.Disposable[] {
  return [
    registerReportingCommand(COMMANDS.deleteGroup, 'Delete Group', log, async (node?: TreeNode) => {
      const target = groupTarget(registry, node, 'Delete Group…');
      const memberCount = node?.kind === 'group' ? node.summary.memberCount : 0;
      const { groupType } = await target.source.describeGroup(target.groupId);
      if (groupType === 'streams') {
        // kafka-streams-groups.sh --delete: also offers the group's internal topics.
        const describe = () => target.source.describeGroup(target.groupId);
        await reportAdminOutcome(log, view, target, await deleteStreamsGroupFlow(prompts, target.admin, target.groupId, memberCount, describe));
        return;
      }
      const { admin, kind } = offsetsAdminFor(target.admin, target.groupId, groupType);
      await reportAdminOutcome(log, view, target, await deleteGroupFlow(prompts, admin, target.groupId, memberCount, kind));
    }),

    registerReportingCommand(COMMANDS.deleteOffsets, 'Delete Committed Offsets', log, async (node?: TreeNode) => {
      const target = groupTarget(registry, node, 'Delete Committed Offsets…');
      const { admin, kind } = await offsetsAdmin(target);
      const outcome = await deleteOffsetsFlow(prompts, admin, target.groupId, kind);
      if (outcome) {
        await keepDeletionUndo(context.workspaceState, undoSnapshotKey(target.sourceId, target.groupId), kind, outcome);
      }
      await reportAdminOutcome(log, view, target, outcome);
    }),

    registerReportingCommand(COMMANDS.removeStaticMember, 'Remove Static Member', log, async (node?: TreeNode) => {
      if (node?.kind !== 'member' || node.member.groupInstanceId == null) {
        throw new Error('Run "Remove Static Member" on a static member (one with a group.instance.id)');
      }
      const target = groupTarget(registry, node, 'Remove Static Member');
      const detail = await target.source.describeGroup(target.groupId);
      await reportAdminOutcome(log, view, target, await removeStaticMembersFlow(prompts, target.admin, detail, [node.member.groupInstanceId]));
    }),

    registerReportingCommand(COMMANDS.removeStaticMembers, 'Remove Static Members', log, async (node?: TreeNode) => {
      const target = groupTarget(registry, node, 'Remove Static Members…');
      const detail = await target.source.describeGroup(target.groupId);
      await reportAdminOutcome(log, view, target, await removeStaticMembersFlow(prompts, target.admin, detail));
    }),
  ];
}
