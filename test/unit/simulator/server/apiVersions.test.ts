/**
 * What ApiVersions advertises: per API exactly the range the server serves, inside Kafka 4.4.0's
 * valid versions, up to Kafka 4.4's newest wherever the simulator has the semantics.
 */
import assert from 'node:assert/strict';
import { apis } from '../../../../src/protocol/messages/apis';
import { ApiVersionsRequest } from '../../../../src/protocol/messages/apiVersionsRequest';
import { ApiVersionsResponse } from '../../../../src/protocol/messages/apiVersionsResponse';
import { supportedApis } from '../../../../src/simulator/server/apis';
import { encodeFields, flexibleCorpus } from './requestCorpus';
import { codecExchange, coordinatorPort, leaderPort, rawExchange, requestFrame, startServer, type ServerUnderTest } from './serverTestKit';

/** The served table; the APIs below Kafka 4.4's newest say why in their modules. */
const SERVED: Record<string, [number, number]> = {
  Produce: [3, 13],
  Fetch: [4, 18],
  ListOffsets: [1, 11],
  Metadata: [0, 13],
  OffsetCommit: [2, 10],
  OffsetFetch: [1, 10],
  FindCoordinator: [0, 6],
  JoinGroup: [0, 9],
  Heartbeat: [0, 4],
  LeaveGroup: [0, 5],
  SyncGroup: [0, 5],
  DescribeGroups: [0, 6],
  ListGroups: [0, 5],
  ApiVersions: [0, 5],
  CreateTopics: [2, 7],
  DeleteTopics: [1, 6],
  InitProducerId: [0, 5],
  AddPartitionsToTxn: [0, 3],
  AddOffsetsToTxn: [0, 4],
  EndTxn: [0, 5],
  TxnOffsetCommit: [0, 5],
  WriteTxnMarkers: [1, 2],
  DescribeProducers: [0, 0],
  DescribeTransactions: [0, 0],
  ListTransactions: [0, 2],
  DeleteGroups: [0, 3],
  DescribeConfigs: [1, 4],
  IncrementalAlterConfigs: [0, 1],
  OffsetDelete: [0, 0],
  ConsumerGroupHeartbeat: [0, 1],
  ConsumerGroupDescribe: [0, 1],
  ShareGroupHeartbeat: [1, 1],
  ShareGroupDescribe: [1, 1],
  ShareFetch: [1, 2],
  ShareAcknowledge: [1, 2],
  DescribeShareGroupOffsets: [0, 1],
  AlterShareGroupOffsets: [0, 0],
  DeleteShareGroupOffsets: [0, 0],
  StreamsGroupHeartbeat: [0, 1],
  StreamsGroupDescribe: [0, 1],
};

describe('simulator Kafka server: ApiVersions', function () {
  this.timeout(20000);
  let env: ServerUnderTest;

  before(async () => {
    env = await startServer();
  });

  after(async () => {
    await env?.stop();
  });

  it('advertises exactly the served ranges, each inside Kafka 4.4.0\'s', async () => {
    const response = await codecExchange(env.server.endpoints()[0].port, ApiVersionsRequest, ApiVersionsResponse, 4, { clientSoftwareName: 'codec-test', clientSoftwareVersion: '1' });
    assert.equal(response.errorCode, 0);
    const kafka = new Map(apis.map((api) => [api.apiKey, api]));
    const advertised = Object.fromEntries(
      response.apiKeys.map((k) => {
        const spec = kafka.get(k.apiKey);
        assert.ok(spec, `API key ${k.apiKey} is one of Kafka's`);
        assert.ok(k.minVersion >= spec.validVersions.lo && k.maxVersion <= spec.validVersions.hi, `${spec.name} ${k.minVersion}-${k.maxVersion} inside ${spec.validVersions.lo}-${spec.validVersions.hi}`);
        assert.ok(!spec.latestVersionUnstable || k.maxVersion < spec.validVersions.hi, `${spec.name}: an unstable version is not advertised`);
        return [spec.name, [k.minVersion, k.maxVersion]];
      }),
    );
    assert.deepEqual(advertised, SERVED);
    assert.deepEqual(Object.fromEntries(supportedApis().map((a) => [a.name, [a.minVersion, a.maxVersion]])), SERVED, 'the table the server dispatches on');
  });

  it('answers a well-formed request of every API at Kafka 4.4\'s newest served version (flexible, topic ids)', async () => {
    for (const request of flexibleCorpus('newest')) {
      const route = request.route;
      const port = route === null ? env.server.endpoints()[0].port : 'group' in route ? coordinatorPort(env, route.group) : leaderPort(env, route.topic, route.partition);
      const frame = await rawExchange(port, requestFrame(request.apiKey, request.apiVersion, 5, encodeFields(request.fields).toBuffer()));
      assert.ok(frame.length >= 8, `${request.label} was answered (server log: ${env.logLines.join('\n')})`);
      assert.equal(frame.readInt32BE(4), 5, `${request.label}: correlation id`);
    }
  });
});
