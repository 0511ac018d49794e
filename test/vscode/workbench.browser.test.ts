/**
 * The extension in a real VS Code 1.100 workbench (code-server) driven through headless Chromium, as a
 * person uses it. Run by scripts/workbench/run-browser-tests.js, which builds and installs the .vsix,
 * starts the server and passes its address in KGL_WORKBENCH_URL. Screenshots land in test/artifacts/.
 */
import { strict as assert } from 'assert';
import * as path from 'path';
import type { Browser } from 'playwright-core';
import {
  ADD_CONSUMER_COMMAND_ID,
  containerOfView,
  contributedCommand,
  findCommand,
  GROUPS_VIEW_ID,
  isInItemContextMenu,
  OPEN_DASHBOARD_COMMAND_ID,
  OPEN_TIMELINE_COMMAND_ID,
  repoRoot,
  RESET_COMMAND_PATTERN,
  type ContributedCommand,
} from './contributions';
import { escapeRegExp, exactText, type WorkbenchDriver } from './workbench/workbenchDriver';
import { openWorkbench, screenshotIfFailed } from './workbench/workbenchSession';
import {
  expandedMembers,
  findGroup,
  groupLag,
  groupRows,
  groupState,
  isMemberRow,
  isStableWithMembers,
  MEMBER_LEVEL,
  memberCount,
  PARTITION_LEVEL,
  partitionRow,
  rowsUnder,
  waitForGroup,
} from './workbench/treeRows';
import { errorMessage } from '../../src/protocol/errors';

const artifactsDir = process.env.KGL_ARTIFACTS_DIR ?? path.join(repoRoot, 'test', 'artifacts');

const SIDE_BAR_WIDTH = 620;
/** VS Code's side bar width on a first start. */
const DEFAULT_SIDE_BAR_WIDTH = 300;
/**
 * Runs a group's context-menu entry and waits until `opened()` shows its effect. VS Code resolves the clicked
 * node from its handle when the command runs; while a tree reload is re-fetching that subtree the lookup
 * misses and the command gets no node (it then reports an error). That is retried, loudly, up to three
 * attempts in all.
 */
async function runOnGroup(driver: WorkbenchDriver, groupId: string, entry: RegExp, what: string, opened: () => Promise<boolean>): Promise<void> {
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    // A retry goes through the keyboard (KGL_MENU_KEYS=1: every time): seen in CI, a click on the menu entry that reached nothing.
    await driver.runContextMenu(await waitForGroup(driver, groupId), entry, attempt > 1 || process.env.KGL_MENU_KEYS === '1');
    let error: string | undefined;
    try {
      ({ error } = await driver.outcomeOrError(what, opened, 30_000));
    } catch (e) {
      // Seen in CI: the menu click sometimes reaches no command at all (nothing opens, nothing fails).
      error = `nothing happened: ${errorMessage(e)}`;
      await driver.page.keyboard.press('Escape');
    }
    if (!error) {
      return;
    }
    console.log(`      WARNING: attempt ${attempt} of ${entry} on ${groupId} got no node (tree reload race) or did nothing: ${error}`);
    if (attempt === attempts) {
      assert.fail(`${entry} on ${groupId} failed ${attempts} times: ${error}`);
    }
  }
}

/** Waits until the visible webview is the group's dashboard, drawn for `groupId` (its title names the group). */
async function dashboardShows(driver: WorkbenchDriver, groupId: string): Promise<void> {
  const body = await driver.activeWebviewBody(60_000);
  await driver.waitUntil(`the dashboard of ${groupId} to draw`, 60_000, async () => ((await body.locator('#title').textContent()) ?? '').trim() === `Dashboard of ${groupId}`);
}

/** A menu entry or palette label for a command, matched exactly. */
function commandLabel(command: ContributedCommand): RegExp {
  return exactText(command.title);
}

function requireCommand(id: string): ContributedCommand {
  const command = contributedCommand(id);
  assert.ok(command, `package.json contributes no command ${id}`);
  return command;
}

