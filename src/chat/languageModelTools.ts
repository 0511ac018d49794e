/**
 * Registers the agent tools (src/agent/toolCatalog.ts) with `vscode.lm.registerTool`, so the editor's AI agent can
 * call them. Editor glue only: answers become a LanguageModelTextPart; a write's preview becomes the
 * confirmation VS Code shows before the write's invoke runs.
 */
import * as vscode from 'vscode';
import { toolInput, type AgentToolSpec } from '../agent/toolCatalog';
import { errorMessage } from '../protocol/errors';

function registerSpec(spec: AgentToolSpec, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.lm.registerTool<unknown>(spec.name, {
    async prepareInvocation(options) {
      const input = toolInput(spec.name, options.input);
      const confirmation = await spec.confirmation?.(input);
      return {
        invocationMessage: spec.progress(input),
        ...(confirmation ? { confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) } } : {}),
      };
    },
    async invoke(options) {
      const input = toolInput(spec.name, options.input);
      try {
        const text = await spec.run(input, { fromChat: options.toolInvocationToken !== undefined });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      } catch (e) {
        // The message goes back to the model, which can fix its input and call again.
        log.info(`Tool ${spec.name}: ${errorMessage(e)}`);
        throw e;
      }
    },
  });
}

export function registerLanguageModelTools(specs: readonly AgentToolSpec[], log: vscode.LogOutputChannel): vscode.Disposable[] {
  return specs.map((spec) => registerSpec(spec, log));
}
