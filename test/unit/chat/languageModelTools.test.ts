/**
 * The chat adapter under the `vscode` stub: the tools VS Code gets, called as VS Code calls them (prepareInvocation,
 * then invoke), over the demo simulator. The write tools' confirmation and refusal are tested here too.
 */
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { AgentTools } from '../../../src/agent/agentTools';
import type { AgentToolSpec } from '../../../src/agent/toolCatalog';
import { AgentWrites } from '../../../src/agent/agentWrites';
import { readOnlyToolSpecs, writeToolSpecs } from '../../../src/agent/toolCatalog';
import type { GroupSummary } from '../../../src/model/types';
import { GroupHealthTracker } from '../../../src/views/groupHealthTracker';
import { demoAdmin, type SimAdminFixture } from '../commands/simAdminFixture';
import { installVscodeStubForSuite, LanguageModelTextPart, StubHost, type FakeLanguageModelTool } from '../views/vscodeStub';

interface AdapterModule {
  registerLanguageModelTools(specs: readonly AgentToolSpec[], log: unknown): Array<{ dispose(): unknown }>;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { languageModelTools: Array<{ name: string; when?: string; toolReferenceName: string; modelDescription: string; inputSchema: { required?: string[]; properties: Record<string, unknown> } }> };
};

const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, trace: () => undefined };

/** The text of a tool's answer. */
function answerText(result: { content: unknown[] }): string {
  return result.content.map((part) => (part instanceof LanguageModelTextPart ? part.value : '')).join('');
}

describe('chat/languageModelTools under the vscode stub', () => {
  let host: StubHost;
  let uninstall: () => void;
  let fx: SimAdminFixture;
  let tools: AgentTools;
  let tree: GroupSummary[];
  let registrations: Array<{ dispose(): unknown }>;

  const tool = (name: string): FakeLanguageModelTool => {
    const found = host.languageModelTools.get(name);
    assert.ok(found, `${name} is registered`);
    return found;
  };

  let adapter: AdapterModule;

  before(() => {
    // The adapter binds `vscode` when loaded: loaded here, under this stub, and dropped after.
    host = new StubHost();
    uninstall = installVscodeStubForSuite(host);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub is installed
    adapter = require('../../../src/chat/languageModelTools') as AdapterModule;
  });

  after(() => uninstall());

  beforeEach(async () => {
    fx = demoAdmin();
    tree = await new GroupHealthTracker(() => fx.source.simulation.now).load(fx.source);
    tools = new AgentTools({ sources: () => [{ source: fx.source, admin: fx.admin }], loadedGroups: () => [{ sourceId: fx.source.id, label: fx.source.label, groups: tree }] });
    const writes = new AgentWrites({ tools, undoStore: { get: () => undefined, update: () => Promise.resolve() }, refresh: () => Promise.resolve() });
    registrations = adapter.registerLanguageModelTools([...readOnlyToolSpecs(tools), ...writeToolSpecs(writes)], log);
  });

  afterEach(async () => {
    registrations.forEach((r) => r.dispose());
    tools.dispose();
    await fx.source.dispose();
  });

  it('registers every declared tool', () => {
    assert.deepEqual([...host.languageModelTools.keys()].sort(), manifest.contributes.languageModelTools.map((t) => t.name).sort());
  });

  it('shows a write\'s preview as its confirmation, and refuses its invoke without a chat token', async () => {
    const executeReset = tool('kafkaGroupLens_executeReset');
    const input = { group: 'billing-archive', scenario: 'to-earliest' };
    const before = await fx.admin.committedOffsets('billing-archive');
    const prepared = await executeReset.prepareInvocation?.({ input }, undefined);
    assert.match(prepared?.confirmationMessages?.title ?? '', /Reset the offsets of "billing-archive"/);
    assert.match(prepared?.confirmationMessages?.message.value ?? '', /\| legacy-events \| 2 \| 250 \| 0 \| -250 \|/);
    await assert.rejects(executeReset.invoke({ input, toolInvocationToken: undefined }, undefined), /runs only from chat/);
    assert.deepEqual(await fx.admin.committedOffsets('billing-archive'), before);
    await executeReset.prepareInvocation?.({ input }, undefined);
    const done = answerText(await executeReset.invoke({ input, toolInvocationToken: {} }, undefined));
    assert.match(done, /Committed 3 offset\(s\) of billing-archive/);
  });

  it('offers the tools that need a cluster only while one is registered (their when clause); simulate needs none', () => {
    for (const declared of manifest.contributes.languageModelTools) {
      assert.equal(declared.when, declared.name === 'kafkaGroupLens_simulate' ? undefined : 'kafkaGroupLens.hasClusters', declared.name);
    }
  });

  it('declares every registered tool in package.json with a reference name, a model description and a schema', () => {
    for (const name of host.languageModelTools.keys()) {
      const declared = manifest.contributes.languageModelTools.find((t) => t.name === name);
      assert.ok(declared, `${name} is in contributes.languageModelTools`);
      assert.ok(declared.toolReferenceName && declared.modelDescription.length > 80, `${name} tells the model what it does`);
      for (const required of declared.inputSchema.required ?? []) {
        assert.ok(required in declared.inputSchema.properties, `${name}'s required "${required}" is a property`);
      }
    }
    registrations.forEach((r) => r.dispose());
    assert.equal(host.languageModelTools.size, 0, 'disposing unregisters');
    registrations = [];
  });

  it('answers listGroups with the tree rows, and a read-only tool asks no confirmation', async () => {
    const listGroups = tool('kafkaGroupLens_listGroups');
    const prepared = await listGroups.prepareInvocation?.({ input: { filter: 'state:empty' } }, undefined);
    assert.equal(prepared?.confirmationMessages, undefined);
    assert.match(String(prepared?.invocationMessage), /matching "state:empty"/);
    const text = answerText(await listGroups.invoke({ input: { filter: 'state:empty' }, toolInvocationToken: undefined }, undefined));
    const archive = tree.find((g) => g.groupId === 'billing-archive');
    assert.ok(archive);
    assert.match(text, new RegExp(`- billing-archive \\[simple\\] Empty, members 0, lag ${archive.totalLag}`));
  });

  it('refuses input that is not an object, and passes input errors on to the model', async () => {
    await assert.rejects(tool('kafkaGroupLens_describeGroup').invoke({ input: 'orders', toolInvocationToken: undefined }, undefined), /takes a JSON object/);
    await assert.rejects(tool('kafkaGroupLens_describeGroup').invoke({ input: {}, toolInvocationToken: undefined }, undefined), /"group" is required/);
  });
});
