/**
 * The agent tools (src/agent) as an MCP server: the same tools, names, descriptions and input schemas as the
 * editor's. The low-level SDK Server, since the schemas are package.json's JSON Schema, not zod. A write has no
 * prepareInvocation here: its preview (the one VS Code's confirmation shows) is put to the user through the
 * client's elicitation, and the write runs only on "accept"; a client that cannot elicit gets the preview and a
 * refusal. Every failure becomes an isError result the model can act on.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CONFIRMATION_TTL_MS, type ToolConfirmation } from '../agent/agentWrites';
import type { AgentToolSpec } from '../agent/toolCatalog';
import { errorMessage } from '../protocol/errors';
import { inputProblems } from './inputCheck';
import type { StderrLog } from './stderrLog';
import type { McpToolDeclaration } from './toolDeclarations';

export interface McpServerDeps {
  declarations: readonly McpToolDeclaration[];
  specs: readonly AgentToolSpec[];
  log: StderrLog;
  /** Resolves when the clusters' first loads have ended, so that a first call finds their groups. */
  ready(): Promise<void>;
  version: string;
}

function text(body: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: body }], ...(isError ? { isError: true } : {}) };
}

/** What the user is asked: the confirmation VS Code shows, word for word, and what each answer does. */
export function confirmationPrompt(confirmation: ToolConfirmation): string {
  return `${confirmation.title}\n\n${confirmation.message}\n\nAccept to make this change; decline or cancel to change nothing.`;
}

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server({ name: 'kafka-group-lens', version: deps.version }, { capabilities: { tools: {} } });
  const specs = new Map(deps.specs.map((s) => [s.name, s]));
  for (const declaration of deps.declarations) {
    if (!specs.has(declaration.name)) {
      throw new Error(`package.json declares ${declaration.name}, which src/agent does not implement`);
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: deps.declarations.map((d) => ({ name: d.name, title: d.title, description: d.description, inputSchema: d.inputSchema, annotations: d.annotations })),
  }));

  /** A write: the preview to the user, then the write on "accept" only; `run` re-checks the preview as the panel does. */
  const confirmedWrite = async (spec: AgentToolSpec, input: Record<string, unknown>, confirmation: ToolConfirmation): Promise<CallToolResult> => {
    if (server.getClientCapabilities()?.elicitation?.form === undefined) {
      return text(
        `Not run: ${spec.name} changes the cluster, so it runs only after the user confirms its preview, and this MCP client cannot ask (it declares no elicitation capability). Nothing was changed. Run it from a client that supports elicitation, or from VS Code's chat. The preview:\n\n${confirmationPrompt(confirmation)}`,
        true,
      );
    }
    let answer;
    try {
      // As long as the kept preview lives: the user may take a while to read it.
      answer = await server.elicitInput({ message: confirmationPrompt(confirmation), requestedSchema: { type: 'object', properties: {} } }, { timeout: CONFIRMATION_TTL_MS });
    } catch (e) {
      return text(`Not run: the user's confirmation could not be had (${errorMessage(e)}). Nothing was changed.`, true);
    }
    if (answer.action !== 'accept') {
      deps.log.info(`Tool ${spec.name}: the user answered ${answer.action}; nothing was changed`);
      return text(`Not run: the user ${answer.action === 'decline' ? 'declined' : 'cancelled'} the change. Nothing was changed; do not call it again unless the user asks.`);
    }
    // The user accepted the preview in the client: the confirmation a chat invocation stands for in VS Code.
    return text(await spec.run(input, { fromChat: true }));
  };

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const args: unknown = request.params.arguments ?? {};
    const spec = specs.get(name);
    const declaration = deps.declarations.find((d) => d.name === name);
    if (!spec || !declaration) {
      return text(`No tool "${name}"; the tools are ${deps.declarations.map((d) => d.name).join(', ')}`, true);
    }
    const problems = inputProblems(args, declaration.inputSchema);
    if (problems.length > 0) {
      return text(`Bad input for ${name}:\n- ${problems.join('\n- ')}\nFix those and call again.`, true);
    }
    const input = args as Record<string, unknown>;
    try {
      await deps.ready();
      deps.log.info(spec.progress(input));
      if (spec.confirmation) {
        return await confirmedWrite(spec, input, await spec.confirmation(input));
      }
      return text(await spec.run(input, { fromChat: false }));
    } catch (e) {
      // The message goes back to the model, which can fix its input and call again.
      deps.log.info(`Tool ${name}: ${errorMessage(e)}`);
      return text(errorMessage(e), true);
    }
  });
  return server;
}
