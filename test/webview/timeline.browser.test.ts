/**
 * The timeline webview in headless chromium: lanes and bands are drawn, selection fills the
 * details pane, keyboard navigation and zoom work, hostile ids stay text, live appends show,
 * export asks the host. Leaves a screenshot in test/artifacts/timeline.png.
 * Run: npx mocha --config test/webview/.mocharc.json
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RebalanceEvent } from '../../src/model/types';
import { encodeEvents } from '../../src/webview/eventColumns';
import { countBecomes, textBecomes } from './eventually';
import { storyEvents } from './sampleEvents';
import { applyTheme, openTimeline, THEMES, type TimelineHarness } from './timelinePage';

const HOSTILE_GROUP = 'billing <script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const ARTIFACTS = join(__dirname, '..', 'artifacts');

function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

describe('timeline webview (chromium)', function () {
  this.timeout(60000);
  let harness: TimelineHarness;
  const events = storyEvents(HOSTILE_GROUP);

  before(async () => {
    harness = await openTimeline();
    await harness.send({ type: 'snapshot', sourceId: 'simulator', groupId: HOSTILE_GROUP, clusterLabel: 'Simulator', timeBase: 'virtual', origin: 'simulator event log', events: encodeEvents(events) });
    // The snapshot is handled in a later task and drawn in an animation frame: wait for its lanes.
    await countBecomes(harness.page.locator('.lane-label:not(.group-label)'), (n) => n === 4, 'four member lanes');
  });

  after(async () => {
    await harness?.close();
  });

  it('says ready first, then renders one lane per member with static members badged', async () => {
    const posted = await harness.posted();
    assert.deepEqual(posted[0], { type: 'ready' });
    const labels = await harness.page.locator('.lane-label:not(.group-label)').allTextContents();
    assert.equal(labels.length, 4);
    assert.ok(labels.some((l) => l.startsWith('billing-1 · 3f9c2a71')), labels.join('|'));
    assert.ok(labels.some((l) => l.startsWith('billing-static-a')), labels.join('|'));
    assert.equal(await harness.page.locator('.badge-text').count(), 1);
  });

  it('draws phase bands, generation labels, rebalance bars and stopped-consumption windows', async () => {
    const page = harness.page;
    // Alike shapes share one path; data-count says how many it holds.
    const drawn = (selector: string): Promise<number> =>
      page.locator(`.plot path.batch${selector}`).evaluateAll((paths) => paths.reduce((sum, path) => sum + Number(path.getAttribute('data-count')), 0));
    assert.ok((await drawn('.phase-PreparingRebalance')) >= 5);
    assert.ok((await drawn('.phase-CompletingRebalance')) >= 5);
    assert.ok((await drawn('.phase-Stable')) >= 5);
    assert.deepEqual((await page.locator('.gen-label').allTextContents()).slice(0, 3), ['gen 0', 'gen 1', 'gen 2']);
    assert.equal(await drawn('.rebalance'), 7);
    assert.equal(await drawn('.stop-eager'), 4);
    assert.equal(await drawn('.stop-cooperative'), 2);
    assert.ok((await drawn('.marker')) >= 30);
    // Far fewer elements than shapes: that is what keeps 10,000 events fast.
    const paths = await page.locator('.plot path.batch').count();
    const shapes = await drawn('');
    assert.ok(paths < shapes, `${paths} paths for ${shapes} shapes`);
  });

  it('shows what is under the pointer as a tooltip', async () => {
    const page = harness.page;
    const box = await page.locator('.plot path.batch.k-member-expired').boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await textBecomes(page.locator('.plot > title'), /^Session expired · t\+0:41\.000$/);
  });

  it('keeps a hostile group id as text', async () => {
    const page = harness.page;
    assert.equal(await page.locator('h1.title').textContent(), HOSTILE_GROUP);
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    assert.equal(await page.locator('#app script, #app img').count(), 0);
  });

  it('shows a clicked event in the details pane', async () => {
    const page = harness.page;
    await page.locator('.plot path.k-member-expired').first().click();
    await textBecomes(page.locator('.details-title'), 'Session expired');
    const details = await page.locator('.details').textContent();
    assert.match(details ?? '', /Session timeout expired for member billing-static-a/);
    assert.match(details ?? '', /billing-static-a \(static\)/);
    assert.equal(await page.locator('path.marker.selected').count(), 1);
  });

  it('moves between events with the arrow keys and selects with Enter', async () => {
    const page = harness.page;
    await page.locator('.timeline').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await textBecomes(page.locator('.details-title'), 'Rebalance started');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await textBecomes(page.locator('.details-title'), 'Offsets committed');
    await page.keyboard.press('Escape');
    await textBecomes(page.locator('.details-title'), 'Overview');
  });

  it('zooms with + and - and fits with 0', async () => {
    const page = harness.page;
    const span = (): Promise<number> => page.evaluate(() => {
      const view = (window as unknown as { __state: { view: { start: number; end: number } } }).__state.view;
      return view.end - view.start;
    });
    const fitted = await span();
    await page.locator('.timeline').focus();
    await page.keyboard.press('+');
    assert.ok((await span()) < fitted * 0.7);
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    assert.ok((await span()) > fitted);
    await page.keyboard.press('0');
    assert.equal(Math.round(await span()), Math.round(fitted));
  });

  it('asks the host to export and applies live appends', async () => {
    const page = harness.page;
    await page.getByRole('button', { name: 'Save these events as JSON' }).click();
    assert.ok((await harness.posted()).some((m) => m.type === 'export'));
    const extra: RebalanceEvent = { groupId: HOSTILE_GROUP, time: 90000, kind: 'member-joined', generation: 6, memberId: 'late-1-abc', clientId: 'late-1' };
    await harness.send({ type: 'append', dropFromStart: 0, events: [extra] });
    await textBecomes(page.locator('.status'), new RegExp(`^${events.length + 1} events · 5 members`));
  });

  it('keeps its performance marks bounded however many live updates arrive', async () => {
    const page = harness.page;
    const before = await page.evaluate(() => performance.getEntries().length);
    for (let i = 0; i < 250; i++) {
      // Each append adds a message mark and model and render measures: 750 entries unless trimmed.
      await harness.send({ type: 'append', dropFromStart: 0, events: [{ groupId: HOSTILE_GROUP, time: 100000 + i, kind: 'offsets-committed', generation: 6, memberId: 'late-1-abc' }] });
    }
    // Every append handled (messages arrive in order), so the count below is after the last one.
    await textBecomes(page.locator('.status'), new RegExp(`^${events.length + 251} events`));
    const after = await page.evaluate(() => performance.getEntriesByType('mark').length + performance.getEntriesByType('measure').length);
    assert.ok(after <= 600, `${after} marks and measures kept (${before} entries before)`);
    assert.ok(after > 0, 'the app still records its timings');
  });

  it('renders a polished screenshot with an assignment selected', async () => {
    const page = harness.page;
    await harness.send({ type: 'snapshot', sourceId: 'simulator', groupId: 'billing-consumers', clusterLabel: 'Simulator', timeBase: 'virtual', origin: 'simulator event log', events: encodeEvents(storyEvents('billing-consumers')) });
    await textBecomes(page.locator('h1.title'), 'billing-consumers');
    await textBecomes(page.locator('.status'), new RegExp(`^${storyEvents('billing-consumers').length} events`));
    // The second assignment (event 9): keyboard to it, then select.
    await page.locator('.timeline').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('Enter');
    await textBecomes(page.locator('.details-title'), 'Assignment changed');
    await countBecomes(page.locator('table.assignments tbody tr'), (n) => n >= 3, 'at least three assignment rows');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'timeline.png') });
  });

  it('takes its colours from the theme variables in light and high-contrast themes', async () => {
    const page = harness.page;
    for (const theme of ['light', 'highContrast'] as const) {
      await applyTheme(page, theme);
      const expected = THEMES[theme][1];
      const colours = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        joined: getComputedStyle(document.querySelector('path.k-member-joined') as Element).fill,
      }));
      assert.equal(colours.background, hexToRgb(expected['--vscode-editor-background']), theme);
      assert.equal(colours.joined, hexToRgb(expected['--vscode-charts-green']), theme);
      await page.screenshot({ path: join(ARTIFACTS, `timeline-${theme}.png`) });
    }
    await applyTheme(page, 'dark');
  });
});