describe('Kafka Group Lens in the VS Code workbench (code-server)', function () {
  this.timeout(180_000);

  let browser: Browser;
  let driver: WorkbenchDriver;
  /** The group the flow works on, chosen once its members are visible. */
  let groupId: string;

  before(async () => {
    ({ browser, driver } = await openWorkbench(artifactsDir));
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, driver, 'failure-');
  });

  after(async () => {
    await browser?.close();
  });

  it("opens the Kafka Group Lens view from the activity bar and lists the simulator's groups", async () => {
    const container = containerOfView(GROUPS_VIEW_ID);
    assert.ok(container, `package.json puts view ${GROUPS_VIEW_ID} in no activity-bar container`);
    await driver.openViewContainer(container.title);
    await driver.resizeSideBar(SIDE_BAR_WIDTH);

    // The demo groups start in PreparingRebalance; wait until one has settled so the picture shows a live group.
    const groups = await driver.waitForRows("the simulator's consumer groups, one of them Stable", (rows) => {
      const found = groupRows(rows);
      return found.some(isStableWithMembers) ? found : undefined;
    });
    const rows = await driver.treeRows();
    const clusters = rows.filter((r) => r.level === 1);
    assert.ok(clusters.length >= 1, 'the tree has no cluster row');
    assert.ok(clusters.every((c) => c.expanded === true), 'cluster rows start expanded');
    for (const group of groups) {
      assert.match(group.description, /^lag [\d,-]+ · \w+ · \d+ members?\b/, `group row "${group.label}" leads with lag, then state and members`);
    }
    await driver.screenshot('tree-groups.png');
  });

  it('expands a group and one of its members down to the partitions', async () => {
    const group = await driver.waitForRows('a Stable group with members', (rows) => groupRows(rows).find(isStableWithMembers));
    groupId = group.label;
    await driver.expand(group);

    const member = await driver.waitForRows(`the members of ${groupId}`, (rows) => {
      const current = findGroup(rows, groupId);
      return current ? rowsUnder(rows, current, MEMBER_LEVEL).find((r) => isMemberRow(r) && r.expanded === false) : undefined;
    });
    await driver.expand(member);

    const partitions = await driver.waitForRows(`the partitions of member ${member.label}`, (rows) => {
      const current = rows.find((r) => r.level === MEMBER_LEVEL && r.label === member.label);
      const found = current ? rowsUnder(rows, current, PARTITION_LEVEL) : [];
      return found.length ? found : undefined;
    });
    for (const partition of partitions) {
      assert.ok(partition.label.length > 0 && partition.description.length > 0, `partition row "${partition.label}" shows offsets`);
    }
    await driver.screenshot('tree-member-partitions.png');
  });

  it('shows the lag of the group with the most lag at the default side bar width, and member and partition tooltips on hover', async () => {
    await driver.resizeSideBar(DEFAULT_SIDE_BAR_WIDTH);
    try {
      const worst = await driver.waitForRows('group rows with their lag', (rows) => {
        const found = groupRows(rows).sort((a, b) => groupLag(b) - groupLag(a));
        return found.length ? found[0] : undefined;
      });
      const lagText = /^lag [\d,-]+/.exec(worst.description)?.[0] ?? '';
      assert.ok(lagText, `group row "${worst.label}" leads with its lag: ${worst.description}`);
      assert.ok(await driver.descriptionPrefixVisible(worst, lagText), `"${lagText}" of ${worst.label} is cut at ${DEFAULT_SIDE_BAR_WIDTH}px`);
      await driver.screenshot('tree-default-width.png');

      // The member and partition rows the previous test expanded; the simulator keeps pushing while the tooltips are open.
      const members = await expandedMembers(driver, groupId, (found) => found.length > 0);
      const memberTooltip = await driver.hoverTooltip(members[0]);
      assert.match(memberTooltip, /Member id/, `the member tooltip: ${memberTooltip}`);
      await driver.screenshotWithHover('tooltip-member.png');

      const partition = await partitionRow(driver);
      const partitionTooltip = await driver.hoverTooltip(partition);
      assert.match(partitionTooltip, /Log end offset/, `the partition tooltip: ${partitionTooltip}`);
      await driver.screenshotWithHover('tooltip-partition.png');
    } finally {
      await driver.clearHover();
      await driver.resizeSideBar(SIDE_BAR_WIDTH);
    }
  });

  it('adds a consumer to the group through its context menu', async () => {
    const addConsumer = requireCommand(ADD_CONSUMER_COMMAND_ID);
    assert.ok(isInItemContextMenu(ADD_CONSUMER_COMMAND_ID), `${ADD_CONSUMER_COMMAND_ID} is not in the tree's context menu`);

    const membersBefore = new Set((await expandedMembers(driver, groupId, (members, count) => members.length === count)).map((r) => r.label));

    await runOnGroup(driver, groupId, commandLabel(addConsumer), 'its first question', () => driver.quickInputVisible());
    const steps = await driver.acceptQuickInputDefaults(10);
    assert.ok(steps[0]?.includes(groupId), `the first step names the group; steps were: ${steps.join(' → ')}`);

    // The simulator rebalances the group; the new member shows once the consumer has joined and synced.
    const members = await expandedMembers(driver, groupId, (current) => current.some((r) => !membersBefore.has(r.label)), 90_000);
    const newMember = members.find((r) => !membersBefore.has(r.label));
    assert.ok(newMember);
    const groupAfter = await waitForGroup(driver, groupId);
    assert.ok((memberCount(groupAfter) ?? 0) >= 1, `group ${groupId} counts its members`);
    assert.ok(newMember.label.length > 0);
    const status = await driver.statusBarText();
    // The row names the member "client id · short member id"; the status names the client id.
    const clientId = newMember.label.split(' · ')[0];
    if (status.includes('Started consumer')) {
      assert.ok(status.includes(clientId), `the new member row "${newMember.label}" is the consumer the command started (${status})`);
    }
    await driver.screenshot('tree-added-consumer.png');
  });

  it('previews an offset reset on an Empty group', async () => {
    const reset = findCommand(RESET_COMMAND_PATTERN);
    assert.ok(reset, 'package.json contributes no command with "reset" in its id');
    assert.ok(isInItemContextMenu(reset.command), `${reset.command} is not in the tree's context menu`);
    const emptyGroup = await driver.waitForRows('an Empty group', (rows) => groupRows(rows).find((r) => groupState(r) === 'Empty'));
    await runOnGroup(driver, emptyGroup.label, commandLabel(reset), 'its first question', () => driver.quickInputVisible());
    // Defaults: the first scenario (to-earliest, which needs no argument) over all topics.
    const steps = await driver.acceptQuickInputDefaults(6);
    assert.ok(steps[0]?.includes(emptyGroup.label), `the first step names the group; steps were: ${steps.join(' → ')}`);

    const tab = await driver.waitForEditorTab(new RegExp(`reset.*${escapeRegExp(emptyGroup.label)}`, 'i'));
    const body = await driver.activeWebviewBody();
    // A preview shows its plan rows and stops there: nothing is executed.
    await driver.waitUntil('the reset preview to list its plan', 30_000, async () => (await body.locator('tbody tr').count()) > 0);
    assert.match(tab, /reset/i);
    await driver.screenshot('reset-preview.png');
  });

  it("opens the group's rebalance timeline", async () => {
    const openTimeline = requireCommand(OPEN_TIMELINE_COMMAND_ID);
    // The command needs the group node, which only the tree's menu passes.
    assert.ok(isInItemContextMenu(OPEN_TIMELINE_COMMAND_ID), `${OPEN_TIMELINE_COMMAND_ID} is not in the tree's context menu`);
    const tabTitle = new RegExp(`rebalance|timeline|${escapeRegExp(groupId)}`, 'i');
    await runOnGroup(driver, groupId, commandLabel(openTimeline), 'the timeline tab', () => driver.editorTabVisible(tabTitle));
    const tab = await driver.waitForEditorTab(tabTitle);
    const body = await driver.activeWebviewBody();
    // Drawn means shapes or labels inside the plot, not just an empty frame.
    await driver.waitUntil('the timeline webview to draw', 30_000, async () => (await body.locator('svg rect, svg text, canvas').count()) > 0);
    // Drawn with its model: the status line counts the events once a snapshot has been rendered.
    await driver.waitUntil('the timeline to count its events', 30_000, async () => /^\d+ events · \d+ members/.test((await body.locator('.status').textContent()) ?? ''));
    assert.ok(tab.includes(groupId) || /rebalance|timeline/i.test(tab), `the timeline tab "${tab}" names the group or the timeline`);
    // Not timeline.png: the webview suite's picture of the page alone has that name.
    await driver.screenshot('workbench-timeline.png');
  });

  it("opens the group's dashboard", async () => {
    const openDashboard = requireCommand(OPEN_DASHBOARD_COMMAND_ID);
    assert.ok(isInItemContextMenu(OPEN_DASHBOARD_COMMAND_ID), `${OPEN_DASHBOARD_COMMAND_ID} is not in the tree's context menu`);
    const tabTitle = new RegExp(escapeRegExp(`Dashboard: ${groupId}`));
    await runOnGroup(driver, groupId, commandLabel(openDashboard), 'the dashboard tab', () => driver.editorTabVisible(tabTitle));
    await driver.waitForEditorTab(tabTitle);
    await dashboardShows(driver, groupId);
    await driver.screenshot('dashboard.png');
    // The timeline in front again: the reload test reads it first.
    await driver.activateEditorTab(new RegExp(escapeRegExp(`Rebalances: ${groupId}`)));
  });

  it('brings the open timeline and dashboard back after the window reloads', async () => {
    requireCommand(OPEN_TIMELINE_COMMAND_ID);
    const tabTitle = new RegExp(escapeRegExp(`Rebalances: ${groupId}`));
    await driver.waitForEditorTab(tabTitle);
    // The workbench's own reload, which saves the open editors and their webview state first.
    const reloaded = driver.page.waitForEvent('load', { timeout: 60_000 });
    await driver.runFromCommandPalette('Developer: Reload Window');
    await reloaded;
    await driver.waitForWorkbench();
    // VS Code restores the editor; the extension's serializer fills it for the same group.
    const tab = await driver.waitForEditorTab(tabTitle, 90_000);
    const body = await driver.activeWebviewBody(60_000);
    await driver.waitUntil('the restored timeline to draw its lanes', 60_000, async () => (await body.locator('.lane-label, svg text').count()) > 0);
    assert.equal(((await body.locator('h1.title').textContent()) ?? '').trim(), groupId, `the restored panel "${tab}" shows group ${groupId}`);
    await driver.screenshot('workbench-timeline-restored.png');

    // The dashboard opened before the reload comes back too, for the same group.
    await driver.activateEditorTab(new RegExp(escapeRegExp(`Dashboard: ${groupId}`)), 90_000);
    await dashboardShows(driver, groupId);
    await driver.screenshot('dashboard-restored.png');
  });

  it('filters the groups to a glob, then sorts by lag with the worst group first and its lag visible at the default width', async () => {
    await driver.runFromCommandPalette('Kafka Group Lens: Filter Groups…');
    await driver.page.locator('.quick-input-widget .quick-input-box input').waitFor({ timeout: 15_000 });
    await driver.page.keyboard.type('payments-*');
    await driver.page.keyboard.press('Enter');
    const filtered = await driver.waitForRows('only the groups matching payments-*', (rows) => {
      const found = groupRows(rows);
      return found.length > 0 && found.every((r) => r.label.startsWith('payments-')) ? found : undefined;
    });
    assert.ok(filtered.length >= 1);
    await driver.screenshot('tree-filtered.png');
    await driver.runFromCommandPalette('Kafka Group Lens: Clear Group Filter');
    await driver.waitForRows('every group again', (rows) => (groupRows(rows).some((r) => !r.label.startsWith('payments-')) ? true : undefined));

    await driver.runFromCommandPalette('Kafka Group Lens: Sort Groups…');
    const byLag = driver.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Total lag' }).first();
    await byLag.waitFor({ timeout: 15_000 });
    await byLag.click();
    await driver.resizeSideBar(DEFAULT_SIDE_BAR_WIDTH);
    try {
      const first = await driver.waitForRows('the group rows sorted by lag, worst first', (rows) => {
        const found = groupRows(rows);
        const lags = found.map(groupLag);
        return found.length > 1 && lags.every((lag, i) => i === 0 || lags[i - 1] >= lag) ? found[0] : undefined;
      });
      const lagText = /^lag [\d,-]+/.exec(first.description)?.[0] ?? '';
      assert.ok(await driver.descriptionPrefixVisible(first, lagText), `"${lagText}" of ${first.label} is cut at ${DEFAULT_SIDE_BAR_WIDTH}px`);
      await driver.screenshot('tree-sorted-by-lag.png');
    } finally {
      await driver.resizeSideBar(SIDE_BAR_WIDTH);
    }
  });
});
