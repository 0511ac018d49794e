/**
 * The first-run walkthrough in the real workbench, as a new user meets it: opened from Welcome: Open
 * Walkthrough…, each step selected in turn, its picture loaded from the .vsix, its command link clicked and
 * its effect checked, and the step then marked done. Screenshots land in test/artifacts/walkthrough-*.png.
 * Also reads the extension's activation time from Developer: Show Running Extensions, the figure a user sees.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Locator } from 'playwright-core';
import { readManifest, repoRoot } from './contributions';
import { escapeRegExp, type WorkbenchDriver } from './workbench/workbenchDriver';
import { openWorkbench, screenshotIfFailed } from './workbench/workbenchSession';
import { expandedMembers, groupRows, isStableWithMembers, partitionRow } from './workbench/treeRows';

const artifactsDir = process.env.KGL_ARTIFACTS_DIR ?? path.join(repoRoot, 'test', 'artifacts');
const SIDE_BAR_WIDTH = 620;

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image: string; altText: string };
  completionEvents?: string[];
}

interface Walkthrough {
  id: string;
  title: string;
  steps: WalkthroughStep[];
}

function contributedWalkthrough(): Walkthrough {
  const manifest = readManifest() as ReturnType<typeof readManifest> & { contributes?: { walkthroughs?: Walkthrough[] } };
  const walkthrough = manifest.contributes?.walkthroughs?.[0];
  assert.ok(walkthrough, 'package.json contributes no walkthrough');
  return walkthrough;
}

/** The command of the one link a step's description ends with: `[Label](command:id)`. */
function stepCommand(step: WalkthroughStep): { label: string; command: string } {
  const match = /\[([^\]]+)\]\(command:([\w.]+)\)\s*$/.exec(step.description);
  assert.ok(match, `step ${step.id} ends with a command link`);
  return { label: match[1], command: match[2] };
}

/** The step's button in the walkthrough page (VS Code ids it `<extension id>#<walkthrough>#<step>`). */
function stepButton(driver: WorkbenchDriver, step: WalkthroughStep): Locator {
  return driver.page.locator(`button.getting-started-step[data-step-id$="#${step.id}"]`);
}

/** Clicks the quick pick's first item whose "label description" matches, and returns its label; on a timeout, says what it listed. */
async function pickQuickItem(driver: WorkbenchDriver, matching: RegExp, what: string): Promise<string> {
  // Only visible rows: the widget keeps rows of earlier lists in the DOM, hidden.
  const rows = driver.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ visible: true });
  let items: { label: string; description: string }[] = [];
  let index = -1;
  await driver.waitUntil(what, 30_000, async () => {
    items = await rows.evaluateAll((elements) => elements.map((el) => ({
      label: (el.querySelector('.label-name')?.textContent ?? '').trim(),
      description: (el.querySelector('.label-description')?.textContent ?? '').trim(),
    })));
    index = items.findIndex((item) => matching.test(`${item.label} ${item.description}`));
    return index >= 0;
  }).catch((e: Error) => {
    throw new Error(`${e.message}; the quick pick ${items.length ? `listed:\n${items.map((item) => `${item.label} ${item.description}`).join('\n')}` : 'listed nothing (was it open?)'}`);
  });
  await rows.nth(index).click();
  return items[index].label;
}

/** How far down the side bar the tree's last row reaches, plus a margin: where a picture of the tree ends. */
async function treeBottom(driver: WorkbenchDriver): Promise<number> {
  const sidebar = await driver.page.locator('.part.sidebar').boundingBox();
  const rows = await driver.page.locator('.part.sidebar .monaco-list-row').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom));
  return sidebar && rows.length ? Math.max(...rows) - sidebar.y + 24 : 600;
}

/**
 * Waits until the Welcome page's slides stop moving and its focus stays put. Its slide transitions move the
 * focus when they end, which closes a quick pick opened meanwhile, so a person acts once the page is still.
 */
async function welcomePageSettled(driver: WorkbenchDriver): Promise<void> {
  let last = '';
  await driver.waitUntil('the Welcome page to stop moving', 15_000, async () => {
    const now = await driver.page.locator('.gettingStartedContainer .gettingStartedSlide').evaluateAll((slides) => {
      const boxes = slides.map((slide) => { const box = slide.getBoundingClientRect(); return `${box.x},${box.y},${box.width}`; });
      const focused = document.activeElement;
      return `${boxes.join('|')}|${focused?.tagName ?? ''}.${focused?.className ?? ''}`;
    });
    const settled = now === last;
    last = now;
    return settled;
  });
}

