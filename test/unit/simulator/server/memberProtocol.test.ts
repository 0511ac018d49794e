import assert from 'node:assert/strict';
import { AssignerProtocol } from 'kafkajs';
import { assignmentFromWire, assignmentToWire, subscriptionFromWire, subscriptionToWire } from '../../../../src/simulator/server/memberProtocol';

describe('simulator/server/memberProtocol', () => {
  it('reads kafkajs member metadata and keeps its user data bytes intact', () => {
    const userData = Buffer.from([0, 255, 128, 7]);
    const subscription = subscriptionFromWire(AssignerProtocol.MemberMetadata.encode({ version: 0, topics: ['a', 'b'], userData }));
    assert.deepEqual(subscription.topics, ['a', 'b']);
    const decoded = AssignerProtocol.MemberMetadata.decode(subscriptionToWire(subscription));
    assert.deepEqual(decoded?.topics, ['a', 'b']);
    assert.deepEqual(decoded?.userData, userData);
  });

  it('round-trips owned partitions and their generation', () => {
    const subscription = { topics: ['t'], ownedPartitions: [{ topic: 't', partition: 1 }, { topic: 't', partition: 0 }], generationId: 4 };
    assert.deepEqual(subscriptionFromWire(subscriptionToWire(subscription)), subscription);
  });

  it('writes assignments kafkajs decodes, grouped by topic', () => {
    const bytes = assignmentToWire({ partitions: [{ topic: 'x', partition: 2 }, { topic: 'y', partition: 0 }, { topic: 'x', partition: 5 }] });
    assert.deepEqual(AssignerProtocol.MemberAssignment.decode(bytes)?.assignment, { x: [2, 5], y: [0] });
    const fromKafkajs = AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: { x: [1] }, userData: Buffer.alloc(0) });
    assert.deepEqual(assignmentFromWire(fromKafkajs), { partitions: [{ topic: 'x', partition: 1 }], userData: '' });
  });
});
