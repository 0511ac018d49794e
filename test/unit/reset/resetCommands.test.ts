/**
 * The offset commands' editor glue under the `vscode` stub, against the real simulator in virtual time:
 * the preview panel's messages, Execute, the workspace-state snapshot, Undo, the CSV export and the CLI
 * line on the clipboard.
 */
import { strict as assert } from 'assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { PreviewHostMessage } from '../../../src/reset/resetPreviewProtocol';
import type { SourceRegistry } from '../../../src/sources/sourceRegistry';
import type { GroupNode, MemberNode, TreeNode } from '../../../src/views/treeNodes';
import { FakeMemento, installVscodeStub, StubHost, Uri, type FakeWebviewPanel } from '../views/vscodeStub';
import { SimulatorExposures } from '../../../src/commands/simulatorExposures';
import type { OffsetSnapshot } from '../../../src/offsets/undo';
import { FaultyAdmin } from '../commands/faultyAdmin';
import { ScriptedAdminPrompts } from '../commands/scriptedAdminPrompts';
import { ScriptedPrompts } from '../commands/scriptedPrompts';
import { demoAdmin, type SimAdminFixture } from '../commands/simAdminFixture';

type ResetCommandsModule = typeof import('../../../src/reset/resetCommands');
type GroupAdminCommandsModule = typeof import('../../../src/commands/groupAdminCommands');
type GroupTargetModule = typeof import('../../../src/commands/groupTarget');
type RegistryModule = typeof import('../../../src/sources/sourceRegistry');
type CommandIdsModule = typeof import('../../../src/constants');
type ExposeModule = typeof import('../../../src/commands/exposeCommands');
type VscodeWindow = typeof import('vscode')['window'];

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

