/**
 * The agent's write tools (execute a reset, delete committed offsets, remove static members). Each runs in two
 * calls, as VS Code makes them: `prepare` builds the preview the user confirms (the panel's own plan, or the
 * confirmation the tree's command would ask) and keeps it, single-use, for a few minutes; `run` acts only
 * from chat (where VS Code showed that preview) and only on a kept preview matching its input, through the same
 * flow as the tree's command, with its re-check and its undo record. No `vscode` import.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AdminPrompts, ConfirmOptions } from '../commands/adminPrompts';
import { deleteOffsetsFlow, keepDeletionUndo, offsetsAdminFor, removeStaticMembersFlow, type AdminOutcome } from '../commands/groupAdminFlows';
import type { PickItem } from '../commands/simulatorPrompts';
import type { GroupAdmin } from '../model/groupAdmin';
import { undoSnapshotKey, type UndoStore } from '../offsets/undo';
import { describeFailures, describeGroupChanges, executedResetSummary, executeReset, undoRecordSaver } from '../reset/resetFlow';
import type { RegisteredSource } from '../sources/sourceRegistry';
import type { AgentTools, GroupInput, PlannedResetTool } from './agentTools';
import type { ResetToolInput } from './planText';
import { boundLines } from './toolText';

/** How long a shown preview may be acted on: long enough to read it, short enough that it is still the group's. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;

/** What VS Code shows before a write runs: in chat, with Continue and Cancel. */
export interface ToolConfirmation {
  title: string;
  /** Markdown: the preview of what the write will change. */
  message: string;
}

/** How the call reached the tool: a `toolInvocationToken` means chat did, after its confirmation. */
export interface ToolCall {
  fromChat: boolean;
}

export interface DeleteOffsetsInput extends GroupInput {
  topic: string;
  /** None: every partition of the topic with a committed offset. */
  partitions?: number[];
}

export interface RemoveMemberInput extends GroupInput {
  instanceIds: string[];
}

export interface AgentWriteDeps {
  tools: AgentTools;
  /** The workspace's undo records (workspaceState), where "Undo Last Offset Change" reads them. */
  undoStore: UndoStore;
  /** Reloads the cluster's groups in the tree after a write. */
  refresh(sourceId: string): PromiseLike<void>;
  now?: () => number;
}

/**
 * Text shown as it is in the confirmation, which VS Code renders as markdown: a group id, a client id or a
 * warning may hold markup (`<b>x</b>`, `[link](…)`, `|`), and a preview must not render as something else.
 * A fenced block, its fence longer than any run of backticks inside, keeps every character literal.
 */
