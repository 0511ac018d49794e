import { strict as assert } from 'node:assert';
import type { RebalanceEvent } from '../../../../src/model/types';
import { runScenario } from '../../../../src/simulator/scenarios/runScenario';
import { PROTOCOL_GROUPS, PROTOCOLS_JOIN_AT_MS, PROTOCOLS_LEAVE_AT_MS, PROTOCOLS_SCENARIO } from '../../../../src/simulator/scenarios/protocols';
import { createDemoSimSource } from '../../../../src/simulator/editor/simSource';

describe('protocols scenario', () => {
  const { events, groups } = runScenario(PROTOCOLS_SCENARIO);
  const of = (groupId: string, kind: RebalanceEvent['kind']) => events.filter((e) => e.groupId === groupId && e.kind === kind);

  it('runs three groups of the same topic with the same membership change, each ending Stable with three members', () => {
    assert.deepEqual(groups.map((g) => g.groupId).sort(), Object.values(PROTOCOL_GROUPS).sort());
    for (const group of groups) {
      assert.equal(group.state, 'Stable', group.groupId);
      assert.equal(group.members.length, 3, group.groupId);
      assert.equal(of(group.groupId, 'member-joined').length, 4, `${group.groupId}: four joins`);
      assert.equal(of(group.groupId, 'member-left').filter((e) => e.time === PROTOCOLS_LEAVE_AT_MS).length, 1, `${group.groupId}: one leave`);
    }
  });

  it('shows eager revoking everything, cooperative revoking only what moves, and the consumer protocol reconciling per member', () => {
    const revokedAtJoin = (groupId: string) => of(groupId, 'assignment-changed')
      .filter((e) => e.time >= PROTOCOLS_JOIN_AT_MS && e.time < PROTOCOLS_LEAVE_AT_MS)
      .reduce((n, e) => n + (e.assignments ?? []).reduce((m, a) => m + a.revoked.length, 0), 0);
    assert.equal(revokedAtJoin(PROTOCOL_GROUPS.eager), 12, 'eager: all 12 partitions revoked');
    assert.equal(revokedAtJoin(PROTOCOL_GROUPS.cooperative), 3, 'cooperative: only the 3 that move');
    assert.equal(revokedAtJoin(PROTOCOL_GROUPS.consumer), 3, 'consumer protocol: only the 3 that move');
    const steps = of(PROTOCOL_GROUPS.consumer, 'assignment-changed').filter((e) => e.reconciliation !== undefined);
    assert.ok(steps.some((e) => e.reconciliation?.state === 'unrevoked-partitions'), 'a member had partitions to revoke');
    assert.ok(steps.some((e) => e.reconciliation?.state === 'unreleased-partitions'), 'a member waited for partitions');
    assert.ok(steps.some((e) => e.reconciliation?.convergedAfterMs !== undefined), 'members converged to a target');
  });

  it('is a built-in scenario the editor can run, its KIP-848 group listed as a consumer group', async () => {
    const source = createDemoSimSource({ scenario: 'protocols' });
    try {
      assert.equal(source.label, 'Simulator (protocols)');
      source.advance(30000);
      const listed = await source.listGroups();
      assert.deepEqual(listed.map((g) => g.groupId).sort(), Object.values(PROTOCOL_GROUPS).sort());
      assert.equal(listed.find((g) => g.groupId === PROTOCOL_GROUPS.consumer)?.groupType, 'consumer');
    } finally {
      await source.dispose();
    }
  });
});
