// A stand-in for the editor's AI agent in the workbench tests, where no language model can be reached:
// a default chat participant that calls the tool its prompt names ({"tool": ..., "input": ...}) with the
// request's toolInvocationToken, as an agent does, so VS Code shows the tool's confirmation in the chat.
// Chat sends nothing without a language model, so it also registers one (the participant never asks it).
// Both need proposed APIs: the test runner starts code-server with --enable-proposed-api for this extension.
const vscode = require('vscode');

module.exports.activate = (context) => {
  const participant = vscode.chat.createChatParticipant('kgl-test.scripted', async (request, _context, stream, token) => {
    let call;
    try {
      call = JSON.parse(request.prompt);
    } catch {
      stream.markdown('Send `{"tool": "<name>", "input": {...}}`.');
      return;
    }
    try {
      const result = await vscode.lm.invokeTool(call.tool, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
      for (const part of result.content) {
        if (part instanceof vscode.LanguageModelTextPart) {
          stream.markdown(part.value);
        }
      }
    } catch (error) {
      stream.markdown(`Tool failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const model = vscode.lm.registerChatModelProvider(
    'kgl-scripted-model',
    {
      async provideLanguageModelResponse(_messages, _options, _extensionId, progress) {
        progress.report({ index: 0, part: new vscode.LanguageModelTextPart('(scripted)') });
      },
      async provideTokenCount(text) {
        return typeof text === 'string' ? Math.ceil(text.length / 4) : 1;
      },
    },
    { vendor: 'kgl-test', name: 'Scripted model', family: 'scripted', version: '1', maxInputTokens: 100000, maxOutputTokens: 1000, isDefault: true, isUserSelectable: true, capabilities: { toolCalling: true } },
  );
  context.subscriptions.push(participant, model);
};