export function verbatimMarkdown(text: string): string {
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}text\n${text}\n${fence}`;
}

type Pending =
  | { tool: 'executeReset'; plan: PlannedResetTool }
  | { tool: 'deleteOffsets' | 'removeMember'; sourceId: string; confirm: ConfirmOptions };

/** The same input whatever the order of its keys: VS Code hands invoke the object prepareInvocation got. */
function inputKey(tool: string, input: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)])) : value;
  return `${tool}\n${JSON.stringify(sorted(input))}`;
}

/**
 * The questions of a tree command answered from the tool's input: the picks by label, the confirmation by
 * `confirm` (which records or compares it). A pick the input cannot answer throws, naming what there is.
 */
function promptsFromInput(answers: { topic?: string; partitions?: number[] }, confirm: (options: ConfirmOptions) => boolean): AdminPrompts {
  const labels = <T>(items: Array<PickItem<T>>): string => items.map((i) => i.label).join(', ');
  return {
    pickOne: <T>(items: Array<PickItem<T>>): Promise<T | undefined> => {
      const found = items.find((i) => i.label === answers.topic);
      return found ? Promise.resolve(found.value) : Promise.reject(new Error(`The group has no committed offsets on topic "${answers.topic ?? ''}"; its topics with offsets: ${labels(items)}`));
    },
    pickMany: <T>(items: Array<PickItem<T>>): Promise<T[] | undefined> => {
      const asked = answers.partitions?.map(String) ?? items.map((i) => i.label);
      const missing = asked.filter((p) => !items.some((i) => i.label === p));
      return missing.length > 0
        ? Promise.reject(new Error(`No committed offset for partition(s) ${missing.join(', ')} of "${answers.topic ?? ''}"; committed partitions: ${labels(items)}`))
        : Promise.resolve(items.filter((i) => asked.includes(i.label)).map((i) => i.value));
    },
    input: () => Promise.reject(new Error('This tool asks no free-text question')),
    confirm: (options) => Promise.resolve(confirm(options)),
    openFile: () => Promise.reject(new Error('This tool opens no file')),
  };
}

function outcomeText(outcome: AdminOutcome): string {
  return [outcome.summary, ...boundLines(outcome.lines.map((l) => `- ${l}`), 50, 'lines')].join('\n');
}

/**
 * Runs a flow with a confirmation that records what it asks and declines it, so the flow changes nothing: what
 * it asked is the preview to show.
 */
async function askedConfirmation<T>(what: string, flow: (confirm: (options: ConfirmOptions) => boolean) => Promise<T>): Promise<{ asked: ConfirmOptions; result: T }> {
  let asked: ConfirmOptions | undefined;
  const result = await flow((options) => {
    asked = options;
    return false;
  });
  if (!asked) {
    throw new Error(`${what} asked no confirmation; nothing to show`);
  }
  return { asked, result };
}

const RECHECK_NOTE = 'The group is read again before the change: nothing is written if it changed since this preview.';

export class AgentWrites {
  private readonly pending = new Map<string, { value: Pending; expiresAt: number }>();

  constructor(private readonly deps: AgentWriteDeps) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private keep(tool: string, input: unknown, value: Pending): void {
    const now = this.now();
    for (const [key, entry] of this.pending) {
      if (entry.expiresAt <= now) {
        this.pending.delete(key);
      }
    }
    this.pending.set(inputKey(tool, input), { value, expiresAt: now + CONFIRMATION_TTL_MS });
  }

  /** The kept preview for this input, used up; refuses a call outside chat, or one with no preview kept. */
  private take(tool: string, input: unknown, call: ToolCall): Pending {
    const key = inputKey(tool, input);
    const entry = this.pending.get(key);
    this.pending.delete(key);
    if (!call.fromChat) {
      throw new Error(`kafkaGroupLens_${tool} changes the cluster, so it runs only from chat, after the user confirmed its preview there. Nothing was changed.`);
    }
    if (!entry || entry.expiresAt <= this.now()) {
      throw new Error(`No confirmed preview of this ${tool} is waiting (each is used once and expires after ${CONFIRMATION_TTL_MS / 60_000} minutes). Nothing was changed; call the tool again so the user sees the preview.`);
    }
    return entry.value;
  }

  private adminOf(input: GroupInput): { entry: RegisteredSource; admin: GroupAdmin; groupId: string } {
    const entry = this.deps.tools.cluster(input.cluster, input.group);
    if (!entry.admin) {
      throw new Error(`Cluster "${entry.source.label}" cannot administer groups`);
    }
    if (typeof input.group !== 'string' || input.group.trim() === '') {
      throw new Error('"group" is required: the group id as listGroups shows it');
    }
    return { entry, admin: entry.admin, groupId: input.group.trim() };
  }

  async prepareReset(input: ResetToolInput): Promise<ToolConfirmation> {
    const plan = await this.deps.tools.planResetFor(input);
    if (!plan.preview.ok) {
      throw new Error(`${plan.text}\nNothing can be executed until the plan succeeds.`);
    }
    this.keep('executeReset', input, { tool: 'executeReset', plan });
    return { title: `Reset the offsets of "${plan.preview.request.groupId}" on "${plan.entry.source.label}"?`, message: `${verbatimMarkdown(plan.text)}\n\n${RECHECK_NOTE} "Undo Last Offset Change" on the group puts the previous offsets back.` };
  }

  async executeReset(input: ResetToolInput, call: ToolCall): Promise<string> {
    const pending = this.take('executeReset', input, call);
    if (pending.tool !== 'executeReset' || !pending.plan.preview.ok) {
      throw new Error('The kept preview is not a reset plan; nothing was changed');
    }
    const { entry, route, preview } = pending.plan;
    const groupId = preview.request.groupId;
    const outcome = await executeReset(route.admin, preview, {
      takenAt: this.now(),
      saveUndo: undoRecordSaver(this.deps.undoStore, undoSnapshotKey(entry.source.id, groupId), route.kind),
    });
    if (!outcome.ok) {
      return [`Not executed: ${groupId} changed since the preview. Call kafkaGroupLens_planReset again to see what the reset would commit now.`, ...describeGroupChanges(outcome.changes, 'previewed').map((l) => `- ${l}`)].join('\n');
    }
    await this.deps.refresh(entry.source.id);
    return [executedResetSummary(groupId, outcome), ...boundLines(describeFailures(outcome.results).map((l) => `- ${l}`), 50, 'failures')].join('\n');
  }

  /** Runs the tree's Delete Committed Offsets flow with the input's answers; `confirm` decides its confirmation. */
  private async deleteOffsetsWith(input: DeleteOffsetsInput, confirm: (options: ConfirmOptions) => boolean): Promise<{ outcome: AdminOutcome | undefined; sourceId: string; kind: ReturnType<typeof offsetsAdminFor>['kind'] }> {
    const { entry, admin, groupId } = this.adminOf(input);
    if (typeof input.topic !== 'string' || input.topic === '') {
      throw new Error('"topic" is required: the topic whose committed offsets to delete');
    }
    if (input.partitions !== undefined && (!Array.isArray(input.partitions) || input.partitions.length === 0 || !input.partitions.every(Number.isInteger))) {
      throw new Error('"partitions" must be a non-empty list of partition numbers, or left out for the whole topic');
    }
    const offsets = offsetsAdminFor(admin, groupId, (await entry.source.describeGroup(groupId)).groupType);
    const outcome = await deleteOffsetsFlow(promptsFromInput(input, confirm), offsets.admin, groupId, offsets.kind);
    return { outcome, sourceId: entry.source.id, kind: offsets.kind };
  }

  async prepareDeleteOffsets(input: DeleteOffsetsInput): Promise<ToolConfirmation> {
    const { asked, result } = await askedConfirmation('Delete Committed Offsets', (confirm) => this.deleteOffsetsWith(input, confirm));
    this.keep('deleteOffsets', input, { tool: 'deleteOffsets', sourceId: result.sourceId, confirm: asked });
    return { title: asked.message, message: `${verbatimMarkdown(asked.detail ?? '')}\n\n${RECHECK_NOTE}` };
  }

  async deleteOffsets(input: DeleteOffsetsInput, call: ToolCall): Promise<string> {
    const pending = this.take('deleteOffsets', input, call);
    if (pending.tool !== 'deleteOffsets') {
      throw new Error('The kept preview is not a deletion; nothing was changed');
    }
    // The flow's confirmation goes ahead only if it is the one the user saw: the same partitions and offsets.
    let differed: ConfirmOptions | undefined;
    const { outcome, kind } = await this.deleteOffsetsWith(input, (options) => {
      const same = isDeepStrictEqual(options, pending.confirm);
      differed = same ? undefined : options;
      return same;
    });
    if (!outcome) {
      return `Not executed: the group changed since the confirmation. Now: ${differed?.message ?? 'unknown'} ${differed?.detail ?? ''}\nCall the tool again so the user sees the new preview.`;
    }
    await keepDeletionUndo(this.deps.undoStore, undoSnapshotKey(pending.sourceId, input.group.trim()), kind, outcome);
    await this.deps.refresh(pending.sourceId);
    return outcomeText(outcome);
  }

  /** Runs the tree's Remove Static Members flow for the named members; `confirm` decides its confirmation. */
  private async removeMembersWith(input: RemoveMemberInput, confirm: (options: ConfirmOptions) => boolean): Promise<{ outcome: AdminOutcome | undefined; sourceId: string }> {
    const { entry, admin, groupId } = this.adminOf(input);
    if (!Array.isArray(input.instanceIds) || input.instanceIds.length === 0 || !input.instanceIds.every((id) => typeof id === 'string' && id !== '')) {
      throw new Error('"instanceIds" is required: the group.instance.id of each static member to remove');
    }
    const detail = await entry.source.describeGroup(groupId);
    const staticIds = detail.members.flatMap((m) => (m.groupInstanceId ? [m.groupInstanceId] : []));
    const unknown = input.instanceIds.filter((id) => !staticIds.includes(id));
    if (unknown.length > 0) {
      throw new Error(`"${groupId}" has no static member ${unknown.join(', ')}; its static members: ${staticIds.join(', ') || '(none: only members with a group.instance.id can be removed)'}`);
    }
    return { outcome: await removeStaticMembersFlow(promptsFromInput({}, confirm), admin, detail, input.instanceIds), sourceId: entry.source.id };
  }

  async prepareRemoveMember(input: RemoveMemberInput): Promise<ToolConfirmation> {
    const { asked, result } = await askedConfirmation('Remove Static Members', (confirm) => this.removeMembersWith(input, confirm));
    this.keep('removeMember', input, { tool: 'removeMember', sourceId: result.sourceId, confirm: asked });
    return { title: asked.message, message: verbatimMarkdown(asked.detail ?? '') };
  }

  async removeMember(input: RemoveMemberInput, call: ToolCall): Promise<string> {
    const pending = this.take('removeMember', input, call);
    if (pending.tool !== 'removeMember') {
      throw new Error('The kept preview is not a member removal; nothing was changed');
    }
    const { outcome } = await this.removeMembersWith(input, (options) => isDeepStrictEqual(options, pending.confirm));
    if (!outcome) {
      return 'Not executed: the removal differs from the one confirmed. Call the tool again so the user sees it.';
    }
    await this.deps.refresh(pending.sourceId);
    return outcomeText(outcome);
  }
}
