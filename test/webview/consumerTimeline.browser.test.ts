/**
 * A KIP-848 consumer group's timeline in headless chromium: two members join, the first is slow to
 * revoke, a third joins, one leaves. Each member's lane shows when it was revoking and when it was
 * waiting; a step that reached the target says how long that took, and a target lists every member's
 * time. Leaves a screenshot in test/artifacts/consumer-timeline.png.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { encodeEvents } from '../../src/webview/eventColumns';
import { membershipChange, TIMELINE_GROUP } from '../unit/timeline/consumerGroupTimeline';
import { countBecomes, textBecomes } from './eventually';
import { openTimeline, type TimelineHarness } from './timelinePage';

const ARTIFACTS = join(__dirname, '..', 'artifacts');

describe('KIP-848 consumer-group timeline webview (chromium)', function () {
  this.timeout(60000);
  let harness: TimelineHarness;
  const { events } = membershipChange();

  before(async () => {
    harness = await openTimeline();
    await harness.send({ type: 'snapshot', sourceId: 'simulator', groupId: TIMELINE_GROUP, clusterLabel: 'Simulator', timeBase: 'virtual', origin: '__consumer_offsets records', events: encodeEvents(events) });
    await countBecomes(harness.page.locator('.lane-label:not(.group-label)'), (n) => n === 3, 'three member lanes');
  });

  after(async () => {
    await harness?.close();
  });

  const drawn = (selector: string): Promise<number> =>
    harness.page.locator(`.plot path.batch${selector}`).evaluateAll((paths) => paths.reduce((sum, path) => sum + Number(path.getAttribute('data-count')), 0));

  it('draws each member\'s revoking and waiting spans and the Reconciling phases', async () => {
    // Revoking: m1 at epoch 2 (2000-7000) and 3 (10500-10600), m2 at epoch 3 (11000-11100).
    assert.equal(await drawn('.recon-revoking'), 3);
    // Waiting: m2 for foo-3..5 (1000-3000, 3000-8000), m3 for foo-2 and foo-5 (10000-12000).
    assert.equal(await drawn('.recon-waiting'), 3);
    assert.ok((await drawn('.phase-Reconciling')) >= 2);
  });

  it('shows a member\'s epoch step with its convergence time, and a target with every member\'s', async () => {
    const page = harness.page;
    const step = events.findIndex((e) => e.kind === 'assignment-changed' && e.memberId === 'm1' && e.time === 7000);
    await page.locator('.timeline').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < step; i++) {
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('Enter');
    await textBecomes(page.locator('.details-title'), 'Assignment changed');
    const details = (await page.locator('.details').textContent()) ?? '';
    assert.match(details, /Member epoch2 → 3/);
    assert.match(details, /Converged6\.00 s after the target was set/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'consumer-timeline.png') });

    const target = events.findIndex((e) => e.kind === 'sync-completed' && e.generation === 4);
    for (let i = step; i < target; i++) {
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('Enter');
    await textBecomes(page.locator('.details h3').last(), /Convergence to epoch 4|Rebalance/);
    await countBecomes(page.locator('table.convergence tbody tr'), (n) => n === 3, 'three members converged to epoch 4');
    assert.deepEqual(await page.locator('table.convergence tbody td').allTextContents(), ['600 ms', '1.10 s', '2.00 s']);
  });
});
