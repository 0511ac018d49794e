/**
 * A write tool's confirmation in the real workbench's chat, as the editor's AI agent would meet it. No language
 * model can be reached here, so the scripted agent (test/vscode/scriptedAgent, installed by the runner) stands in
 * for one: its chat participant calls the tool its prompt names with the request's toolInvocationToken, as an
 * agent does. VS Code then shows kafkaGroupLens_executeReset's confirmation with the reset preview; Cancel writes
 * nothing, Continue resets the group and the tree shows the new lag. Screenshot: test/artifacts/agent-tool-confirmation.png.
 */
import { strict as assert } from 'assert';
import * as path from 'path';
import type { Browser, Locator } from 'playwright-core';
import { containerOfView, GROUPS_VIEW_ID, repoRoot } from './contributions';
import type { WorkbenchDriver } from './workbench/workbenchDriver';
import { openWorkbench, screenshotIfFailed } from './workbench/workbenchSession';
import { groupLag, waitForGroup } from './workbench/treeRows';

const artifactsDir = process.env.KGL_ARTIFACTS_DIR ?? path.join(repoRoot, 'test', 'artifacts');
/** The demo's Empty group: a reset may run on it. */
const GROUP = 'billing-archive';
const RESET = JSON.stringify({ tool: 'kafkaGroupLens_executeReset', input: { group: GROUP, scenario: 'to-earliest' } });

describe('the agent tools in the workbench chat (scripted agent)', () => {
  let browser: Browser | undefined;
  let driver: WorkbenchDriver;

  before(async () => {
    ({ browser, driver } = await openWorkbench(artifactsDir));
    const container = containerOfView(GROUPS_VIEW_ID);
    assert.ok(container);
    await driver.openViewContainer(container.title);
  });

  afterEach(async function () {
    await screenshotIfFailed(this.currentTest, driver, 'failure-');
  });

  after(async () => {
    await browser?.close();
  });

  /** Types a prompt into the chat editor (opening a new one first when asked) and sends it. */
  async function send(prompt: string, newChat: boolean): Promise<void> {
    if (newChat) {
      await driver.runFromCommandPalette('Chat: New Chat Editor');
    }
    const input = driver.page.locator('.interactive-input-part .monaco-editor').last();
    await input.waitFor({ timeout: 30_000 });
    await input.click();
    await driver.page.keyboard.type(prompt);
    await driver.page.keyboard.press('Enter');
  }

  /** The text of the chat's last answer once `accept` holds. */
  async function lastAnswer(what: string, accept: (text: string) => boolean): Promise<string> {
    let text = '';
    await driver.waitUntil(what, 30_000, async () => {
      text = ((await driver.page.locator('.interactive-response').last().innerText().catch(() => '')) || '').replace(/\s+/g, ' ');
      return accept(text);
    });
    return text;
  }

  /** Sends the reset in a new chat editor and returns the confirmation VS Code shows for the tool. */
  async function askForReset(): Promise<Locator> {
    await send(RESET, true);
    const confirmation = driver.page.locator('.chat-confirmation-widget').last();
    await confirmation.waitFor({ timeout: 30_000 });
    return confirmation;
  }

  const lagOf = async (): Promise<number> => groupLag(await waitForGroup(driver, GROUP));

  it('shows executeReset\'s confirmation with the reset preview, and Cancel writes nothing', async () => {
    const before = await lagOf();
    assert.ok(before > 0, `${GROUP} starts with lag (${before})`);
    const confirmation = await askForReset();
    const text = (await confirmation.innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`Reset the offsets of "${GROUP}" on "Simulator \\(demo\\)"\\?`));
    assert.match(text, /--to-earliest --all-topics/);
    assert.match(text, /\| legacy-events \| 0 \| 700 \| 0 \| -700 \|/);
    assert.match(text, /nothing is written if it changed since this preview/);
    await driver.screenshot('agent-tool-confirmation.png');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    // Read back through the read-only tool (no confirmation): the group's offsets are as they were.
    await send(JSON.stringify({ tool: 'kafkaGroupLens_describeGroup', input: { group: GROUP } }), false);
    const described = await lastAnswer(`describeGroup's answer on ${GROUP}`, (text) => text.includes('members 0'));
    assert.match(described, new RegExp(`${GROUP} \\[simple\\] Empty, members 0, lag ${before}\\b`), 'Cancel changed nothing');
  });

  it('Continue runs the reset with the preview\'s re-check: the tree shows the group at the earliest offsets', async () => {
    const before = await lagOf();
    const confirmation = await askForReset();
    await confirmation.getByRole('button', { name: 'Continue' }).first().click();
    await driver.waitUntil(`${GROUP}'s lag to grow after the reset to earliest`, 60_000, async () => (await lagOf()) > before);
    const answer = await lastAnswer('the reset\'s answer in the chat', (text) => text.includes(GROUP));
    assert.doesNotMatch(answer, /Not executed/, answer);
    await driver.screenshot('agent-tool-executed.png');
    await driver.runFromCommandPalette('View: Close All Editors');
  });
});
