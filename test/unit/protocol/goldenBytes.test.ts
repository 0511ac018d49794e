// The generated codecs against other implementations: the bytes kafkajs writes and what it reads from ours, and the
// bytes the hand-written client codecs (src/kafka/protocol, since replaced by these codecs) wrote, recorded below.
import * as assert from 'node:assert/strict';
import { adminOffsetCommitRequest } from '../../../src/kafka/requests/adminRequests';
import { describeGroupsRequest } from '../../../src/kafka/requests/groupRequests';
import { apiCall } from '../../../src/kafka/requests/apiCall';
import { LATEST_TIMESTAMP, READ_COMMITTED, listOffsetsRequest } from '../../../src/kafka/requests/offsetRequests';
import { ConsumerGroupDescribeRequest } from '../../../src/protocol/messages/consumerGroupDescribeRequest';
import { ConsumerGroupDescribeResponse } from '../../../src/protocol/messages/consumerGroupDescribeResponse';
import { DescribeGroupsRequest } from '../../../src/protocol/messages/describeGroupsRequest';
import { DescribeGroupsResponse } from '../../../src/protocol/messages/describeGroupsResponse';
import { JoinGroupRequest } from '../../../src/protocol/messages/joinGroupRequest';
import { JoinGroupResponse } from '../../../src/protocol/messages/joinGroupResponse';
import { ListOffsetsRequest } from '../../../src/protocol/messages/listOffsetsRequest';
import { OffsetCommitRequest } from '../../../src/protocol/messages/offsetCommitRequest';
import { decode, encode } from '../../../src/protocol/runtime';

interface KafkajsRequest {
  encode(): Promise<{ toJSON(): { data: number[] } } & { buffer: Buffer }>;
}
type KafkajsJoinGroupV5 = (args: {
  groupId: string; sessionTimeout: number; rebalanceTimeout: number; memberId: string; groupInstanceId: string | null;
  protocolType: string; groupProtocols: Array<{ name: string; metadata: Buffer }>;
}) => KafkajsRequest;
type KafkajsResponse = { decode(data: Buffer): Promise<Record<string, unknown>> };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsJoinGroupV5 = require('kafkajs/src/protocol/requests/joinGroup/v5/request') as KafkajsJoinGroupV5;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsJoinGroupV5Response = require('kafkajs/src/protocol/requests/joinGroup/v5/response') as KafkajsResponse;

/**
 * Request bodies the hand-written client codecs wrote (after kafkajs's request header v1; a flexible body starts
 * with header v2's empty tagged fields), recorded before they were replaced.
 */
const HAND_WRITTEN = {
  offsetCommitV7: '00087061796d656e7473ffffffff0000ffff0000000100066f72646572730000000200000000000000000000002affffffff0000000000030000000000000007ffffffff00016d',
  listOffsetsV3: 'ffffffff010000000100066f72646572730000000200000000ffffffffffffffff00000001ffffffffffffffff',
  describeGroupsV5: '0003097061796d656e7473076f72646572730000',
  consumerGroupDescribeV0: '0002097061796d656e74730000',
};

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** The client writes request header v1, so a flexible body starts with header v2's empty tagged fields. */
function withoutHeaderTags(body: string): string {
  assert.equal(body.slice(0, 2), '00');
  return body.slice(2);
}

