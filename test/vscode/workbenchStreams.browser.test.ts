/**
 * The built-in `streams` scenario in the real workbench (code-server): the simulator runs the Kafka Streams
 * word count at ten times the wall clock, chosen in the profile's settings as a person would; the streams
 * group's timeline shows its threads' lanes through the scale-out, the crash and the restart, with the
 * active tasks revoked and awaited and the standby tasks. Leaves test/artifacts/workbench-timeline-streams.png.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser } from 'playwright-core';
import { containerOfView, contributedCommand, GROUPS_VIEW_ID, isInItemContextMenu, OPEN_TIMELINE_COMMAND_ID, repoRoot } from './contributions';
import { escapeRegExp, exactText, type WorkbenchDriver } from './workbench/workbenchDriver';
import { machineSettingsFile, openWorkbench, restoreSettings, screenshotIfFailed } from './workbench/workbenchSession';
import { findGroup } from './workbench/treeRows';

const artifactsDir = process.env.KGL_ARTIFACTS_DIR ?? path.join(repoRoot, 'test', 'artifacts');
const APPLICATION_ID = 'word-count';
const SPEED = 10;
const SIDE_BAR_WIDTH = 520;

describe('the streams scenario in the VS Code workbench (code-server)', function () {
  this.timeout(240_000);

  let browser: Browser | undefined;
  let driver: WorkbenchDriver;
  const settingsFile = machineSettingsFile();
  let settingsBefore: string | undefined;

  before(async () => {
    settingsBefore = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    const settings = settingsBefore ? (JSON.parse(settingsBefore) as Record<string, unknown>) : {};
    settings['kafkaGroupLens.simulator.scenario'] = 'streams';
    settings['kafkaGroupLens.simulator.speed'] = SPEED;
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n');
    ({ browser, driver } = await openWorkbench(artifactsDir));
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, driver, 'failure-streams-');
  });

  after(async () => {
    await browser?.close();
    restoreSettings(settingsFile, settingsBefore);
  });

  it('lists the word count as a streams group, and draws its tasks moving through scale-out, crash and restart', async () => {
    const container = containerOfView(GROUPS_VIEW_ID);
    assert.ok(container, `package.json puts view ${GROUPS_VIEW_ID} in no activity-bar container`);
    await driver.openViewContainer(container.title);
    await driver.resizeSideBar(SIDE_BAR_WIDTH);
    const row = await driver.waitForRows(`the streams group ${APPLICATION_ID}`, (rows) => {
      const group = findGroup(rows, APPLICATION_ID);
      return group && / · streams\b/.test(group.description) ? group : undefined;
    }, 90_000);
    assert.match(row.description, / · streams\b/);

    const openTimeline = contributedCommand(OPEN_TIMELINE_COMMAND_ID);
    assert.ok(openTimeline && isInItemContextMenu(OPEN_TIMELINE_COMMAND_ID), `${OPEN_TIMELINE_COMMAND_ID} is not in the tree's context menu`);
    const tabTitle = new RegExp(escapeRegExp(`Rebalances: ${APPLICATION_ID}`));
    await driver.runContextMenu(row, exactText(openTimeline.title));
    const { error } = await driver.outcomeOrError('the timeline tab', () => driver.editorTabVisible(tabTitle), 30_000);
    assert.equal(error, undefined, `Open Rebalance Timeline on ${APPLICATION_ID} failed`);
    await driver.page.mouse.move(1, 1);
    const body = await driver.activeWebviewBody();
    // Five lanes: the first instance's two threads, the second, the third (30 s), the second's restarted thread (140 s).
    await driver.waitUntil('five member lanes, the restarted thread among them', 120_000, async () => /^\d+ events · 5 members/.test((await body.locator('.status').textContent()) ?? ''));
    const drawn = (kind: string): Promise<number> =>
      body.locator(`.plot path.batch.recon-${kind}`).evaluateAll((paths) => paths.reduce((sum, p) => sum + Number(p.getAttribute('data-count')), 0));
    await driver.waitUntil('standby tasks and a reconciliation drawn on the lanes', 30_000, async () => (await drawn('standby')) > 0 && (await drawn('revoking')) + (await drawn('waiting')) > 0);
    // The restarted thread settles: the group is Stable again, no rebalance in progress.
    await driver.waitUntil('the last rebalance to end', 60_000, async () => !/in progress/.test((await body.locator('.details').allTextContents()).join(' ')) && / · Stable · /.test(findGroup(await driver.treeRows(), APPLICATION_ID)?.description ?? ''));
    // Fit the whole run into view (the 0 key), then the picture.
    await body.locator('.timeline').focus();
    await driver.page.keyboard.press('0');
    await driver.screenshot('workbench-timeline-streams.png');
    const status = (await body.locator('.status').textContent()) ?? '';
    assert.match(status, /^\d+ events · 5 members/);
  });
});
