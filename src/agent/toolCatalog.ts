/**
 * The language-model tools by name, as package.json's `contributes.languageModelTools` declares them: what each
 * runs and says while running, and for the writes, the confirmation VS Code shows before it runs. The chat
 * adapter (src/chat/languageModelTools.ts) registers these; no `vscode` import here.
 */
import type { AgentTools, GroupInput, HistoryInput, SimulateInput } from './agentTools';
import type { AgentWrites, DeleteOffsetsInput, RemoveMemberInput, ToolCall, ToolConfirmation } from './agentWrites';
import type { ResetToolInput } from './planText';
import { capChars } from './toolText';

export interface AgentToolSpec {
  /** The tool's name, `kafkaGroupLens_<verb><Noun>`. */
  name: string;
  /** Shown while the tool runs. */
  progress(input: Record<string, unknown>): string;
  run(input: Record<string, unknown>, call: ToolCall): Promise<string>;
  /** Writes only: the preview the user confirms; the write then runs only that preview. */
  confirmation?(input: Record<string, unknown>): Promise<ToolConfirmation>;
}

export const TOOL_PREFIX = 'kafkaGroupLens_';

/** The model sends JSON; anything but an object is refused with what to send. */
export function toolInput(name: string, input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error(`${name} takes a JSON object as input (see its inputSchema)`);
  }
  return input as Record<string, unknown>;
}

function groupName(input: Record<string, unknown>): string {
  return typeof input.group === 'string' ? `"${input.group}"` : 'the group';
}

/** The read-only tools: none of them changes a cluster, so none asks for confirmation. */
export function readOnlyToolSpecs(tools: AgentTools): AgentToolSpec[] {
  const spec = (verb: string, progress: AgentToolSpec['progress'], run: (input: Record<string, unknown>) => Promise<string> | string): AgentToolSpec => ({
    name: `${TOOL_PREFIX}${verb}`,
    progress,
    run: async (input) => capChars(await run(input)),
  });
  return [
    spec('listGroups', (i) => `Listing consumer groups${typeof i.filter === 'string' && i.filter ? ` matching "${i.filter}"` : ''}`, (i) => tools.listGroups(i)),
    spec('describeGroup', (i) => `Describing consumer group ${groupName(i)}`, (i) => tools.describeGroup(i as unknown as GroupInput)),
    spec('rebalanceHistory', (i) => `Reading the rebalance history of ${groupName(i)}`, (i) => tools.rebalanceHistory(i as unknown as HistoryInput)),
    spec('explainLag', (i) => `Explaining the lag of ${groupName(i)}`, (i) => tools.explainLag(i as unknown as GroupInput)),
    spec('planReset', (i) => `Planning an offset reset of ${groupName(i)} (nothing is changed)`, (i) => tools.planReset(i as unknown as ResetToolInput)),
    spec('simulate', () => 'Running a scenario in the simulator, in virtual time', (i) => tools.simulate(i as unknown as SimulateInput)),
  ];
}

/** Preview and message both bounded: the confirmation shows the same capped preview the model would get. */
function cappedConfirmation(confirmation: ToolConfirmation): ToolConfirmation {
  return { title: confirmation.title, message: capChars(confirmation.message) };
}

/** The write tools: each shows its preview in VS Code's confirmation and acts only on that preview, from chat. */
export function writeToolSpecs(writes: AgentWrites): AgentToolSpec[] {
  return [
    {
      name: `${TOOL_PREFIX}executeReset`,
      progress: (i) => `Resetting the offsets of ${groupName(i)}`,
      confirmation: async (i) => cappedConfirmation(await writes.prepareReset(i as unknown as ResetToolInput)),
      run: async (i, call) => capChars(await writes.executeReset(i as unknown as ResetToolInput, call)),
    },
    {
      name: `${TOOL_PREFIX}deleteOffsets`,
      progress: (i) => `Deleting committed offsets of ${groupName(i)}`,
      confirmation: async (i) => cappedConfirmation(await writes.prepareDeleteOffsets(i as unknown as DeleteOffsetsInput)),
      run: async (i, call) => capChars(await writes.deleteOffsets(i as unknown as DeleteOffsetsInput, call)),
    },
    {
      name: `${TOOL_PREFIX}removeMember`,
      progress: (i) => `Removing static members from ${groupName(i)}`,
      confirmation: async (i) => cappedConfirmation(await writes.prepareRemoveMember(i as unknown as RemoveMemberInput)),
      run: async (i, call) => capChars(await writes.removeMember(i as unknown as RemoveMemberInput, call)),
    },
  ];
}