describe('generated messages: golden bytes from other codecs', () => {
  it('JoinGroup v5 request: the bytes kafkajs writes; v5 response: what kafkajs reads', async () => {
    const metadata = Buffer.from([0, 1, 0, 0, 0, 1, 0, 6, 111, 114, 100, 101, 114, 115, 255, 255, 255, 255]);
    const kafkajs = await kafkajsJoinGroupV5({
      groupId: 'payments', sessionTimeout: 45000, rebalanceTimeout: 300000, memberId: '', groupInstanceId: 'host-1',
      protocolType: 'consumer', groupProtocols: [{ name: 'range', metadata }, { name: 'cooperative-sticky', metadata }],
    }).encode();
    const ours = encode(JoinGroupRequest, 5, {
      groupId: 'payments', sessionTimeoutMs: 45000, rebalanceTimeoutMs: 300000, memberId: '', groupInstanceId: 'host-1',
      protocolType: 'consumer', protocols: [{ name: 'range', metadata }, { name: 'cooperative-sticky', metadata }],
    });
    assert.equal(Buffer.from(ours).toString('hex'), kafkajs.buffer.toString('hex'));

    const response = encode(JoinGroupResponse, 5, {
      throttleTimeMs: 0, errorCode: 0, generationId: 7, protocolName: 'range', leader: 'm-1', memberId: 'm-2',
      members: [{ memberId: 'm-1', groupInstanceId: null, metadata }, { memberId: 'm-2', groupInstanceId: 'host-1', metadata }],
    });
    const read = await kafkajsJoinGroupV5Response.decode(Buffer.from(response));
    assert.equal(read.generationId, 7);
    assert.equal(read.groupProtocol, 'range');
    assert.equal(read.leaderId, 'm-1');
    assert.deepEqual((read.members as Array<{ groupInstanceId: string | null }>).map((m) => m.groupInstanceId), [null, 'host-1']);
  });

  it('OffsetCommit v7 request: the bytes of the admin commit the client sent, and sends', () => {
    const offsets = [{ topic: 'orders', partition: 0, offset: 42 }, { topic: 'orders', partition: 3, offset: 7, metadata: 'm' }];
    const hand = HAND_WRITTEN.offsetCommitV7;
    const ours = encode(OffsetCommitRequest, 7, {
      groupId: 'payments', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null,
      topics: [{ name: 'orders', partitions: [
        { partitionIndex: 0, committedOffset: 42n, committedLeaderEpoch: -1, committedMetadata: '' },
        { partitionIndex: 3, committedOffset: 7n, committedLeaderEpoch: -1, committedMetadata: 'm' },
      ] }],
    });
    assert.equal(hex(ours), hand);
    assert.equal(hex(adminOffsetCommitRequest('payments', offsets).build(7).body), hand);
  });

  it('ListOffsets v3 request: the bytes of the client\'s latest-offset lookup', () => {
    const hand = HAND_WRITTEN.listOffsetsV3;
    const ours = encode(ListOffsetsRequest, 3, {
      replicaId: -1, isolationLevel: 1,
      topics: [{ name: 'orders', partitions: [{ partitionIndex: 0, timestamp: -1n }, { partitionIndex: 1, timestamp: -1n }] }],
    });
    assert.equal(hex(ours), hand);
    const client = listOffsetsRequest(READ_COMMITTED, LATEST_TIMESTAMP, [{ topic: 'orders', partition: 0 }, { topic: 'orders', partition: 1 }]);
    assert.equal(hex(client.build(3).body), hand);
  });

  it('DescribeGroups v5: the request bytes the client writes, and the client reads our response', () => {
    const request = describeGroupsRequest(['payments', 'orders']).build(5);
    const ours = encode(DescribeGroupsRequest, 5, { groups: ['payments', 'orders'], includeAuthorizedOperations: false });
    assert.equal(hex(ours), withoutHeaderTags(HAND_WRITTEN.describeGroupsV5));
    assert.equal(hex(request.body), HAND_WRITTEN.describeGroupsV5);

    const response = encode(DescribeGroupsResponse, 5, {
      throttleTimeMs: 0,
      groups: [{
        errorCode: 0, groupId: 'payments', groupState: 'Stable', protocolType: 'consumer', protocolData: 'range',
        members: [{ memberId: 'm-1', groupInstanceId: 'host-1', clientId: 'c', clientHost: '/127.0.0.1',
          memberMetadata: new Uint8Array([1, 2]), memberAssignment: new Uint8Array([3]) }],
        authorizedOperations: -2147483648,
      }],
    });
    // The client's decoder expects response header v1's tagged fields first.
    const [group] = request.decode(Buffer.concat([Buffer.from([0]), response]));
    assert.equal(group.groupState, 'Stable');
    assert.equal(group.members[0].groupInstanceId, 'host-1');
    assert.deepEqual([...group.members[0].memberMetadata], [1, 2]);
  });

  it('ConsumerGroupDescribe v0: the request bytes the client writes, and the client reads our response', () => {
    const request = apiCall(ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, 0, { groupIds: ['payments'], includeAuthorizedOperations: false }, (answer) => answer.groups);
    const ours = encode(ConsumerGroupDescribeRequest, 0, { groupIds: ['payments'], includeAuthorizedOperations: false });
    assert.equal(hex(ours), withoutHeaderTags(HAND_WRITTEN.consumerGroupDescribeV0));
    assert.equal(hex(request.body), HAND_WRITTEN.consumerGroupDescribeV0);

    const topicId = 'AAECAwQFBgcICQoLDA0ODw';
    const response = encode(ConsumerGroupDescribeResponse, 0, {
      throttleTimeMs: 0,
      groups: [{
        errorCode: 0, errorMessage: null, groupId: 'payments', groupState: 'Stable', groupEpoch: 4, assignmentEpoch: 4,
        assignorName: 'uniform', authorizedOperations: -2147483648,
        members: [{
          memberId: 'm-1', instanceId: null, rackId: 'r1', memberEpoch: 4, clientId: 'c', clientHost: '/127.0.0.1',
          subscribedTopicNames: ['orders'], subscribedTopicRegex: null,
          assignment: { topicPartitions: [{ topicId, topicName: 'orders', partitions: [0, 2] }] },
          targetAssignment: { topicPartitions: [] },
        }],
      }],
    });
    const [group] = request.decode(Buffer.concat([Buffer.from([0]), response]));
    assert.equal(group.assignorName, 'uniform');
    assert.equal(group.members[0].rackId, 'r1');
    assert.deepEqual(group.members[0].subscribedTopicNames, ['orders']);
    assert.deepEqual(group.members[0].assignment.topicPartitions.map((t) => [t.topicName, t.partitions]), [['orders', [0, 2]]]);
    // And our decoder reads back what it wrote.
    assert.equal(decode(ConsumerGroupDescribeResponse, response, 0).groups[0].members[0].assignment.topicPartitions[0].topicId, topicId);
  });
});
