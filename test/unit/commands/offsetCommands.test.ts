/**
 * The offset commands' editor glue under the `vscode` stub, against the real simulator in virtual time:
 * the preview panel's messages, Execute, the workspace-state snapshot, Undo, the CSV export and the CLI
 * line on the clipboard.
 */
import { strict as assert } from 'assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { PreviewHostMessage } from '../../../src/webview/resetPreviewProtocol';
import type { SourceRegistry } from '../../../src/views/sourceRegistry';
import type { GroupNode, MemberNode, TreeNode } from '../../../src/views/treeNodes';
import { FakeMemento, installVscodeStub, StubHost, Uri, type FakeWebviewPanel } from '../views/vscodeStub';
import { ScriptedAdminPrompts } from './scriptedAdminPrompts';
import { demoAdmin, type SimAdminFixture } from './simAdminFixture';

type OffsetCommandsModule = typeof import('../../../src/commands/offsetCommands');
type RegistryModule = typeof import('../../../src/views/sourceRegistry');
type CommandIdsModule = typeof import('../../../src/commands/commandIds');

/** Re-checks between event-loop turns until the async handlers (file writes included) have done something. */
async function settle<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = probe();
    if (value !== undefined) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Never happened: ${what}`);
}

function posted<K extends PreviewHostMessage['type']>(panel: FakeWebviewPanel, type: K): Array<Extract<PreviewHostMessage, { type: K }>> {
  return (panel.posted as PreviewHostMessage[]).filter((m): m is Extract<PreviewHostMessage, { type: K }> => m.type === type);
}

describe('commands/offsetCommands (vscode stub, simulator)', () => {
  let host: StubHost;
  let uninstall: () => void;
  let fx: SimAdminFixture;
  let registry: SourceRegistry;
  let workspaceState: FakeMemento;
  let prompts: ScriptedAdminPrompts;
  let COMMANDS: CommandIdsModule['COMMANDS'];
  let undoSnapshotKey: OffsetCommandsModule['undoSnapshotKey'];
  let disposables: Array<{ dispose(): unknown }>;
  let tmp: string;

  const groupNode = async (groupId: string): Promise<GroupNode> => {
    const detail = await fx.source.describeGroup(groupId);
    return { kind: 'group', id: groupId, sourceId: fx.source.id, sourceKind: 'simulator', summary: detail };
  };
  const run = (id: string, node: TreeNode): Promise<unknown> => Promise.resolve(host.commands.get(id)?.(node));

  let registerOffsetCommands: OffsetCommandsModule['registerOffsetCommands'];
  let Registry: RegistryModule['SourceRegistry'];
  let cachedBefore: Set<string>;

  before(() => {
    cachedBefore = new Set(Object.keys(require.cache));
    host = new StubHost();
    uninstall = installVscodeStub(host);
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is installed */
    ({ registerOffsetCommands, undoSnapshotKey } = require('../../../src/commands/offsetCommands') as OffsetCommandsModule);
    ({ SourceRegistry: Registry } = require('../../../src/views/sourceRegistry') as RegistryModule);
    COMMANDS = (require('../../../src/commands/commandIds') as CommandIdsModule).COMMANDS;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => {
    uninstall();
    // Modules loaded here hold this stub host; later suites (activation) must load their own copies.
    for (const id of Object.keys(require.cache)) {
      if (!cachedBefore.has(id)) {
        delete require.cache[id];
      }
    }
  });

  beforeEach(() => {
    for (const list of [host.errorMessages, host.infoMessages, host.warningMessages, host.clipboard, host.webviewPanels, host.answers]) {
      list.length = 0;
    }
    fx = demoAdmin();
    registry = new Registry();
    registry.add({ source: fx.source, control: fx.source.control, admin: fx.admin });
    workspaceState = new FakeMemento();
    prompts = new ScriptedAdminPrompts([]);
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as import('vscode').LogOutputChannel;
    disposables = registerOffsetCommands({
      registry,
      view: { refreshSource: async () => undefined },
      log,
      context: { workspaceState, extensionUri: Uri.file('/ext') } as unknown as Pick<import('vscode').ExtensionContext, 'workspaceState' | 'extensionUri'>,
      prompts: {
        pickOne: (items, options) => prompts.pickOne(items, options),
        pickMany: (items, options) => prompts.pickMany(items, options),
        input: (options) => prompts.input(options),
        confirm: (options) => prompts.confirm(options),
        openFile: (options) => prompts.openFile(options),
      },
    });
    tmp = mkdtempSync(join(tmpdir(), 'kgl-reset-'));
  });

  afterEach(async () => {
    disposables.forEach((d) => d.dispose());
    await registry.disposeAll();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('previews, executes, snapshots and undoes a reset through the panel', async () => {
    prompts = new ScriptedAdminPrompts([{ pick: 'Shift By…' }, { input: '-100' }, { pick: 'All topics' }], [true]);
    const node = await groupNode('billing-archive');
    await run(COMMANDS.resetOffsets, node);
    assert.deepEqual(host.errorMessages, []);
    const [panel] = host.webviewPanels;
    assert.equal(panel.title, 'Reset Offsets: billing-archive');
    assert.equal(panel.options.enableScripts, true);
    assert.deepEqual(panel.options.localResourceRoots?.map(String), ['file:///ext/media/resetPreview']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(panel.html)?.[1];
    assert.ok(nonce && panel.html.includes(`<script nonce="${nonce}" src="file:///ext/media/resetPreview/main.js">`));

    panel.receive({ type: 'ready' });
    const [preview] = posted(panel, 'preview');
    assert.deepEqual(
      { scenario: preview.preview.scenario, scope: preview.preview.scope, state: preview.preview.groupState },
      { scenario: '--shift-by -100', scope: '--all-topics', state: 'Empty' },
    );
    assert.deepEqual(preview.preview.rows.map((r) => [r.partition, r.current, r.next, r.difference]), [
      [0, '700', '600', '-100'],
      [1, '1000', '900', '-100'],
      [2, '250', '150', '-100'],
    ]);

    panel.receive({ type: 'action', action: 'copyDryRun' });
    const dryRun = await settle('the dry-run CLI line', () => host.clipboard[0]);
    assert.equal(
      dryRun,
      'kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:9092,127.0.0.1:9093,127.0.0.1:9094 --group billing-archive --reset-offsets --shift-by -100 --all-topics --dry-run',
    );

    panel.receive({ type: 'action', action: 'execute' });
    const [results] = await settle('the results', () => (posted(panel, 'results').length ? posted(panel, 'results') : undefined));
    assert.deepEqual(results.rows.map((r) => [r.partition, r.ok, r.status]), [
      [0, true, 'committed 600'],
      [1, true, 'committed 900'],
      [2, true, 'committed 150'],
    ]);
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.offset), [600, 900, 150]);
    const key = undoSnapshotKey(fx.source.id, 'billing-archive');
    assert.ok(workspaceState.get(key), 'the before-snapshot is stored');

    await run(COMMANDS.undoLastReset, node);
    assert.deepEqual(host.errorMessages, []);
    assert.equal(prompts.confirmations[0].detail, 'legacy-events-0: 600 → 700\nlegacy-events-1: 900 → 1000\nlegacy-events-2: 150 → 250');
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.offset), [700, 1000, 250]);
    assert.equal(workspaceState.get(key), undefined, 'a completed undo forgets the snapshot');
    assert.deepEqual(host.infoMessages, ['Restored 3 offset(s) of billing-archive']);
  });

  it('exports the plan in the CLI --export format', async () => {
    prompts = new ScriptedAdminPrompts([{ pick: 'To Earliest' }, { pick: 'Specific partitions…' }, { input: 'legacy-events:2' }]);
    await run(COMMANDS.resetOffsets, await groupNode('billing-archive'));
    const [panel] = host.webviewPanels;
    const file = join(tmp, 'plan.csv');
    host.answers.push(file);
    panel.receive({ type: 'action', action: 'exportCsv' });
    await settle('the export', () => (host.infoMessages.length ? true : undefined));
    assert.equal(readFileSync(file, 'utf8'), 'legacy-events,2,0\n');
  });

  it('imports a CSV plan: a bad row is reported with its line, a good file previews and copies as --from-file', async () => {
    const bad = join(tmp, 'bad.csv');
    writeFileSync(bad, 'legacy-events,0,5\nlegacy-events,-1,6\n');
    prompts = new ScriptedAdminPrompts([], [], [bad]);
    await run(COMMANDS.importResetPlan, await groupNode('billing-archive'));
    assert.deepEqual(host.errorMessages, [`Import Reset Plan from CSV failed: ${bad}: Line 2: partition '-1' is not a partition number (a whole number from 0)`]);
    assert.equal(host.webviewPanels.length, 0, 'no preview for a bad file');

    const good = join(tmp, 'plan.csv');
    writeFileSync(good, 'legacy-events,0,5\nlegacy-events,2,2000\n');
    prompts = new ScriptedAdminPrompts([], [], [good]);
    await run(COMMANDS.importResetPlan, await groupNode('billing-archive'));
    const [panel] = host.webviewPanels;
    panel.receive({ type: 'ready' });
    const [preview] = posted(panel, 'preview');
    assert.deepEqual([preview.preview.scenario, preview.preview.scope], [`--from-file ${good}`, 'the rows of the file']);
    assert.deepEqual(preview.preview.rows.map((r) => [r.partition, r.current, r.next, r.warning]), [
      [0, '700', '5', ''],
      [2, '250', '1000', 'New offset (2000) is higher than latest offset for topic partition legacy-events-2. Value will be set to 1000'],
    ]);
    panel.receive({ type: 'action', action: 'copyExecute' });
    const line = await settle('the execute CLI line', () => host.clipboard[0]);
    assert.ok(line.endsWith(`--group billing-archive --reset-offsets --from-file ${good} --execute`), line);
  });

  it('refuses an active group with the CLI sentence before asking anything', async () => {
    await run(COMMANDS.resetOffsets, await groupNode('orders-processor'));
    assert.deepEqual(host.errorMessages, [
      "Reset Offsets failed: Assignments can only be reset if the group 'orders-processor' is inactive, but the current state is Stable.",
    ]);
    assert.deepEqual(prompts.asked, []);
    assert.equal(host.webviewPanels.length, 0);
  });

  it('says there is nothing to undo when no reset was made here', async () => {
    await run(COMMANDS.undoLastReset, await groupNode('billing-archive'));
    assert.deepEqual(host.errorMessages, ['Undo Last Offset Change failed: No offset reset or deletion of billing-archive on Simulator (demo) to undo in this workspace']);
  });

  it('removes a static member from its member row', async () => {
    prompts = new ScriptedAdminPrompts([], [true]);
    const detail = await fx.source.describeGroup('payments-audit');
    const member = detail.members.find((m) => m.groupInstanceId === 'payments-audit-b');
    assert.ok(member);
    const row: MemberNode = { kind: 'member', id: 'm', sourceId: fx.source.id, sourceKind: 'simulator', groupId: 'payments-audit', member, partitions: [] };
    await run(COMMANDS.removeStaticMember, row);
    assert.deepEqual(host.errorMessages, []);
    assert.deepEqual(host.infoMessages, ["Removed 1 static member(s) from 'payments-audit'; the group rebalances"]);
  });

  it('shows refused offset deletions as a warning naming each partition', async () => {
    const committed = (await fx.admin.committedOffsets('orders-processor')).filter((c) => c.topic === 'orders');
    prompts = new ScriptedAdminPrompts([{ pick: 'orders' }, { pickMany: committed.slice(0, 2).map((c) => String(c.partition)) }], [true]);
    await run(COMMANDS.deleteOffsets, await groupNode('orders-processor'));
    const [p0, p1] = committed.map((c) => c.partition);
    assert.deepEqual(host.warningMessages, [
      `2 of 2 offset(s) of 'orders-processor' on orders were not deleted. orders-${p0}: GROUP_SUBSCRIBED_TO_TOPIC; orders-${p1}: GROUP_SUBSCRIBED_TO_TOPIC`,
    ]);
  });

  it('undoes an offset deletion by committing the deleted offsets again', async () => {
    const before = await fx.admin.committedOffsets('billing-archive');
    prompts = new ScriptedAdminPrompts([{ pick: 'legacy-events' }, { pickMany: ['0', '2'] }], [true, true]);
    const node = await groupNode('billing-archive');
    await run(COMMANDS.deleteOffsets, node);
    assert.deepEqual(host.errorMessages, []);
    assert.deepEqual(host.infoMessages, [`Deleted 2 committed offset(s) of 'billing-archive' on legacy-events. "Undo Last Offset Change" on the group commits them again`]);
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.partition), [1]);

    await run(COMMANDS.undoLastReset, node);
    assert.deepEqual(host.errorMessages, []);
    assert.equal(prompts.confirmations[1].detail, `legacy-events-0: (no offset) → ${before[0].offset}\nlegacy-events-2: (no offset) → ${before[2].offset}`);
    assert.deepEqual(await fx.admin.committedOffsets('billing-archive'), before);
    assert.equal(workspaceState.get(undoSnapshotKey(fx.source.id, 'billing-archive')), undefined);
  });
});
