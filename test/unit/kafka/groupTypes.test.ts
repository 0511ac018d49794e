import { strict as assert } from 'node:assert';
import { CONSUMER_GROUP_DESCRIBE, consumerGroupInfo, describeConsumerGroups, typedConsumerGroup } from '../../../src/kafka/consumerGroupDescribe';
import { GROUP_ID_NOT_FOUND, groupStateOf, modernGroupType, offsetNumber } from '../../../src/kafka/groupTypes';
import { describeTypedGroups, describeUnlistedGroups } from '../../../src/kafka/groupTypesDescribe';
import { negotiatedVersion, requireNegotiatedVersion } from '../../../src/kafka/groupTypesWire';
import { apiCall } from '../../../src/kafka/requests/apiCall';
import { UnsupportedApiVersionError } from '../../../src/kafka/kafkajsBridge';
import { ByteWriter } from '../../../src/protocol/byteWriter';
import { errorCodeOf } from '../../../src/protocol/errorCodes';
import { ProtocolError, errorMessage } from '../../../src/protocol/errors';
import { ConsumerGroupDescribeRequest } from '../../../src/protocol/messages/consumerGroupDescribeRequest';
import {
  ConsumerGroupDescribeResponse,
  defaultDescribedGroup,
  defaultMember,
  type DescribedGroup,
  type Member,
} from '../../../src/protocol/messages/consumerGroupDescribeResponse';
import { defaultDescribedGroup as defaultStreamsGroup } from '../../../src/protocol/messages/streamsGroupDescribeResponse';
import { encode } from '../../../src/protocol/runtime';
import { KAFKA_44_VERSIONS, fakeBroker, type FakeRequest } from './groupTypesFakeBroker';

const GROUP_AUTHORIZATION_FAILED = errorCodeOf('GROUP_AUTHORIZATION_FAILED');

