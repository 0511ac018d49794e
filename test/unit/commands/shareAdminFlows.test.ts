import { strict as assert } from 'assert';
import { deleteGroupFlow, deleteOffsetsFlow, SHARE_OFFSETS } from '../../../src/commands/groupAdminFlows';
import { shareGroupOffsetsAdmin } from '../../../src/offsets/shareAdmin';
import { planUndo, undoReset } from '../../../src/reset/resetFlow';
import { FakeShareCluster } from '../reset/fakeShareCluster';
import { ScriptedAdminPrompts } from './scriptedAdminPrompts';

describe('commands/groupAdminFlows for share groups', () => {
  let cluster: FakeShareCluster;
  beforeEach(() => {
    cluster = new FakeShareCluster();
    cluster.states.set('sg', 'Empty');
    cluster.starts.set('sg', [
      { topic: 'orders', partition: 0, startOffset: 40 },
      { topic: 'orders', partition: 1, startOffset: 12 },
      { topic: 'pay', partition: 0, startOffset: 3 },
    ]);
  });

  it('deletes a whole topic\'s start offsets (no partition pick), and undo puts them back with AlterShareGroupOffsets', async () => {
    const admin = shareGroupOffsetsAdmin(cluster.admin(), 'sg');
    const prompts = new ScriptedAdminPrompts([{ pick: 'orders' }], [true]);
    const outcome = await deleteOffsetsFlow(prompts, admin, 'sg', SHARE_OFFSETS);
    assert.ok(outcome?.ok, outcome?.summary);
    assert.deepEqual(prompts.asked.map((q) => q.kind), ['pickOne']);
    assert.match(prompts.confirmations[0].message, /Delete the start offsets of 'sg' \(Empty\) for 2 partition\(s\) of orders/);
    assert.deepEqual(cluster.calls, ['delete orders']);
    assert.deepEqual(await cluster.shareStartOffsets('sg'), [{ topic: 'pay', partition: 0, startOffset: 3 }]);
    const undo = outcome?.undo;
    assert.ok(undo);
    const restored = await undoReset(admin, undo, await planUndo(admin, undo));
    assert.ok(restored.ok && restored.results.every((r) => r.error === undefined));
    assert.deepEqual(cluster.calls[cluster.calls.length - 1], 'alter orders-0=40,orders-1=12');
  });

  it('deletes an Empty share group, naming its start offsets, and refuses one with members', async () => {
    const admin = shareGroupOffsetsAdmin(cluster.admin(), 'sg');
    let deleted: readonly string[] = [];
    const withDelete = { ...admin, deleteGroups: async (ids: readonly string[]) => ((deleted = ids), ids.map((groupId) => ({ groupId }))) };
    const prompts = new ScriptedAdminPrompts([], [true]);
    const outcome = await deleteGroupFlow(prompts, withDelete, 'sg', 0, SHARE_OFFSETS);
    assert.ok(outcome?.ok);
    assert.deepEqual(deleted, ['sg']);
    assert.equal(prompts.confirmations[0].message, "Delete share group 'sg'?");
    assert.match(prompts.confirmations[0].detail ?? '', /Its 3 start offset\(s\) are deleted with it/);
    cluster.states.set('sg', 'Stable');
    await assert.rejects(deleteGroupFlow(new ScriptedAdminPrompts([]), withDelete, 'sg', 2, SHARE_OFFSETS), /is Stable with 2 member\(s\)/);
  });
});
