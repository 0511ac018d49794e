/**
 * Which tool's semantics a group's reset follows, by its type: kafka-consumer-groups.sh for classic and
 * consumer groups, kafka-share-groups.sh for share groups (start offsets, AlterShareGroupOffsets). Streams
 * groups are refused with a clear message rather than reset with the wrong semantics.
 */
import type { GroupAdmin } from '../model/groupAdmin';
import type { GroupSummary } from '../model/types';
import { resetOffsetsCommand, type ResetCommandOptions } from '../offsets/cliCommand';
import { inactiveGroupError, type ResetRequest, type ResetScenarioKind } from '../offsets/resetPlan';
import type { ResetPreview } from '../offsets/resetPreview';
import { shareGroupOffsetsAdmin } from '../offsets/shareAdmin';
import { shareResetOffsetsCommand } from '../offsets/shareCli';
import { SHARE_RESET_SCENARIOS_4_4, shareGroupNotEmptyError } from '../offsets/shareReset';
import type { GroupState } from '../model/types';
import { previewReset, type CancelSignal } from './resetFlow';
import { previewShareReset } from './shareResetFlow';

export interface ResetRoute {
  kind: 'consumer' | 'share';
  /** The admin the flow drives: for a share group its start offsets stand for committed offsets. */
  admin: GroupAdmin;
  /** The scenarios the tool has; undefined: all eight of kafka-consumer-groups.sh. */
  scenarios?: readonly ResetScenarioKind[];
  refusal(groupId: string, state: GroupState | 'missing'): string | null;
  preview(request: ResetRequest, signal?: CancelSignal): Promise<ResetPreview>;
  cliCommand(request: ResetRequest, options: ResetCommandOptions): string;
}

/** The route of a group of that type on that cluster; throws for a type whose reset is not built. */
export function resetRoute(groupType: GroupSummary['groupType'] | 'share', admin: GroupAdmin, groupId: string): ResetRoute {
  if (groupType === 'share') {
    const shareAdmin = shareGroupOffsetsAdmin(admin, groupId);
    return {
      kind: 'share',
      admin: shareAdmin,
      scenarios: SHARE_RESET_SCENARIOS_4_4,
      refusal: shareGroupNotEmptyError,
      preview: (request, signal) => previewShareReset(shareAdmin, request, signal),
      cliCommand: shareResetOffsetsCommand,
    };
  }
  if (groupType === 'streams') {
    throw new Error(`"${groupId}" is a streams group: its offsets are reset with kafka-streams-groups.sh --reset-offsets (Kafka 4.2+), which this extension does not run yet`);
  }
  return {
    kind: 'consumer',
    admin,
    refusal: inactiveGroupError,
    preview: (request, signal) => previewReset(admin, request, signal),
    cliCommand: resetOffsetsCommand,
  };
}
