/**
 * "Copy as CLI" for share groups: the `kafka-share-groups.sh` lines of a reset, an offset deletion and a group
 * deletion. The tool has no default between --dry-run and --execute (from 4.2 it fails without one), so a reset
 * line always names one; --delete-offsets takes whole topics only (DeleteShareGroupOffsets has no partitions).
 */
import { deleteGroupCommand, deleteOffsetsCommand, resetOffsetsCommand, type CliCommandOptions, type ResetCommandOptions } from './cliCommand';
import type { ResetRequest } from './resetRequest';
import { shareScenarioError, SHARE_RESET_SCENARIOS_4_4 } from './shareReset';

export const SHARE_GROUPS_COMMAND = 'kafka-share-groups.sh';

/** `kafka-share-groups.sh --bootstrap-server … --group g --reset-offsets --to-… <scope> --dry-run|--execute`. */
export function shareResetOffsetsCommand(request: ResetRequest, options: ResetCommandOptions): string {
  const unsupported = shareScenarioError(request.scenario.kind, SHARE_RESET_SCENARIOS_4_4);
  if (unsupported) {
    throw new Error(unsupported);
  }
  return resetOffsetsCommand(request, { ...options, command: options.command ?? SHARE_GROUPS_COMMAND });
}

/** `kafka-share-groups.sh … --delete-offsets --group g --topic t…`: whole topics only. */
export function shareDeleteOffsetsCommand(groupId: string, topics: readonly string[], options: CliCommandOptions): string {
  return deleteOffsetsCommand(
    groupId,
    topics.map((topic) => ({ topic })),
    { ...options, command: options.command ?? SHARE_GROUPS_COMMAND },
  );
}

/** `kafka-share-groups.sh … --delete --group g`. */
export function shareDeleteGroupCommand(groupId: string, options: CliCommandOptions): string {
  return deleteGroupCommand(groupId, { ...options, command: options.command ?? SHARE_GROUPS_COMMAND });
}
