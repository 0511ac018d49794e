/**
 * The built-in `protocols` scenario's three groups in the timeline webview (headless chromium): the
 * same membership change under classic eager, classic cooperative and KIP-848 consumer-protocol
 * rebalancing, from the engine's own event log. Each group draws its member lanes; only the
 * consumer-protocol group draws reconciliation (members revoking and waiting on their own epochs).
 * Leaves the three stacked in test/artifacts/timeline-protocols.png.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { RebalanceEvent } from '../../src/model/types';
import { runScenario } from '../../src/simulator/scenarios/runScenario';
import { PROTOCOL_GROUPS, PROTOCOLS_SCENARIO } from '../../src/simulator/scenarios/protocols';
import { encodeEvents } from '../../src/webview/eventColumns';
import { countBecomes, textBecomes } from './eventually';
import { CHROMIUM_PATH, openTimeline } from './timelinePage';

const ARTIFACTS = join(__dirname, '..', 'artifacts');

interface Rendered {
  groupId: string;
  lanes: number;
  revoking: number;
  waiting: number;
  png: Buffer;
}

async function render(groupId: string, events: RebalanceEvent[]): Promise<Rendered> {
  const harness = await openTimeline({ width: 1400, height: 520 });
  try {
    await harness.send({ type: 'snapshot', sourceId: 'simulator', groupId, clusterLabel: 'Simulator (protocols)', timeBase: 'virtual', origin: 'simulator event log', events: encodeEvents(events) });
    await textBecomes(harness.page.locator('.title-row'), new RegExp(groupId));
    const lanes = await countBecomes(harness.page.locator('.lane-label:not(.group-label)'), (n) => n >= 4, `${groupId}: a lane for each of its four members`);
    const drawn = (selector: string): Promise<number> =>
      harness.page.locator(`.plot path.batch${selector}`).evaluateAll((paths) => paths.reduce((sum, path) => sum + Number(path.getAttribute('data-count')), 0));
    return { groupId, lanes, revoking: await drawn('.recon-revoking'), waiting: await drawn('.recon-waiting'), png: await harness.page.screenshot() };
  } finally {
    await harness.close();
  }
}

/** The three screenshots one above the other, each under its group's name, in one PNG. */
async function stack(rendered: Rendered[], path: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 400 } });
    const parts = rendered.map((r) => `<h2>${r.groupId}</h2><img src="data:image/png;base64,${r.png.toString('base64')}">`).join('');
    await page.setContent(`<body style="margin:0;background:#181818;color:#ccc;font:16px system-ui">${parts}</body>`);
    await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));
    await page.screenshot({ path, fullPage: true });
  } finally {
    await browser.close();
  }
}

describe('protocols scenario timeline webview (chromium)', function () {
  this.timeout(120000);
  const { events } = runScenario(PROTOCOLS_SCENARIO);
  const rendered: Rendered[] = [];

  before(async () => {
    for (const groupId of [PROTOCOL_GROUPS.eager, PROTOCOL_GROUPS.cooperative, PROTOCOL_GROUPS.consumer]) {
      rendered.push(await render(groupId, events.filter((e) => e.groupId === groupId)));
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    await stack(rendered, join(ARTIFACTS, 'timeline-protocols.png'));
  });

  it('draws all three groups with a lane per member', () => {
    assert.deepEqual(rendered.map((r) => r.groupId), [PROTOCOL_GROUPS.eager, PROTOCOL_GROUPS.cooperative, PROTOCOL_GROUPS.consumer]);
    for (const r of rendered) {
      assert.equal(r.lanes, 4, `${r.groupId}: four member lanes`);
    }
  });

  it('draws the consumer-protocol group\'s reconciliation, and none for the classic groups', () => {
    const [eager, cooperative, consumer] = rendered;
    assert.ok(consumer.revoking > 0, 'members revoking on their own epochs');
    assert.ok(consumer.waiting > 0, 'members waiting for partitions others still owned');
    assert.equal(eager.revoking + eager.waiting, 0);
    assert.equal(cooperative.revoking + cooperative.waiting, 0);
  });
});
