/**
 * Which tool's semantics a group's reset follows, by its type: kafka-consumer-groups.sh for classic and
 * consumer groups, kafka-share-groups.sh for share groups (start offsets, AlterShareGroupOffsets) and
 * kafka-streams-groups.sh for streams groups (input-topic scopes; offsets committed as a consumer group's).
 */
import type { GroupAdmin } from '../model/groupAdmin';
import type { GroupDetail } from '../model/types';
import { resetOffsetsCommand, type ResetCommandOptions } from '../offsets/cliCommand';
import { inactiveGroupError, type ResetRequest, type ResetScenarioKind } from '../offsets/resetPlan';
import type { ResetPreview } from '../offsets/resetPreview';
import { shareGroupOffsetsAdmin } from '../offsets/shareAdmin';
import { shareResetOffsetsCommand } from '../offsets/shareCli';
import { SHARE_RESET_SCENARIOS_4_4, shareGroupNotEmptyError } from '../offsets/shareReset';
import type { GroupState } from '../model/types';
import { planStreamsReset, STREAMS_GROUPS_COMMAND, STREAMS_SCOPE_FLAGS } from '../offsets/streamsReset';
import { previewRows } from '../offsets/resetPreview';
import { gatherResetFacts, previewReset, type CancelSignal } from './resetFlow';
import { previewShareReset } from './shareResetFlow';

export interface ResetRoute {
  kind: 'consumer' | 'share' | 'streams';
  /** The admin the flow drives: for a share group its start offsets stand for committed offsets. */
  admin: GroupAdmin;
  /** The scenarios the tool has; undefined: all eight of kafka-consumer-groups.sh. */
  scenarios?: readonly ResetScenarioKind[];
  refusal(groupId: string, state: GroupState | 'missing'): string | null;
  preview(request: ResetRequest, signal?: CancelSignal): Promise<ResetPreview>;
  cliCommand(request: ResetRequest, options: ResetCommandOptions): string;
}

/** The source topics of a streams group's topology (its --all-input-topics). */
function sourceTopicsOf(group: Pick<GroupDetail, 'streamsGroup'>): string[] {
  return [...new Set(group.streamsGroup?.topology?.subtopologies.flatMap((s) => s.sourceTopics) ?? [])];
}

/** The route of a group of that type on that cluster. */
export function resetRoute(group: Pick<GroupDetail, 'groupType' | 'streamsGroup'>, admin: GroupAdmin, groupId: string): ResetRoute {
  if (group.groupType === 'share') {
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
  if (group.groupType === 'streams') {
    const sourceTopics = sourceTopicsOf(group);
    return {
      kind: 'streams',
      admin,
      refusal: inactiveGroupError,
      preview: async (request, signal): Promise<ResetPreview> => {
        const gathered = await gatherResetFacts(admin, request, signal);
        if (!gathered.ok) {
          return { ok: false, request, error: gathered.error };
        }
        const plan = await planStreamsReset(request, { ...gathered.facts, sourceTopics });
        return plan.ok ? { ok: true, request, groupState: gathered.facts.groupState, rows: previewRows(plan.rows), warnings: plan.warnings } : { ok: false, request, error: plan.error };
      },
      cliCommand: (request, options) => resetOffsetsCommand(request, { ...options, command: options.command ?? STREAMS_GROUPS_COMMAND, scopeFlags: STREAMS_SCOPE_FLAGS }),
    };
  }
  return {
    kind: 'consumer',
    admin,
    refusal: inactiveGroupError,
    preview: (request, signal) => previewReset(admin, request, signal),
    cliCommand: resetOffsetsCommand,
  };
}
