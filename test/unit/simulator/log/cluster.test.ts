import { strict as assert } from 'node:assert';
import { offsetsPartitionFor } from '../../../../src/protocol/offsetsPartition';
import { OFFSETS_TOPIC, SimCluster } from '../../../../src/simulator/log/cluster';
import { SeededRandom } from '../../../../src/simulator/common/random';

describe('SimCluster', () => {
  it('has three brokers on 127.0.0.1:9092.. and a 50-partition __consumer_offsets spread over them', () => {
    const cluster = new SimCluster(new SeededRandom(1));
    assert.deepEqual(cluster.brokers, [
      { nodeId: 1, host: '127.0.0.1', port: 9092 },
      { nodeId: 2, host: '127.0.0.1', port: 9093 },
      { nodeId: 3, host: '127.0.0.1', port: 9094 },
    ]);
    const offsets = cluster.topic(OFFSETS_TOPIC)!;
    assert.equal(offsets.partitions.length, 50);
    for (const id of [1, 2, 3]) {
      assert.ok(offsets.leaders.filter((l) => l === id).length >= 16);
    }
    assert.equal(cluster.coordinatorFor('my-group').nodeId, offsets.leaders[offsetsPartitionFor('my-group')]);
    assert.equal(offsetsPartitionFor('my-group'), 12);
  });

  it('validates topics and names the known ones in errors', () => {
    const cluster = new SimCluster(new SeededRandom(1));
    cluster.createTopic('orders', 6);
    assert.throws(() => cluster.createTopic('orders', 1), /already exists/);
    assert.throws(() => cluster.createTopic('bad name', 1), /may contain only ASCII letters/);
    assert.throws(() => cluster.createTopic('__internal', 1), /reserved/);
    assert.throws(() => cluster.createTopic('x', 0), /positive integer partition count/);
    assert.throws(() => cluster.requireTopic('nope'), /Unknown topic "nope"; known topics: orders/);
    assert.deepEqual(cluster.userTopics().map((t) => t.name), ['orders']);
  });
});