describe('reset/resetCommands and the group-administration commands (vscode stub, simulator)', () => {
  let host: StubHost;
  let uninstall: () => void;
  let fx: SimAdminFixture;
  let registry: SourceRegistry;
  let workspaceState: FakeMemento;
  let prompts: ScriptedAdminPrompts;
  let COMMANDS: CommandIdsModule['COMMANDS'];
  let undoSnapshotKey: GroupTargetModule['undoSnapshotKey'];
  let disposables: Array<{ dispose(): unknown }>;
  let tmp: string;
  let admin: FaultyAdmin;
  let exposures: SimulatorExposures;
  let log: import('vscode').LogOutputChannel;

  const groupNode = async (groupId: string): Promise<GroupNode> => {
    const detail = await fx.source.describeGroup(groupId);
    return { kind: 'group', id: groupId, sourceId: fx.source.id, sourceKind: 'simulator', summary: detail };
  };
  const run = (id: string, node: TreeNode): Promise<unknown> => Promise.resolve(host.commands.get(id)?.(node));
  /** What the group picker answers when Reset Offsets… runs with no row (the palette, a walkthrough link), and the titles it was asked with. */
  let pickedGroups: Array<{ sourceId: string; groupId: string } | undefined> = [];
  let picks: string[] = [];

  let registerResetCommands: ResetCommandsModule['registerResetCommands'];
  let registerGroupAdminCommands: GroupAdminCommandsModule['registerGroupAdminCommands'];
  let registerExposeCommands: ExposeModule['registerExposeCommands'];
  let vscodeWindow: VscodeWindow;
  let Registry: RegistryModule['SourceRegistry'];
  let cachedBefore: Set<string>;

  before(() => {
    cachedBefore = new Set(Object.keys(require.cache));
    host = new StubHost();
    uninstall = installVscodeStub(host);
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is installed */
    ({ registerResetCommands } = require('../../../src/reset/resetCommands') as ResetCommandsModule);
    ({ registerGroupAdminCommands } = require('../../../src/commands/groupAdminCommands') as GroupAdminCommandsModule);
    ({ undoSnapshotKey } = require('../../../src/commands/groupTarget') as GroupTargetModule);
    ({ SourceRegistry: Registry } = require('../../../src/sources/sourceRegistry') as RegistryModule);
    COMMANDS = (require('../../../src/constants') as CommandIdsModule).COMMANDS;
    ({ registerExposeCommands } = require('../../../src/commands/exposeCommands') as ExposeModule);
    vscodeWindow = (require('vscode') as typeof import('vscode')).window;
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
    admin = new FaultyAdmin(fx.admin);
    registry = new Registry();
    registry.add({ source: fx.source, control: fx.source.control, admin });
    workspaceState = new FakeMemento();
    prompts = new ScriptedAdminPrompts([]);
    exposures = new SimulatorExposures();
    log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as import('vscode').LogOutputChannel;
    pickedGroups = [];
    picks = [];
    const deps: Parameters<ResetCommandsModule['registerResetCommands']>[0] = {
      exposures,
      pickGroup: (title) => {
        picks.push(title);
        return Promise.resolve(pickedGroups.shift());
      },
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
    };
    disposables = [...registerResetCommands(deps), ...registerGroupAdminCommands(deps)];
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
    assert.deepEqual(panel.options.localResourceRoots?.map(String), ['file:///ext/dist/webview', 'file:///ext/media']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(panel.html)?.[1];
    assert.ok(nonce && panel.html.includes(`<script nonce="${nonce}" src="file:///ext/dist/webview/resetPreview.js">`));

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
    assert.deepEqual(posted(panel, 'status').at(-1), { type: 'status', text: results.summary, busy: false });

    await run(COMMANDS.undoLastReset, node);
    assert.deepEqual(host.errorMessages, []);
    assert.equal(prompts.confirmations[0].detail, 'legacy-events-0: 600 → 700\nlegacy-events-1: 900 → 1000\nlegacy-events-2: 150 → 250');
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.offset), [700, 1000, 250]);
    assert.equal(workspaceState.get(key), undefined, 'a completed undo forgets the snapshot');
    assert.deepEqual(host.infoMessages, ['Restored 3 offset(s) of billing-archive']);
  });

  it('asks for the group when Reset Offsets… runs with no row, previews the picked one, and does nothing when the pick is dismissed', async () => {
    pickedGroups = [undefined];
    await run(COMMANDS.resetOffsets, undefined as unknown as TreeNode);
    assert.deepEqual(picks, ['Reset Offsets of Consumer Group']);
    assert.deepEqual([host.errorMessages, host.webviewPanels.length, prompts.asked.length], [[], 0, 0], 'a dismissed pick asks nothing and opens nothing');

    prompts = new ScriptedAdminPrompts([{ pick: 'Shift By…' }, { input: '-100' }, { pick: 'All topics' }], [true]);
    pickedGroups = [{ sourceId: fx.source.id, groupId: 'billing-archive' }];
    await run(COMMANDS.resetOffsets, undefined as unknown as TreeNode);
    assert.deepEqual(host.errorMessages, []);
    const [panel] = host.webviewPanels;
    assert.equal(panel.title, 'Reset Offsets: billing-archive');
    panel.receive({ type: 'ready' });
    assert.deepEqual(posted(panel, 'preview')[0].preview.rows.map((r) => [r.partition, r.current, r.next]), [[0, '700', '600'], [1, '1000', '900'], [2, '250', '150']]);
  });

  it('resets one partition from its row: only that partition is previewed, committed and undone', async () => {
    prompts = new ScriptedAdminPrompts([{ pick: 'Shift By…' }, { input: '-100' }], [true]);
    const partition: TreeNode = {
      kind: 'partition',
      id: 'billing-archive/legacy-events-1',
      group: { sourceId: fx.source.id, groupId: 'billing-archive' },
      offsets: { topic: 'legacy-events', partition: 1, committedOffset: 1000, logStartOffset: 0, logEndOffset: 2000, lag: 1000, ownerMemberId: null },
      role: 'unassigned',
    };
    await run(COMMANDS.resetPartitionOffsets, partition);
    assert.deepEqual(host.errorMessages, []);
    assert.deepEqual(prompts.asked.map((q) => q.title), ['Reset Offsets of billing-archive legacy-events:1 (1/2)', 'Reset Offsets of billing-archive legacy-events:1 (2/2)'], 'no scope question');
    const [panel] = host.webviewPanels;
    panel.receive({ type: 'ready' });
    const [preview] = posted(panel, 'preview');
    assert.equal(preview.preview.scope, '--topic legacy-events:1');
    assert.deepEqual(preview.preview.rows.map((r) => [r.partition, r.current, r.next]), [[1, '1000', '900']]);

    panel.receive({ type: 'action', action: 'execute' });
    await settle('the results', () => (posted(panel, 'results').length ? true : undefined));
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.offset), [700, 900, 250], 'the other partitions keep their offsets');

    await run(COMMANDS.undoLastReset, await groupNode('billing-archive'));
    assert.equal(prompts.confirmations[0].detail, 'legacy-events-1: 900 → 1000');
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.offset), [700, 1000, 250]);
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
    exposures.set(fx.source.id, ['127.0.0.1:39092']);
    panel.receive({ type: 'action', action: 'copyExecute' });
    const line = await settle('the execute CLI line', () => host.clipboard[0]);
    assert.equal(line, `kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:39092 --group billing-archive --reset-offsets --from-file ${good} --execute`);
  });

  /** Opens the preview of a reset of billing-archive and says ready, as the page does. */
  const openPreview = async (answers: ConstructorParameters<typeof ScriptedAdminPrompts>[0]): Promise<FakeWebviewPanel> => {
    prompts = new ScriptedAdminPrompts([...answers]);
    await run(COMMANDS.resetOffsets, await groupNode('billing-archive'));
    assert.deepEqual(host.errorMessages, []);
    const panel = host.webviewPanels[host.webviewPanels.length - 1];
    panel.receive({ type: 'ready' });
    return panel;
  };
  const offsets = async () => (await fx.admin.committedOffsets('billing-archive')).map((c) => c.offset);
  const statuses = (panel: FakeWebviewPanel) => posted(panel, 'status').map((m) => m.text);
  const SHIFT_BACK = [{ pick: 'Shift By…' }, { input: '-100' }, { pick: 'All topics' }];
  const TO_EARLIEST = [{ pick: 'To Earliest' }, { pick: 'All topics' }];

  it('refuses a stale preview: A executed after B reset the group shows what changed, Re-plan shows the new plan, Execute commits it', async () => {
    const a = await openPreview(SHIFT_BACK);
    const b = await openPreview(TO_EARLIEST);
    b.receive({ type: 'action', action: 'execute' });
    await settle('B executed', () => posted(b, 'results')[0]);
    assert.deepEqual(await offsets(), [0, 0, 0]);
    const undoKey = undoSnapshotKey(fx.source.id, 'billing-archive');
    const afterB = workspaceState.get(undoKey);

    a.receive({ type: 'action', action: 'execute' });
    const [changed] = await settle('A refused', () => (posted(a, 'changed').length ? posted(a, 'changed') : undefined));
    assert.deepEqual(changed.changed, {
      summary: 'Not executed: billing-archive changed since this preview. Re-plan to see what the reset would commit now.',
      lines: ['legacy-events-0: previewed 700, now 0', 'legacy-events-1: previewed 1000, now 0', 'legacy-events-2: previewed 250, now 0'],
    });
    assert.deepEqual(posted(a, 'results'), [], 'A shows no results');
    assert.deepEqual(await offsets(), [0, 0, 0], 'A committed nothing');
    assert.deepEqual(workspaceState.get(undoKey), afterB, "B's undo record stays");

    a.receive({ type: 'action', action: 'execute' });
    await settle('a second Execute says why it does not run', () =>
      statuses(a).includes('The group changed since this preview: Re-plan, check the new offsets, then Execute.') ? true : undefined,
    );

    a.receive({ type: 'action', action: 'replan' });
    await settle('the new plan', () => (posted(a, 'preview').length === 2 ? true : undefined));
    const replanned = posted(a, 'preview')[1].preview;
    assert.deepEqual(replanned.rows.map((r) => [r.partition, r.current, r.next]), [
      [0, '0', '0'],
      [1, '0', '0'],
      [2, '0', '0'],
    ]);
    assert.deepEqual(await offsets(), [0, 0, 0], 'Re-plan writes nothing: the user confirms again');

    // Someone commits again: the new plan is stale in turn.
    await fx.admin.commitOffsets('billing-archive', [{ topic: 'legacy-events', partition: 1, offset: 500 }]);
    a.receive({ type: 'action', action: 'execute' });
    await settle('A refused again', () => (posted(a, 'changed').length === 2 ? true : undefined));
    assert.deepEqual(posted(a, 'changed')[1].changed.lines, ['legacy-events-1: previewed 0, now 500']);
    a.receive({ type: 'action', action: 'replan' });
    await settle('the third plan', () => (posted(a, 'preview').length === 3 ? true : undefined));
    a.receive({ type: 'action', action: 'execute' });
    const [results] = await settle('A executed', () => (posted(a, 'results').length ? posted(a, 'results') : undefined));
    assert.deepEqual(results.rows.map((r) => r.status), ['committed 0', 'committed 400', 'committed 0']);
    assert.deepEqual(await offsets(), [0, 400, 0]);
  });

  it('a group that became active since the preview: Execute and Re-plan refuse with the CLI sentence, nothing is written', async () => {
    const panel = await openPreview(SHIFT_BACK);
    fx.source.control.addConsumer({ groupId: 'billing-archive', topics: ['legacy-events'] });
    fx.source.advance(10000);
    const before = await offsets();
    const sentence = "Assignments can only be reset if the group 'billing-archive' is inactive, but the current state is Stable.";
    panel.receive({ type: 'action', action: 'execute' });
    await settle('the refusal', () => (statuses(panel).includes(`Failed: ${sentence}`) ? true : undefined));
    panel.receive({ type: 'action', action: 'replan' });
    await settle('the re-plan refusal', () => (statuses(panel).includes(`Re-plan failed: ${sentence}`) ? true : undefined));
    assert.deepEqual(posted(panel, 'results'), []);
    assert.equal(posted(panel, 'preview').length, 1, 'the old plan stays on show');
    assert.deepEqual(await offsets(), before);
  });

  it('runs Execute while the "Save Client Properties…" notification of Copy as CLI waits for an answer', async () => {
    exposures.set(fx.source.id, ['127.0.0.1:39092']);
    (fx.source as unknown as { cliCommandConfig: () => unknown }).cliCommandConfig = () => ({ fileName: 'demo.properties', properties: 'security.protocol=SASL_SSL\n' });
    const original = vscodeWindow.showInformationMessage;
    const offered: string[] = [];
    // The user never answers the notification.
    (vscodeWindow as { showInformationMessage: unknown }).showInformationMessage = (message: string) => {
      offered.push(message);
      return new Promise(() => undefined);
    };
    try {
      const panel = await openPreview(SHIFT_BACK);
      panel.receive({ type: 'action', action: 'copyExecute' });
      const line = await settle('the copied line', () => host.clipboard[0]);
      assert.match(line, /--command-config demo\.properties --group billing-archive .* --execute$/);
      await settle('the offer', () => offered[0]);
      panel.receive({ type: 'action', action: 'execute' });
      const [results] = await settle('the results, the offer still open', () => (posted(panel, 'results').length ? posted(panel, 'results') : undefined));
      assert.deepEqual(results.rows.map((r) => r.status), ['committed 600', 'committed 900', 'committed 150']);
    } finally {
      (vscodeWindow as { showInformationMessage: unknown }).showInformationMessage = original;
    }
  });

  it('says why Execute does not run while the commit is still in flight', async () => {
    const panel = await openPreview(SHIFT_BACK);
    let release = () => undefined as void;
    admin.gate = new Promise<void>((resolve) => (release = resolve));
    panel.receive({ type: 'action', action: 'execute' });
    await settle('the commit sent', () => (admin.commits.length ? true : undefined));
    panel.receive({ type: 'action', action: 'execute' });
    await settle('the reason', () => (statuses(panel).includes('Still committing the new offsets; Execute is possible when that is done.') ? true : undefined));
    assert.deepEqual(posted(panel, 'status').at(-1)?.busy, true, 'the page stays busy');
    admin.gate = undefined;
    release();
    await settle('the results', () => posted(panel, 'results')[0]);
    assert.equal(admin.commits.length, 1, 'one commit only');
  });

  it('Copy as CLI on the simulator refuses until it is exposed, then names the listeners it is served at', async () => {
    const panel = await openPreview(SHIFT_BACK);
    panel.receive({ type: 'action', action: 'copyExecute' });
    const refusal = 'Reset Offsets failed: kafka-consumer-groups.sh cannot reach "Simulator (demo)": expose the simulator on a port first (Expose Simulator on a Port…)';
    await settle('the refusal', () => (host.errorMessages.includes(refusal) ? true : undefined));
    assert.deepEqual(host.clipboard, [], 'no line naming 127.0.0.1:9092, where a local Kafka may run');

    const expose = registerExposeCommands(registry, log, exposures, new ScriptedPrompts([{ input: '0' }]));
    try {
      await run(COMMANDS.exposeSimulator, undefined as unknown as TreeNode);
      const served = exposures.bootstrapServers(fx.source.id);
      assert.ok(served && served.length === 3 && served.every((s) => /^127\.0\.0\.1:\d+$/.test(s) && s !== '127.0.0.1:9092'), `served at ${String(served)}; errors shown: ${JSON.stringify(host.errorMessages)}`);
      panel.receive({ type: 'action', action: 'copyDryRun' });
      const line = await settle('the dry-run line', () => host.clipboard[0]);
      assert.equal(line, `kafka-consumer-groups.sh --bootstrap-server ${served.join(',')} --group billing-archive --reset-offsets --shift-by -100 --all-topics --dry-run`);

      await run(COMMANDS.stopExposingSimulator, undefined as unknown as TreeNode);
      assert.equal(exposures.bootstrapServers(fx.source.id), undefined);
      host.errorMessages.length = 0;
      panel.receive({ type: 'action', action: 'copyDryRun' });
      await settle('the refusal again', () => (host.errorMessages.includes(refusal) ? true : undefined));
      assert.equal(host.clipboard.length, 1);
    } finally {
      expose.forEach((d) => d.dispose());
    }
  });

  it('keeps an undo record of the partitions a partly refused reset changed, and the previous record when it changed none', async () => {
    const key = undoSnapshotKey(fx.source.id, 'billing-archive');
    admin.refuseAfter = { count: 1, error: 'COORDINATOR_NOT_AVAILABLE' };
    const partial = await openPreview(TO_EARLIEST);
    partial.receive({ type: 'action', action: 'execute' });
    const [results] = await settle('the results', () => (posted(partial, 'results').length ? posted(partial, 'results') : undefined));
    assert.deepEqual(results.rows.map((r) => r.status), ['committed 0', 'COORDINATOR_NOT_AVAILABLE', 'COORDINATOR_NOT_AVAILABLE']);
    const record = workspaceState.get(key) as OffsetSnapshot;
    assert.deepEqual(record.offsets.map((o) => [o.partition, o.offset, o.after]), [[0, 700, 0]]);

    admin.refuseAfter = { count: 0, error: 'COORDINATOR_NOT_AVAILABLE' };
    const none = await openPreview([{ pick: 'To Latest' }, { pick: 'All topics' }]);
    none.receive({ type: 'action', action: 'execute' });
    const [refused] = await settle('the refusals', () => (posted(none, 'results').length ? posted(none, 'results') : undefined));
    assert.equal(refused.summary, '3 of 3 partition(s) were not reset.');
    assert.deepEqual(workspaceState.get(key), record, 'the record of the first reset stays');
  });

  it('says the outcome is unknown when the broker goes during the commit, and keeps the whole undo record', async () => {
    const panel = await openPreview(TO_EARLIEST);
    admin.dropAfter = 2;
    panel.receive({ type: 'action', action: 'execute' });
    const [results] = await settle('the results', () => (posted(panel, 'results').length ? posted(panel, 'results') : undefined));
    assert.equal(
      results.summary,
      'The commit failed and the offsets could not be read back: which of the 3 partition(s) were reset is unknown. "Undo Last Offset Change" restores those the reset reached.',
    );
    assert.ok(results.rows.every((r) => !r.ok && r.status.startsWith('Unknown: the commit failed')));
    const record = workspaceState.get(undoSnapshotKey(fx.source.id, 'billing-archive')) as OffsetSnapshot;
    assert.deepEqual(record.offsets.map((o) => [o.partition, o.offset, o.after]), [[0, 700, 0], [1, 1000, 0], [2, 250, 0]]);
  });

  it('Undo says when someone committed since the reset and asks before overwriting; offsets moving during the question ask again', async () => {
    const panel = await openPreview(SHIFT_BACK);
    panel.receive({ type: 'action', action: 'execute' });
    await settle('executed', () => posted(panel, 'results')[0]);
    await fx.admin.commitOffsets('billing-archive', [{ topic: 'legacy-events', partition: 1, offset: 950 }]);

    prompts = new ScriptedAdminPrompts([], [true, true]);
    prompts.whileConfirming = async (_options, index) => {
      if (index === 0) {
        await fx.admin.commitOffsets('billing-archive', [{ topic: 'legacy-events', partition: 2, offset: 160 }]);
      }
    };
    await run(COMMANDS.undoLastReset, await groupNode('billing-archive'));
    assert.deepEqual(host.errorMessages, []);
    const [first, second] = prompts.confirmations;
    assert.match(first.message, /^1 partition\(s\) of billing-archive were committed since the change of .*; undo overwrites those commits\. Put back the offsets from before anyway\?$/);
    assert.equal(first.action, 'Undo Anyway');
    assert.equal(first.detail, 'legacy-events-0: 600 → 700\nlegacy-events-1: 950 (the change left 900) → 1000\nlegacy-events-2: 150 → 250');
    assert.match(second.message, /^The offsets changed while you were asked \(legacy-events-2: shown 150, now 160\)\. 2 partition\(s\) of billing-archive were committed since/);
    assert.equal(second.detail, 'legacy-events-0: 600 → 700\nlegacy-events-1: 950 (the change left 900) → 1000\nlegacy-events-2: 160 (the change left 150) → 250');
    assert.deepEqual(await offsets(), [700, 1000, 250]);
    assert.deepEqual(host.infoMessages, ['Restored 3 offset(s) of billing-archive']);
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