/**
 * Opens the walkthrough (in the Welcome editor) through the palette, as a returning user does. Its page goes back
 * to the list of walkthroughs on Escape, so pictures of it are taken with screenshotWithHover (no Escape).
 */
async function openWalkthrough(driver: WorkbenchDriver, walkthrough: Walkthrough): Promise<void> {
  await driver.runFromCommandPalette('Welcome: Open Walkthrough...');
  await pickQuickItem(driver, new RegExp(escapeRegExp(walkthrough.title)), `"${walkthrough.title}" in the walkthrough list`);
  await driver.page.locator('.gettingStartedSlideDetails button.getting-started-step').first().waitFor({ state: 'visible', timeout: 30_000 });
  await welcomePageSettled(driver);
}

describe('The first-run walkthrough in the VS Code workbench (code-server)', function () {
  this.timeout(180_000);

  let browser: Browser;
  let driver: WorkbenchDriver;
  const walkthrough = contributedWalkthrough();

  before(async () => {
    ({ browser, driver } = await openWorkbench(artifactsDir));
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, driver, 'failure-walkthrough-');
  });

  after(async () => {
    await browser?.close();
  });

  it('opens from Welcome: Open Walkthrough… with its five steps in order', async () => {
    await openWalkthrough(driver, walkthrough);
    const titles = await driver.page.locator('button.getting-started-step h3.step-title').allInnerTexts();
    assert.deepEqual(titles.map((t) => t.trim()), walkthrough.steps.map((s) => s.title));
    assert.equal(walkthrough.steps.length, 5);
    await driver.screenshotWithHover('walkthrough-0-opened.png');
  });

  /** The group the steps work on: a Stable one with members and a plain id (the demo also has a hostile one). */
  let groupId = '';

  /** What clicking each step's link must do, checked in the workbench, and the step's picture taken there. */
  const effects: Record<string, (driver: WorkbenchDriver) => Promise<void>> = {
    simulatorGroups: async (d) => {
      // The view's own header is hidden while it is its container's only view: the tree rows are what shows.
      await d.waitForRows('the Consumer Groups tree', (rows) => rows.length > 0 || undefined, 30_000);
      await d.resizeSideBar(SIDE_BAR_WIDTH);
      const group = await d.waitForRows('a Stable simulator group with members', (rows) => groupRows(rows).find((r) => isStableWithMembers(r) && /^[\w.-]+$/.test(r.label)), 90_000);
      groupId = group.label;
      await d.clearHover();
      await d.docImage('walkthrough/groups.jpg', d.page.locator('.part.sidebar'), await treeBottom(d));
    },
    memberPartitions: async (d) => {
      await pickQuickItem(d, new RegExp(`^${escapeRegExp(groupId)} `), `${groupId} in Find Consumer Group`);
      await d.page.locator('.part.sidebar .monaco-list-row.selected', { hasText: groupId }).first().waitFor({ state: 'visible', timeout: 30_000 });
      // As the step says: expand the group, a member, and its topic down to the partitions.
      const members = await expandedMembers(d, groupId, (found) => found.length > 0);
      const member = members[0];
      if (member.expanded === false) {
        await d.expand(member);
      }
      await partitionRow(d);
      await d.clearHover();
      await d.docImage('walkthrough/partitions.jpg', d.page.locator('.part.sidebar'), await treeBottom(d));
    },
    rebalanceTimeline: async (d) => {
      await pickQuickItem(d, new RegExp(`^${escapeRegExp(groupId)} `), `${groupId} to open the timeline of`);
      await d.waitForEditorTab(new RegExp(`Rebalances: ${escapeRegExp(groupId)}`), 60_000);
      const body = await d.activeWebviewBody(60_000);
      await d.waitUntil(`the timeline of ${groupId} to draw its events`, 60_000, async () => /^\d+ events/.test((await body.locator('.status').textContent()) ?? ''));
      await d.page.mouse.move(1, 1);
      await d.docImage('walkthrough/timeline.jpg', d.page.locator('.part.editor'));
    },
    resetPreview: async (d) => {
      const label = await pickQuickItem(d, / · Empty\b/, 'an Empty group to reset');
      await d.waitUntil("the reset's first question", 30_000, () => d.quickInputVisible());
      await d.acceptQuickInputDefaults(10);
      await d.waitForEditorTab(new RegExp(`reset.*${escapeRegExp(label)}`, 'i'), 60_000);
      const body = await d.activeWebviewBody(60_000);
      await d.waitUntil('the reset preview to list its plan', 30_000, async () => (await body.locator('tbody tr').count()) > 0);
      await d.page.mouse.move(1, 1);
      // Down to the plan's last row: the empty page below it says nothing.
      const editor = await d.page.locator('.part.editor').boundingBox();
      const table = await body.locator('table').first().boundingBox();
      await d.docImage('walkthrough/reset-preview.jpg', d.page.locator('.part.editor'), editor && table ? table.y + table.height - editor.y + 24 : undefined);
    },
    addCluster: async (d) => {
      await d.waitUntil('the Add Cluster… prompt', 30_000, () => d.quickInputVisible());
      const prompt = await d.page.locator('.quick-input-widget').innerText();
      assert.match(prompt, /name|cluster/i, `Add Cluster… asks for the cluster first: ${prompt}`);
      await d.docImage('walkthrough/add-cluster.jpg', d.page.locator('.monaco-workbench'), 420);
      await d.screenshotWithHover('walkthrough-5-add-cluster-prompt.png');
      await d.page.keyboard.press('Escape');
      await d.waitUntil('the Add Cluster… prompt to close', 15_000, async () => !(await d.quickInputVisible()));
    },
  };

  walkthrough.steps.forEach((step, index) => {
    it(`step ${index + 1}, "${step.title}": shows its picture, and its link runs ${stepCommand(step).command}`, async () => {
      const { label } = stepCommand(step);
      const effect = effects[step.id];
      assert.ok(effect, `the test knows no effect for step ${step.id}`);
      await openWalkthrough(driver, walkthrough);
      const button = stepButton(driver, step);
      await button.click();
      await driver.waitUntil(`step ${step.id} to expand`, 15_000, async () => (await button.getAttribute('aria-expanded')) === 'true');

      // The page shows the selected step's picture; VS Code sets its srcset (not src) to a resource URL naming the file.
      const image = driver.page.locator('.getting-started-media img').first();
      await driver.waitUntil(`the picture of step ${step.id}`, 15_000, async () => (await image.getAttribute('alt').catch(() => null)) === step.media.altText);

      // Only `npm run docs:images` making a step's picture for the first time may find it missing from the .vsix.
      const firstGeneration = process.env.KGL_DOC_IMAGES_DIR !== undefined && !fs.existsSync(path.join(repoRoot, step.media.image));
      if (!firstGeneration) {
        let srcset = '';
        await driver.waitUntil(`the srcset of step ${step.id}'s picture to name ${step.media.image}`, 15_000, async () => {
          srcset = (await image.getAttribute('srcset')) ?? '';
          return decodeURIComponent(srcset).includes(step.media.image);
        }).catch((e: Error) => {
          throw new Error(`${e.message}; its srcset was ${JSON.stringify(srcset)}`);
        });
        await driver.waitUntil(`the picture of step ${step.id} to load`, 15_000, () => image.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0));
      }
      await driver.screenshotWithHover(`walkthrough-${index + 1}-${step.id}.png`);
      await welcomePageSettled(driver);

      await button.locator('.step-description-container').getByRole('button', { name: label }).or(button.locator('.step-description-container a', { hasText: label })).first().click();
      await effect(driver);
      await driver.screenshot(`walkthrough-${index + 1}-${step.id}-done.png`);

      // The completion event marks the step done on the walkthrough's page.
      await openWalkthrough(driver, walkthrough);
      await driver.waitUntil(`step ${step.id} to be marked done`, 15_000, async () => (await stepButton(driver, step).getAttribute('aria-checked')) === 'true');
    });
  });

  it('reports the activation time in Developer: Show Running Extensions', async () => {
    await welcomePageSettled(driver);
    const manifest = readManifest() as ReturnType<typeof readManifest> & { displayName?: string };
    const { activationMs, row: text } = await driver.activationTime(manifest.displayName ?? manifest.name);
    console.log(`      activation time (Show Running Extensions): ${activationMs} ms — ${text}`);
    fs.mkdirSync(artifactsDir, { recursive: true });
    fs.writeFileSync(path.join(artifactsDir, 'activation.json'), JSON.stringify({ activationMs, row: text }, null, 2) + '\n');
    await driver.screenshot('running-extensions.png');
    assert.ok(Number.isFinite(activationMs) && activationMs > 0, `no activation time on the row: ${text}`);
  });
});
