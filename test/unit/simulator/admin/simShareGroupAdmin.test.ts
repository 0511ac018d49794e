/** The simulator's share-group admin: start offsets, AlterShareGroupOffsets and DeleteShareGroupOffsets through the engine. */
import assert from 'node:assert/strict';
import { SimGroupAdmin } from '../../../../src/simulator/admin/simGroupAdmin';
import { Simulation } from '../../../../src/simulator/simulation';

describe('simulator SimShareGroupAdmin', () => {
  it('reads, alters and deletes a share group\'s start offsets, refusing while it has members', async () => {
    const simulation = new Simulation({ seed: 3 });
    simulation.createTopic('jobs', 2);
    simulation.cluster.requireTopic('jobs').partitions.forEach((log) => log.append(10, simulation.now));
    const admin = new SimGroupAdmin(simulation).share;
    const context = { apiVersion: 1, clientId: 'workers-1', clientHost: '/127.0.0.1' };
    let epoch = 0;
    const heartbeat = (memberEpoch: number, subscribed: string[] | null) => {
      simulation.coordinator.shareGroupHeartbeat(context, { groupId: 'workers', memberId: 'w1', memberEpoch, rackId: null, subscribedTopicNames: subscribed }, (r) => {
        epoch = r.memberEpoch;
      });
      simulation.runUntil(simulation.now + 10);
    };
    heartbeat(0, ['jobs']);
    heartbeat(epoch, null);
    assert.deepEqual(await admin.shareStartOffsets('workers'), [{ topic: 'jobs', partition: 0, startOffset: null }, { topic: 'jobs', partition: 1, startOffset: null }]);
    const busy = await admin.alterShareGroupOffsets('workers', [{ topic: 'jobs', partition: 0, offset: 3 }]);
    assert.deepEqual(busy, [{ topic: 'jobs', partition: 0, error: 'NON_EMPTY_GROUP: The group is not empty.' }]);

    heartbeat(-1, null);
    assert.equal(await admin.shareGroupState('workers'), 'Empty');
    const altered = await admin.alterShareGroupOffsets('workers', [{ topic: 'jobs', partition: 0, offset: 3 }, { topic: 'jobs', partition: 5, offset: 0 }]);
    assert.deepEqual(altered, [{ topic: 'jobs', partition: 0 }, { topic: 'jobs', partition: 5, error: 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.' }]);
    assert.deepEqual(await admin.shareStartOffsets('workers'), [{ topic: 'jobs', partition: 0, startOffset: 3 }, { topic: 'jobs', partition: 1, startOffset: null }]);

    assert.deepEqual(await admin.deleteShareGroupOffsets('workers', ['jobs', 'nothing']), { topics: [{ topic: 'jobs' }, { topic: 'nothing', error: 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.' }] });
    assert.deepEqual(await admin.shareStartOffsets('workers'), []);
    const missing = await admin.deleteShareGroupOffsets('nobody', ['jobs']);
    assert.equal(missing.error, 'GROUP_ID_NOT_FOUND: Group nobody not found.');
    simulation.dispose();
  });
});
