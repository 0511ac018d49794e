import { strict as assert } from 'assert';
import { deleteGroupFlow, deleteOffsetsFlow, nonEmptyGroupReason, removeStaticMembersFlow } from '../../../src/commands/groupAdminFlows';
import { ScriptedAdminPrompts } from './scriptedAdminPrompts';
import { demoAdmin, type SimAdminFixture } from './simAdminFixture';

describe('commands/groupAdminFlows over the simulator', () => {
  let fx: SimAdminFixture;
  beforeEach(() => {
    fx = demoAdmin();
  });
  afterEach(async () => {
    await fx.source.dispose();
  });

  it('deletes an Empty group after a confirmation naming it', async () => {
    const prompts = new ScriptedAdminPrompts([], [true]);
    const outcome = await deleteGroupFlow(prompts, fx.admin, 'billing-archive', 0);
    assert.deepEqual(outcome, { ok: true, summary: "Deleted group 'billing-archive'", lines: ['billing-archive: deleted'] });
    assert.equal(prompts.confirmations[0].message, "Delete consumer group 'billing-archive'?");
    assert.match(prompts.confirmations[0].detail ?? '', /3 committed offset/);
    assert.equal(await fx.admin.groupState('billing-archive'), 'missing');
    assert.deepEqual(await fx.admin.committedOffsets('billing-archive'), []);
  });

  it('keeps the group when the confirmation is declined', async () => {
    assert.equal(await deleteGroupFlow(new ScriptedAdminPrompts([], [false]), fx.admin, 'billing-archive', 0), undefined);
    assert.equal(await fx.admin.groupState('billing-archive'), 'Empty');
  });

  it('explains why an active group cannot be deleted, and the broker answers NON_EMPTY_GROUP', async () => {
    await assert.rejects(deleteGroupFlow(new ScriptedAdminPrompts([]), fx.admin, 'orders-processor', 4), /is Stable with 4 member\(s\).*NON_EMPTY_GROUP/);
    assert.deepEqual(await fx.admin.deleteGroups(['orders-processor', 'no-such-group']), [
      { groupId: 'orders-processor', error: 'NON_EMPTY_GROUP' },
      { groupId: 'no-such-group', error: 'GROUP_ID_NOT_FOUND' },
    ]);
    assert.match(nonEmptyGroupReason('x', 'missing', 0) ?? '', /GROUP_ID_NOT_FOUND/);
    assert.equal(nonEmptyGroupReason('x', 'Empty', 0), null);
  });

  it('refuses to delete offsets of a topic the group subscribes to, partition by partition', async () => {
    const before = await fx.admin.committedOffsets('orders-processor');
    const partitions = before.filter((c) => c.topic === 'orders').map((c) => String(c.partition));
    assert.ok(partitions.length > 0);
    const prompts = new ScriptedAdminPrompts([{ pick: 'orders' }, { pickMany: partitions }], [true]);
    const outcome = await deleteOffsetsFlow(prompts, fx.admin, 'orders-processor');
    assert.ok(outcome);
    assert.equal(outcome.ok, false);
    assert.deepEqual(outcome.lines, partitions.map((p) => `orders-${p}: GROUP_SUBSCRIBED_TO_TOPIC`));
    assert.deepEqual(prompts.asked[1].preselected, partitions, 'every committed partition is picked by default');
    assert.equal((await fx.admin.committedOffsets('orders-processor')).filter((c) => c.topic === 'orders').length, partitions.length);
  });

  it('deletes the chosen committed offsets of an Empty group and names them in the confirmation', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: 'legacy-events' }, { pickMany: ['0', '2'] }], [true]);
    const before = await fx.admin.committedOffsets('billing-archive');
    const takenAt = fx.admin.now();
    const outcome = await deleteOffsetsFlow(prompts, fx.admin, 'billing-archive');
    assert.deepEqual(outcome, {
      ok: true,
      summary: "Deleted 2 committed offset(s) of 'billing-archive' on legacy-events",
      lines: ['legacy-events-0: deleted', 'legacy-events-2: deleted'],
      // What undo commits again: the deleted offsets with their metadata.
      undo: { groupId: 'billing-archive', takenAt, offsets: [{ ...before[0], after: null }, { ...before[2], after: null }] },
    });
    assert.equal(prompts.confirmations[0].message, "Delete the committed offsets of 'billing-archive' (Empty) for 2 partition(s) of legacy-events?");
    assert.match(prompts.confirmations[0].detail ?? '', /^legacy-events-0 \(700\), legacy-events-2 \(250\)\./);
    assert.deepEqual((await fx.admin.committedOffsets('billing-archive')).map((c) => c.partition), [1]);
  });

  it('deletes nothing when an offset moved while the confirmation was shown, and asks again with the new offsets', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: 'legacy-events' }, { pickMany: ['0', '2'] }], [true, true]);
    prompts.whileConfirming = async (_options, index) => {
      if (index === 0) {
        await fx.admin.commitOffsets('billing-archive', [{ topic: 'legacy-events', partition: 2, offset: 300 }]);
        assert.equal((await fx.admin.committedOffsets('billing-archive')).length, 3, 'nothing deleted before the second answer');
      }
    };
    const outcome = await deleteOffsetsFlow(prompts, fx.admin, 'billing-archive');
    assert.equal(prompts.confirmations.length, 2);
    assert.equal(
      prompts.confirmations[1].message,
      "The group changed since you were asked (legacy-events-2: shown 250, now 300). Delete the committed offsets of 'billing-archive' (Empty) for 2 partition(s) of legacy-events?",
    );
    assert.match(prompts.confirmations[1].detail ?? '', /^legacy-events-0 \(700\), legacy-events-2 \(300\)\./);
    assert.equal(outcome?.ok, true);
    // Undo puts back what was really deleted: 300, not the 250 first shown.
    assert.deepEqual(outcome?.undo?.offsets.map((o) => [o.partition, o.offset]), [[0, 700], [2, 300]]);
  });

  it('deletes nothing when the group stopped being Empty while the confirmation was shown', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: 'legacy-events' }, { pickMany: ['0'] }], [true, false]);
    prompts.whileConfirming = (_options, index) => {
      if (index === 0) {
        fx.source.control.addConsumer({ groupId: 'billing-archive', topics: ['legacy-events'] });
        fx.source.advance(10000);
      }
    };
    assert.equal(await deleteOffsetsFlow(prompts, fx.admin, 'billing-archive'), undefined);
    assert.match(prompts.confirmations[1].message, /^The group changed since you were asked \(state: shown Empty, now Stable; legacy-events-0: shown 700, now \d+\)\. Delete .* \(Stable\) /);
    assert.equal((await fx.admin.committedOffsets('billing-archive')).length, 3);
  });

  it('removes a static member by group.instance.id, which makes the group rebalance', async () => {
    const detail = await fx.source.describeGroup('payments-audit');
    assert.equal(detail.state, 'Stable');
    const removedAt = fx.admin.now();
    const prompts = new ScriptedAdminPrompts([{ pickMany: ['payments-audit-a'] }], [true]);
    const outcome = await removeStaticMembersFlow(prompts, fx.admin, detail);
    assert.deepEqual(outcome, {
      ok: true,
      summary: "Removed 1 static member(s) from 'payments-audit'; the group rebalances",
      lines: ['payments-audit-a: removed'],
    });
    assert.deepEqual(prompts.asked[0].labels, ['payments-audit-a', 'payments-audit-b']);
    const events = fx.source.rebalanceEvents('payments-audit').filter((e) => e.time >= removedAt);
    const left = events.find((e) => e.kind === 'member-left');
    assert.equal(left?.groupInstanceId, 'payments-audit-a');
    assert.equal(left?.cause, 'member was removed by an admin');
    assert.ok(events.some((e) => e.kind === 'rebalance-started'), `no rebalance after the removal: ${events.map((e) => e.kind).join(', ')}`);
  });

  it('reports an unknown instance id with UNKNOWN_MEMBER_ID', async () => {
    const detail = await fx.source.describeGroup('payments-audit');
    const outcome = await removeStaticMembersFlow(new ScriptedAdminPrompts([], [true]), fx.admin, detail, ['ghost']);
    assert.deepEqual(outcome, { ok: false, summary: "1 of 1 member(s) of 'payments-audit' were not removed", lines: ['ghost: UNKNOWN_MEMBER_ID'] });
  });

  it('says so when a group has no static members', async () => {
    const detail = await fx.source.describeGroup('orders-processor');
    await assert.rejects(removeStaticMembersFlow(new ScriptedAdminPrompts([]), fx.admin, detail), /has no static members/);
  });
});