function assignment(topic: string, partitions: number[]) {
  return { topicPartitions: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', topicName: topic, partitions }] };
}

function member(fields: Partial<Member>): Member {
  return { ...defaultMember(), clientId: 'c', clientHost: '/127.0.0.1', ...fields };
}

function group(fields: Partial<DescribedGroup>): DescribedGroup {
  return { ...defaultDescribedGroup(), groupState: 'Stable', assignorName: 'uniform', ...fields };
}

const options = { errorText: errorMessage, isConnectionFailure: (e: unknown) => e instanceof Error && e.name === 'KafkaJSConnectionError' };

describe('kafka/groupTypes', () => {
  describe('states and types', () => {
    it("keeps each type's own states and never guesses another type's", () => {
      assert.equal(groupStateOf('streams', 'NotReady'), 'NotReady');
      assert.equal(groupStateOf('consumer', 'reconciling'), 'Reconciling');
      assert.equal(groupStateOf('share', 'Assigning'), 'Unknown');
      assert.equal(groupStateOf('classic', 'NotReady'), 'Unknown');
      assert.equal(groupStateOf('share', ''), 'Unknown');
    });

    it('reads ListGroups v5 types', () => {
      assert.deepEqual(['consumer', 'Share', 'streams', 'classic', '', null, undefined].map(modernGroupType), ['consumer', 'share', 'streams', null, null, null, null]);
    });

    it('refuses an int64 it cannot show exactly instead of rounding it', () => {
      assert.equal(offsetNumber(42n, 'lag'), 42);
      assert.throws(() => offsetNumber(2n ** 60n, 'lag'), ProtocolError);
    });
  });

  describe('groupTypesWire', () => {
    it('writes header v2 tagged fields before a flexible body and skips response header v1 tagged fields', () => {
      const data = { groupIds: ['g'], includeAuthorizedOperations: false };
      const call = apiCall(ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, 1, data, (answer) => answer);
      const body = call.body;
      assert.equal(body[0], 0);
      assert.deepEqual(new Uint8Array(body.subarray(1)), new Uint8Array(encode(ConsumerGroupDescribeRequest, 1, data)));

      const response = { throttleTimeMs: 0, groups: [group({ groupId: 'g' })] };
      const writer = new ByteWriter();
      writer.uvarint(1); // one tagged field in the response header
      writer.uvarint(7);
      writer.uvarint(2);
      writer.raw(new Uint8Array([1, 2]));
      writer.raw(encode(ConsumerGroupDescribeResponse, 1, response));
      assert.equal(call.decode(writer.finish()).groups[0].groupId, 'g');
    });

    it('calls bytes left after a response an error', () => {
      const bytes = new Uint8Array([0, ...encode(ConsumerGroupDescribeResponse, 0, { throttleTimeMs: 0, groups: [] }), 9]);
      const call = apiCall(ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, 0, { groupIds: [], includeAuthorizedOperations: false }, (answer) => answer);
      assert.throws(() => call.decode(bytes), /1 bytes left/);
    });

    it('negotiates the highest version both sides serve, or says which are missing', () => {
      assert.equal(negotiatedVersion(fakeBroker({ 69: [0, 0] }, () => undefined), CONSUMER_GROUP_DESCRIBE), 0);
      assert.equal(negotiatedVersion(fakeBroker({ 69: [0, 9] }, () => undefined), CONSUMER_GROUP_DESCRIBE), 1);
      assert.equal(negotiatedVersion(fakeBroker({}, () => undefined), CONSUMER_GROUP_DESCRIBE), null);
      assert.throws(() => requireNegotiatedVersion(fakeBroker({}, () => undefined), CONSUMER_GROUP_DESCRIBE), (e: unknown) => e instanceof UnsupportedApiVersionError && /does not support ConsumerGroupDescribe/.test(e.message));
    });
  });

  describe('ConsumerGroupDescribe', () => {
    it('shows a reconciling member as such: partitions to revoke and awaited, epoch behind, assignment pending', () => {
      const info = consumerGroupInfo(
        group({
          groupEpoch: 7,
          assignmentEpoch: 6,
          members: [
            member({ memberId: 'a', memberEpoch: 5, assignment: assignment('t', [1, 0]), targetAssignment: assignment('t', [1, 2]), subscribedTopicNames: ['t'], memberType: 1 }),
            member({ memberId: 'b', memberEpoch: 6, assignment: assignment('t', [3]), targetAssignment: assignment('t', [3]), subscribedTopicRegex: 't.*', subscribedTopicNames: ['t'], memberType: 1 }),
          ],
        }),
      );
      assert.equal(info.assignmentPending, true);
      const [a, b] = info.members;
      assert.deepEqual(a.assignment, [{ topic: 't', partition: 0 }, { topic: 't', partition: 1 }]);
      assert.deepEqual(a.partitionsToRevoke, [{ topic: 't', partition: 0 }]);
      assert.deepEqual(a.partitionsAwaited, [{ topic: 't', partition: 2 }]);
      assert.equal(a.reconciling, true);
      assert.equal(b.reconciling, false);
      assert.deepEqual(info.subscribedTopicRegexes, ['t.*']);
      assert.deepEqual(info.subscribedTopicNames, ['t']);
      assert.equal(info.migration, null);
    });

    it('reads a mixed group during a migration from classic (v1 member types), and "" as no regex', () => {
      const info = consumerGroupInfo(group({ members: [member({ memberId: 'c', memberType: 0, subscribedTopicRegex: '' }), member({ memberId: 'k', memberType: 1 })] }));
      assert.deepEqual(info.migration, { classicMembers: 1, consumerMembers: 1 });
      assert.equal(info.members[0].memberType, 'classic');
      assert.equal(info.members[0].subscribedTopicRegex, null);
      assert.equal(consumerGroupInfo(group({ members: [member({ memberId: 'x', memberType: -1 })] })).members[0].memberType, 'unknown');
    });

    it('turns a refused describe into an error on the group, never a Dead state', () => {
      const refused = typedConsumerGroup(group({ groupId: 'g', errorCode: GROUP_AUTHORIZATION_FAILED, groupState: 'Dead' }));
      assert.equal(refused.state, 'Unknown');
      assert.match(refused.error ?? '', /GROUP_AUTHORIZATION_FAILED/);
      assert.equal(refused.notThisType, undefined);
      const classic = typedConsumerGroup(group({ groupId: 'g', errorCode: GROUP_ID_NOT_FOUND, errorMessage: 'Group g is not a consumer group.' }));
      assert.equal(classic.notThisType, true);
      assert.match(classic.error ?? '', /GROUP_ID_NOT_FOUND: Group g is not a consumer group\./);
      // A broker serving the API with the type's feature off (share groups on 4.1 before share.version=1).
      assert.equal(typedConsumerGroup(group({ groupId: 'g', errorCode: errorCodeOf('UNSUPPORTED_VERSION') })).notThisType, true);
    });

    it('sends v1 to a 4.x broker and v0 to one that has only v0, over the real bytes', async () => {
      for (const [max, memberType] of [
        [1, 'consumer'],
        [0, 'unknown'],
      ] as const) {
        const broker = fakeBroker({ 69: [0, max] }, (r: FakeRequest) => {
          assert.deepEqual(r.body, { groupIds: ['g'], includeAuthorizedOperations: false });
          return { throttleTimeMs: 0, groups: [group({ groupId: 'g', groupEpoch: 3, assignmentEpoch: 3, members: [member({ memberId: 'm', memberEpoch: 3, memberType: max === 1 ? 1 : undefined })] })] };
        });
        const [described] = await describeConsumerGroups(broker, ['g']);
        assert.equal(broker.requests[0].apiVersion, max);
        assert.equal(described.state, 'Stable');
        assert.equal(described.consumerGroup?.members[0].memberType, memberType);
        assert.equal(described.members[0].memberEpoch, 3);
      }
    });
  });

  describe('describeTypedGroups', () => {
    it('puts a type the broker does not serve (feature off) on its groups as an error, and still describes the others', async () => {
      const broker = fakeBroker({ 69: [0, 1] }, () => ({ throttleTimeMs: 0, groups: [group({ groupId: 'c' })] }));
      const [c, s] = await describeTypedGroups(broker, [{ groupId: 'c', groupType: 'consumer' }, { groupId: 's', groupType: 'share' }], options);
      assert.equal(c.state, 'Stable');
      assert.equal(s.state, 'Unknown');
      assert.equal(s.error, 'ShareGroupDescribe: The broker does not support ShareGroupDescribe (needs v1..v1)');
    });

    it('rethrows a connection failure, which fails the whole load', async () => {
      const broker = fakeBroker(KAFKA_44_VERSIONS, () => {
        throw Object.assign(new Error('Connection error'), { name: 'KafkaJSConnectionError' });
      });
      await assert.rejects(describeTypedGroups(broker, [{ groupId: 'c', groupType: 'streams' }], options), /Connection error/);
    });

    it('gives a group no listing named the type of the first describe that knows it', async () => {
      const notFound = (groupId: string) => ({ ...group({ groupId }), errorCode: GROUP_ID_NOT_FOUND });
      const streamsNotFound = (groupId: string) => ({ ...defaultStreamsGroup(), groupId, errorCode: GROUP_ID_NOT_FOUND });
      const broker = fakeBroker(KAFKA_44_VERSIONS, (r) => {
        const ids = (r.body as { groupIds: string[] }).groupIds;
        switch (r.apiKey) {
          case 69:
            return { throttleTimeMs: 0, groups: ids.map(notFound) };
          case 77:
            return { throttleTimeMs: 0, groups: ids.map((id) => (id === 'share' ? { ...group({ groupId: id }), assignorName: 'simple', members: [] } : notFound(id))) };
          case 89:
            return { throttleTimeMs: 0, groups: ids.map(streamsNotFound) };
          case 90:
            return { throttleTimeMs: 0, groups: [{ groupId: 'share', topics: [], errorCode: 0, errorMessage: null }] };
          case 32:
            return { throttleTimeMs: 0, results: [{ errorCode: 0, errorMessage: null, resourceType: 32, resourceName: 'share', configs: [] }] };
          default:
            throw new Error(`unexpected API ${r.apiKey}`);
        }
      });
      const [share, gone] = await describeUnlistedGroups(broker, ['share', 'gone'], options);
      assert.equal(share.groupType, 'share');
      assert.equal(share.state, 'Stable');
      assert.equal(gone.notThisType, true);
      assert.deepEqual(
        broker.requests.map((r) => [r.apiKey, (r.body as { groupIds?: string[] }).groupIds]),
        [
          [69, ['share', 'gone']],
          [77, ['share', 'gone']],
          [90, undefined],
          [32, undefined],
          [89, ['gone']],
        ],
      );
    });
  });
});
