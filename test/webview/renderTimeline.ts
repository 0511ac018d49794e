/**
 * Renders a timeline from saved events (JSON, as the panel's Export writes them) in headless chromium
 * and saves a screenshot: for tests that run outside the browser suite (the real-broker timeline).
 * Usage: npx tsx test/webview/renderTimeline.ts <events.json> <out.png> <group> <cluster label>
 */
import { readFileSync } from 'node:fs';
import type { RebalanceEvent } from '../../src/model/types';
import { encodeEvents } from '../../src/webview/eventColumns';
import { countBecomes } from './eventually';
import { openTimeline } from './timelinePage';

async function main(): Promise<void> {
  const [eventsFile, out, groupId, clusterLabel] = process.argv.slice(2);
  if (!eventsFile || !out || !groupId || !clusterLabel) {
    throw new Error('usage: renderTimeline.ts <events.json> <out.png> <group> <cluster label>');
  }
  const events = JSON.parse(readFileSync(eventsFile, 'utf8')) as RebalanceEvent[];
  const members = new Set(events.flatMap((e) => (e.kind === 'member-joined' && e.memberId ? [e.memberId] : []))).size;
  const harness = await openTimeline({ width: 1400, height: 640 });
  try {
    await harness.send({ type: 'snapshot', sourceId: 'kafka', groupId, clusterLabel, timeBase: 'epoch', origin: '__consumer_offsets', events: encodeEvents(events) });
    await countBecomes(harness.page.locator('.lane-label:not(.group-label)'), (n) => n === members, `${members} member lanes`);
    await harness.page.screenshot({ path: out });
  } finally {
    await harness.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
