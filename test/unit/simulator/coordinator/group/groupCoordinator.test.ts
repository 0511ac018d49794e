import { strict as assert } from 'node:assert';
import { commit, harness, join } from '../../harness';

describe('GroupCoordinator (the facade)', () => {
  it('delivers every response through the event queue after responseLatencyMs', () => {
    const h = harness({ coordinator: { responseLatencyMs: 5 } });
    const joined = join(h.sim, { clientId: 'A' });
    const committed = commit(h.sim, { generationId: -1 });
    const listed: { groups: string[] | null } = { groups: null };
    h.sim.coordinator.listGroups({}, (r) => {
      listed.groups = r.groups.map((g) => `${g.groupId}:${g.groupType}`);
    });
    h.sim.advance(4);
    assert.deepEqual([joined.response, committed.response, listed.groups], [null, null, null], 'nothing answered before the latency');
    h.sim.advance(1);
    assert.equal(joined.response?.errorCode, 'MEMBER_ID_REQUIRED');
    assert.equal(committed.response, 'NONE');
    assert.deepEqual(listed.groups, ['g:classic']);
  });
});
