import { strict as assert } from 'assert';
import { clusterStatus } from '../../../src/views/clusterStatus';
import type { GroupSummary, LagHealthStatus } from '../../../src/model/types';

function group(groupId: string, status: LagHealthStatus | undefined, maxLagInTimeMs?: number, totalLag = 0): GroupSummary {
  return {
    groupId, state: 'Stable', protocolType: 'consumer', groupType: 'classic', assignor: 'range', coordinator: null, memberCount: 1, totalLag,
    ...(maxLagInTimeMs === undefined ? {} : { maxLagInTimeMs }),
    ...(status === undefined ? {} : { health: { status, reason: `${groupId} reason` } }),
  };
}

describe('views/clusterStatus', () => {
  it('counts the groups not OK, shows the worst lag in time and names the worst group', () => {
    const status = clusterStatus('Prod', [group('a', 'OK', 1000), group('b', 'STALLED', 5000), group('c', 'WARNING', 90_000), group('d', 'STALLED', 7000)]);
    assert.equal(status.text, '$(warning) 3/4 not OK · behind 1m 30s');
    assert.equal(status.worstGroupId, 'd', 'the worst status first, then the larger lag in time');
    assert.match(status.tooltip, /^Prod: 3 of 4 groups not OK\nLargest lag in time: 1m 30s\nWorst: d \(STALLED: d reason\)/);
  });

  it('says all is well when every group is OK, and still reveals the one furthest behind', () => {
    const status = clusterStatus('Demo', [group('a', 'OK', 0, 5), group('b', 'OK', 0, 9)]);
    assert.equal(status.text, '$(pass) 0/2 not OK');
    assert.equal(status.worstGroupId, 'b');
  });

  it('reveals nothing for a cluster without groups', () => {
    assert.equal(clusterStatus('Empty', []).worstGroupId, undefined);
    assert.equal(clusterStatus('Empty', []).text, '$(pass) 0/0 not OK');
  });
});
