/**
 * Transactions on the timeline in headless chromium, from the simulator's transactions scenario:
 * payments-enricher's group lane shows its committed, aborted and still-open transactions; ledger's
 * member lane shows the dead importer's transaction holding the LSO of payments-enriched-1 from 30 s
 * until the coordinator aborts it at 100 s. Leaves screenshots in test/artifacts/transactions-*.png.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { encodeEvents } from '../../src/webview/eventColumns';
import { transactionsTimelines, type TransactionsTimelines } from '../unit/timeline/transactionsTimeline';
import { countBecomes, textBecomes } from './eventually';
import { openTimeline, type TimelineHarness } from './timelinePage';

const ARTIFACTS = join(__dirname, '..', 'artifacts');

describe('transactions on the timeline webview (chromium)', function () {
  this.timeout(60000);
  let harness: TimelineHarness;
  let timelines: TransactionsTimelines;

  before(async () => {
    timelines = await transactionsTimelines();
    harness = await openTimeline();
  });

  after(async () => {
    await harness?.close();
  });

  const drawn = (selector: string): Promise<number> =>
    harness.page.locator(`.plot path.batch${selector}`).evaluateAll((paths) => paths.reduce((sum, path) => sum + Number(path.getAttribute('data-count')), 0));

  const show = async (groupId: string, events: TransactionsTimelines['enricher']): Promise<void> => {
    await harness.send({ type: 'snapshot', sourceId: 'simulator', groupId, clusterLabel: 'Simulator', timeBase: 'virtual', origin: 'simulator event log', events: encodeEvents(events) });
    await textBecomes(harness.page.locator('.details-title'), 'Overview');
    await countBecomes(harness.page.locator('.lane-label:not(.group-label)'), (n) => n >= 1, `${groupId}'s member lanes`);
  };

  it('draws payments-enricher\'s transactions committed, aborted and open, and says so in the overview', async () => {
    await show('payments-enricher', timelines.enricher);
    await eventuallyDrawn('.txn-committed', (n) => n >= 1);
    assert.equal(await drawn('.txn-aborted'), 1);
    assert.equal(await drawn('.txn-pending'), 0, 'the scenario ends with every enricher transaction ended but the last, which ends in time');
    const overview = (await harness.page.locator('.details').textContent()) ?? '';
    assert.match(overview, /Transactions\d+ committed, 1 aborted, \d+ open/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await harness.page.screenshot({ path: join(ARTIFACTS, 'transactions-enricher.png') });
  });

  it('draws the importer\'s hold of ledger\'s LSO on its reader\'s lane and tells how long read_committed consumers waited', async () => {
    await show('ledger', timelines.ledger);
    await eventuallyDrawn('.lso-hold', (n) => n >= 1);
    const page = harness.page;
    const held = timelines.ledger.findIndex((e) => e.kind === 'lso-held' && e.transaction?.producerId === timelines.importerProducerId);
    assert.ok(held >= 0);
    await page.locator('.timeline').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < held; i++) {
      await page.keyboard.press('ArrowRight');
    }
    await page.keyboard.press('Enter');
    await textBecomes(page.locator('.details-title'), 'LSO held by a transaction');
    const details = (await page.locator('.details').textContent()) ?? '';
    assert.match(details, /LSO of payments-enriched-1/);
    assert.match(details, /Byimporter-tx, producer \d+/);
    assert.match(details, /Held for1\.2 min|Held for70\.0 s|Held for1 min 10 s/);
    assert.match(details, /read_committed fetches stop at the LSO/);
    await page.screenshot({ path: join(ARTIFACTS, 'transactions-ledger.png') });
  });

  async function eventuallyDrawn(selector: string, accept: (n: number) => boolean): Promise<void> {
    await countBecomes(harness.page.locator(`.plot path.batch${selector}`), (n) => n > 0, `a ${selector} path`);
    const n = await drawn(selector);
    assert.ok(accept(n), `${n} ${selector} shapes`);
  }
});
