import { strict as assert } from 'assert';
import { AgentTools } from '../../../src/agent/agentTools';
import { AgentWrites, CONFIRMATION_TTL_MS, verbatimMarkdown } from '../../../src/agent/agentWrites';
import { parseStoredSnapshot } from '../../../src/reset/resetFlow';
import { undoSnapshotKey, type UndoStore } from '../../../src/offsets/undo';
import { demoAdmin, type SimAdminFixture } from '../commands/simAdminFixture';

const CHAT = { fromChat: true };
const NOT_CHAT = { fromChat: false };
const TO_EARLIEST = { group: 'billing-archive', scenario: 'to-earliest' } as const;

/** workspaceState as a map. */
class MapUndoStore implements UndoStore {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

describe('agent write tools over the demo simulator', () => {
  let fx: SimAdminFixture;
  let tools: AgentTools;
  let writes: AgentWrites;
  let store: MapUndoStore;
  let clock: number;
  const refreshed: string[] = [];
  const offsets = async (groupId = 'billing-archive') => (await fx.admin.committedOffsets(groupId)).map(({ topic, partition, offset }) => `${topic}-${partition}@${offset}`).sort();

  beforeEach(() => {
    fx = demoAdmin();
    clock = 1_000_000;
    store = new MapUndoStore();
    refreshed.length = 0;
    tools = new AgentTools({ sources: () => [{ source: fx.source, admin: fx.admin }], loadedGroups: () => [] });
    writes = new AgentWrites({ tools, undoStore: store, now: () => clock, refresh: async (id) => void refreshed.push(id) });
  });
  afterEach(async () => {
    tools.dispose();
    await fx.source.dispose();
  });

  it('shows the preview in the confirmation, and without chat refuses and changes nothing', async () => {
    const before = await offsets();
    const confirmation = await writes.prepareReset(TO_EARLIEST);
    assert.match(confirmation.title, /Reset the offsets of "billing-archive"/);
    assert.match(confirmation.message, /\| legacy-events \| 0 \| 700 \| 0 \| -700 \|/);
    assert.match(confirmation.message, /^```text\nReset of "billing-archive"[^]*\n```\n\n/, 'the preview is shown verbatim, not as markdown');
    await assert.rejects(writes.executeReset(TO_EARLIEST, NOT_CHAT), /runs only from chat.*Nothing was changed/);
    assert.deepEqual(await offsets(), before);
    assert.equal(store.values.size, 0, 'no undo record');
    // The refused call used the preview up: a chat call now needs a new one.
    await assert.rejects(writes.executeReset(TO_EARLIEST, CHAT), /No confirmed preview/);
    assert.deepEqual(await offsets(), before);
  });

  it('executes a confirmed reset once, through the panel flow, and keeps the same undo record', async () => {
    await writes.prepareReset(TO_EARLIEST);
    const text = await writes.executeReset(TO_EARLIEST, CHAT);
    assert.match(text, /Committed 3 offset\(s\) of billing-archive.*Undo Last Offset Change/);
    assert.deepEqual(await offsets(), ['legacy-events-0@0', 'legacy-events-1@0', 'legacy-events-2@0']);
    const undo = parseStoredSnapshot(store.get(undoSnapshotKey(fx.source.id, 'billing-archive')));
    assert.deepEqual(undo?.offsets.map((o) => [o.partition, o.offset, o.after]), [[0, 700, 0], [1, 1000, 0], [2, 250, 0]]);
    assert.equal(undo?.takenAt, clock);
    assert.deepEqual(refreshed, [fx.source.id]);
    await assert.rejects(writes.executeReset(TO_EARLIEST, CHAT), /No confirmed preview/, 'single use');
  });

  it('acts on no preview that expired, was for other input, or no longer matches the group', async () => {
    const before = await offsets();
    await writes.prepareReset(TO_EARLIEST);
    clock += CONFIRMATION_TTL_MS + 1;
    await assert.rejects(writes.executeReset(TO_EARLIEST, CHAT), /expires after 5 minutes/);
    await writes.prepareReset(TO_EARLIEST);
    await assert.rejects(writes.executeReset({ ...TO_EARLIEST, scenario: 'to-latest' }, CHAT), /No confirmed preview/);
    await writes.prepareReset(TO_EARLIEST);
    await fx.admin.commitOffsets('billing-archive', [{ topic: 'legacy-events', partition: 1, offset: 10 }]);
    assert.match(await writes.executeReset(TO_EARLIEST, CHAT), /Not executed: billing-archive changed since the preview/);
    assert.deepEqual(await offsets(), before.map((o) => (o === 'legacy-events-1@1000' ? 'legacy-events-1@10' : o)));
    await assert.rejects(writes.prepareReset({ group: 'orders-processor', scenario: 'to-earliest' }), /Cannot plan/);
  });

  it('deletes confirmed offsets through the tree command flow, with its undo record', async () => {
    await assert.rejects(writes.prepareDeleteOffsets({ group: 'billing-archive', topic: 'orders' }), /no committed offsets on topic "orders"; its topics with offsets: legacy-events/);
    await assert.rejects(writes.prepareDeleteOffsets({ group: 'billing-archive', topic: 'legacy-events', partitions: [7] }), /partition\(s\) 7 .*committed partitions: 0, 1, 2/);
    const confirmation = await writes.prepareDeleteOffsets({ group: 'billing-archive', topic: 'legacy-events', partitions: [0, 2] });
    assert.match(confirmation.title, /for 2 partition\(s\) of legacy-events/);
    assert.match(confirmation.message, /legacy-events-0 \(700\), legacy-events-2 \(250\)/);
    await assert.rejects(writes.deleteOffsets({ group: 'billing-archive', topic: 'legacy-events', partitions: [0, 2] }, NOT_CHAT), /runs only from chat/);
    assert.equal((await offsets()).length, 3);
    await writes.prepareDeleteOffsets({ group: 'billing-archive', topic: 'legacy-events', partitions: [0, 2] });
    const text = await writes.deleteOffsets({ group: 'billing-archive', topic: 'legacy-events', partitions: [0, 2] }, CHAT);
    assert.match(text, /Deleted 2 committed offset\(s\).*commits them again/);
    assert.deepEqual(await offsets(), ['legacy-events-1@1000']);
    const undo = parseStoredSnapshot(store.get(undoSnapshotKey(fx.source.id, 'billing-archive')));
    assert.deepEqual(undo?.offsets.map((o) => [o.partition, o.offset, o.after]), [[0, 700, null], [2, 250, null]]);
  });

  it('deletes nothing when an offset changed after the confirmation was shown', async () => {
    const input = { group: 'billing-archive', topic: 'legacy-events' };
    await writes.prepareDeleteOffsets(input);
    await fx.admin.commitOffsets('billing-archive', [{ topic: 'legacy-events', partition: 0, offset: 5 }]);
    assert.match(await writes.deleteOffsets(input, CHAT), /Not executed: the group changed since the confirmation/);
    assert.equal((await offsets()).length, 3);
    assert.equal(store.values.size, 0);
  });

  it('removes a confirmed static member, and names the static members for an unknown one', async () => {
    await assert.rejects(writes.prepareRemoveMember({ group: 'payments-audit', instanceIds: ['nobody'] }), /no static member nobody; its static members: payments-audit-a, payments-audit-b/);
    await assert.rejects(writes.prepareRemoveMember({ group: 'orders-processor', instanceIds: ['orders-1'] }), /only members with a group.instance.id/);
    const input = { group: 'payments-audit', instanceIds: ['payments-audit-a'] };
    const confirmation = await writes.prepareRemoveMember(input);
    assert.match(confirmation.title, /Remove 1 static member\(s\) from 'payments-audit'/);
    await assert.rejects(writes.removeMember(input, NOT_CHAT), /runs only from chat/);
    assert.equal((await fx.source.describeGroup('payments-audit')).members.length, 2);
    await writes.prepareRemoveMember(input);
    assert.match(await writes.removeMember(input, CHAT), /Removed 1 static member\(s\)[\s\S]*payments-audit-a: removed/);
    assert.ok(!(await fx.source.describeGroup('payments-audit')).members.some((m) => m.groupInstanceId === 'payments-audit-a'));
  });

  it('keeps a preview holding markup literal in the confirmation\'s markdown', () => {
    assert.equal(verbatimMarkdown('group <b>x</b> [link](http://e.invalid) | *y*'), '```text\ngroup <b>x</b> [link](http://e.invalid) | *y*\n```');
    // A run of backticks inside cannot close the block early.
    assert.equal(verbatimMarkdown('a ```` b'), '`````text\na ```` b\n`````');
  });
});
