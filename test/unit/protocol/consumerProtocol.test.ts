import * as assert from 'node:assert/strict';
import { errorCodes as kafkajsErrorCodes } from 'kafkajs/src/protocol/error';
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from '../../../src/protocol/consumerProtocol';
import { describeError, errorCodeOf, errorName, kafkaError } from '../../../src/protocol/errorCodes';
import { ByteReader } from '../../../src/protocol/byteReader';
import { ByteWriter } from '../../../src/protocol/byteWriter';
import { encodeRequest, encodeResponse, readRequestHeader, readResponseHeader, requestHeaderVersion, responseHeaderVersion } from '../../../src/protocol/headers';
import { ApiKeys } from '../../../src/protocol/messages/apis';
import { ApiVersionsResponse } from '../../../src/protocol/messages/apiVersionsResponse';
import { JoinGroupRequest } from '../../../src/protocol/messages/joinGroupRequest';
import { offsetsPartitionFor } from '../../../src/protocol/offsetsPartition';

describe('protocol: consumer protocol, headers, error codes, offsets partition', () => {
  const subscription = {
    topics: ['orders', 'payments'], userData: new Uint8Array([9]),
    ownedPartitions: [{ topic: 'orders', partition: 0 }, { topic: 'orders', partition: 2 }, { topic: 'payments', partition: 1 }],
    generationId: 5, rackId: 'r1',
  };

  it('subscriptions v0-v3 round-trip with the fields each version carries', () => {
    for (const version of [0, 1, 2, 3]) {
      const written = version >= 3 ? subscription : { ...subscription, rackId: null, generationId: version >= 2 ? 5 : -1, ownedPartitions: version >= 1 ? subscription.ownedPartitions : [] };
      const ours = decodeSubscription(encodeSubscription(written, version));
      assert.equal(ours.version, version);
      assert.deepEqual(ours.topics, written.topics);
      assert.deepEqual(ours.ownedPartitions, written.ownedPartitions);
      assert.equal(ours.generationId, written.generationId);
      assert.equal(ours.rackId, written.rackId);
    }
  });

  it('reads a newer version with the newest layout, and a version whose added fields are missing at a lower layout', () => {
    const v3 = Buffer.from(encodeSubscription(subscription, 3));
    v3.writeInt16BE(7, 0);
    assert.equal(decodeSubscription(v3).rackId, 'r1');
    // A v1 subscription that stops after userData (some clients write the version but not owned partitions).
    const w = new ByteWriter();
    w.int16(1);
    w.array(false, ['orders'], 'topics', (t) => w.string(false, t, 'topic'));
    w.nullableBytes(false, null);
    const short = decodeSubscription(w.finish());
    assert.deepEqual([short.version, short.topics, short.ownedPartitions], [1, ['orders'], []]);
    assert.throws(() => decodeSubscription(new Uint8Array([0xff, 0xff])), /unsupported version -1/);
  });

  it('assignments round-trip; an empty buffer is version -1', () => {
    const bytes = encodeAssignment({ partitions: subscription.ownedPartitions, userData: null }, 1);
    assert.deepEqual(decodeAssignment(bytes).partitions, subscription.ownedPartitions);
    assert.deepEqual(decodeAssignment(new Uint8Array(0)), { version: -1, partitions: [], userData: null });
  });

  it('header versions follow the API\'s flexible versions; ApiVersions answers with header v0', () => {
    assert.equal(requestHeaderVersion(ApiKeys.JoinGroup, 5), 1);
    assert.equal(requestHeaderVersion(ApiKeys.JoinGroup, 6), 2);
    assert.equal(responseHeaderVersion(ApiKeys.JoinGroup, 6), 1);
    assert.equal(responseHeaderVersion(ApiKeys.ApiVersions, 4), 0);
    assert.throws(() => requestHeaderVersion(ApiKeys.JoinGroup, 99), /JoinGroup v99/);
    const request = encodeRequest(JoinGroupRequest, 9, { correlationId: 11, clientId: 'c' },
      { groupId: 'g', sessionTimeoutMs: 1, memberId: '', protocolType: 'consumer', protocols: [], reason: 'rejoin' });
    const reader = new ByteReader(request);
    const header = readRequestHeader(reader);
    assert.deepEqual([header.requestApiKey, header.requestApiVersion, header.correlationId, header.clientId], [11, 9, 11, 'c']);
    assert.equal(JoinGroupRequest.read(reader, 9).reason, 'rejoin');
    const response = new ByteReader(encodeResponse(ApiVersionsResponse, 4, 3, { errorCode: 0, apiKeys: [], throttleTimeMs: 0 }));
    assert.equal(readResponseHeader(response, ApiKeys.ApiVersions, 4).correlationId, 3);
    assert.equal(ApiVersionsResponse.read(response, 4).errorCode, 0);
  });

  it('the error table is Kafka 4.4\'s: every code kafkajs knows has the same name, plus the newer ones', () => {
    // kafkajs keeps the names these codes had before Kafka renamed them.
    const renamed: Record<string, string> = {
      UNKNOWN: 'UNKNOWN_SERVER_ERROR', NOT_LEADER_FOR_PARTITION: 'NOT_LEADER_OR_FOLLOWER', GROUP_LOAD_IN_PROGRESS: 'COORDINATOR_LOAD_IN_PROGRESS',
      GROUP_COORDINATOR_NOT_AVAILABLE: 'COORDINATOR_NOT_AVAILABLE', NOT_COORDINATOR_FOR_GROUP: 'NOT_COORDINATOR',
    };
    for (const known of kafkajsErrorCodes) {
      assert.equal(errorName(known.code), renamed[known.type] ?? known.type, `code ${known.code}`);
    }
    assert.equal(errorCodeOf('STALE_MEMBER_EPOCH'), 113);
    assert.equal(kafkaError(15)?.retriable, true);
    assert.equal(kafkaError(25)?.retriable, false);
    assert.match(describeError(16), /^NOT_COORDINATOR: /);
    assert.equal(describeError(9999), 'Kafka error code 9999');
    assert.throws(() => errorCodeOf('NO_SUCH_ERROR'), /no error named/);
  });

  it('offsetsPartitionFor follows Utils.abs(hashCode) % partitions', () => {
    assert.equal(offsetsPartitionFor('polygenelubricants'), 0); // hashCode is Integer.MIN_VALUE: abs gives 0
    assert.throws(() => offsetsPartitionFor('g', 0), RangeError);
  });
});
