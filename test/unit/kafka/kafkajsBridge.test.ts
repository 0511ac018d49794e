import { strict as assert } from 'node:assert';
import { Kafka, logLevel } from 'kafkajs';
import { UnsupportedApiVersionError, assertKafkajsVersion, createCluster, pickVersion, requireVersion, sendCall, sendRequest, type KafkajsBroker } from '../../../src/kafka/kafkajsBridge';
import { deleteGroupsRequest } from '../../../src/kafka/requests/adminRequests';
import { hex, WireWriter } from '../protocol/wire';

interface SentProtocol {
  request: { apiKey: number; apiVersion: number; apiName: string; encode(): Promise<unknown> };
  response: { decode(payload: Buffer): Promise<unknown>; parse(decoded: unknown): Promise<unknown> };
}

function fakeBroker(
  versions: KafkajsBroker['versions'],
  answer: (sent: SentProtocol) => Promise<unknown>,
  connect: () => Promise<void> = async () => undefined,
): KafkajsBroker & { disconnects: number } {
  const broker = {
    nodeId: 1,
    versions,
    disconnects: 0,
    connect,
    connectionPool: { host: 'h', port: 1, send: (p: SentProtocol) => answer(p), getConnectionByRequest: async () => ({ send: (p: SentProtocol) => answer(p) }) },
    disconnect: async () => {
      broker.disconnects++;
    },
  };
  return broker;
}

describe('kafka/kafkajsBridge', () => {
  it('accepts kafkajs 2.2.4 only, with a clear error', () => {
    assertKafkajsVersion();
    assert.throws(() => assertKafkajsVersion('2.3.0'), /kafkajs 2\.2\.4 internals, but kafkajs 2\.3\.0 is installed/);
  });

  it("builds kafkajs's own Cluster from a Kafka client", async () => {
    const cluster = createCluster(new Kafka({ brokers: ['127.0.0.1:1'], logLevel: logLevel.NOTHING }));
    assert.equal(typeof cluster.findBroker, 'function');
    assert.ok(cluster.targetTopics instanceof Set);
    await cluster.disconnect();
  });

  it('picks the highest version both sides support', () => {
    const broker = fakeBroker({ 15: { minVersion: 0, maxVersion: 5 }, 16: { minVersion: 3, maxVersion: 5 } }, async () => undefined);
    assert.equal(pickVersion(broker, 15, 0, 6), 5);
    assert.equal(pickVersion(broker, 16, 0, 2), null);
    assert.equal(pickVersion(broker, 47, 0, 0), null);
    assert.throws(() => requireVersion(broker, 47, 'OffsetDelete', 0, 0), (e: unknown) => e instanceof UnsupportedApiVersionError && e.message === 'The broker does not support OffsetDelete (needs v0)');
    assert.throws(() => requireVersion(broker, 16, 'ListGroups', 0, 2), /supports ListGroups v3\.\.v5, Kafka Group Lens needs v0\.\.v2/);
  });

  it('sends our bytes through the connection pool at the highest version both sides support, and decodes the answer without kafkajs parsing', async () => {
    const sent: Buffer[] = [];
    const broker = fakeBroker({ 42: { minVersion: 0, maxVersion: 1 } }, async (p) => {
      const encoder = (await p.request.encode()) as { buffer: Buffer };
      sent.push(encoder.buffer);
      assert.deepEqual([p.request.apiKey, p.request.apiVersion, p.request.apiName], [42, 1, 'DeleteGroups']);
      const payload = new WireWriter().int32(0).array([0], (w) => w.string('g').int16(69)).toBuffer();
      return p.response.parse(await p.response.decode(payload));
    });
    const result = await sendRequest(broker, deleteGroupsRequest(['g']));
    assert.deepEqual(result, [{ groupId: 'g', errorCode: 69 }]);
    assert.equal(sent[0].toString('hex'), hex(deleteGroupsRequest(['g']).build(1).body));
    // A flexible version: header v2's tags start the body, response header v1's tags start the answer.
    const flexible = fakeBroker({ 42: { minVersion: 0, maxVersion: 7 } }, async (p) => {
      assert.equal(p.request.apiVersion, 3);
      const payload = new WireWriter().emptyTaggedFields().int32(0).compactArray([0], (w) => w.compactString('g').int16(0).compactString(null).emptyTaggedFields()).emptyTaggedFields().toBuffer();
      return p.response.parse(await p.response.decode(payload));
    });
    assert.deepEqual(await sendRequest(flexible, deleteGroupsRequest(['g'])), [{ groupId: 'g', errorCode: 0 }]);
  });

  it('refuses an answer with bytes left over, naming the API and version', async () => {
    const broker = fakeBroker({ 42: { minVersion: 0, maxVersion: 1 } }, async (p) => p.response.decode(new WireWriter().int32(0).array([], () => undefined).int8(1).toBuffer()));
    await assert.rejects(sendRequest(broker, deleteGroupsRequest(['g'])), /DeleteGroups v1 response: 1 bytes left after the message/);
  });

  it('refuses a version the broker does not serve, and drops a closed connection', async () => {
    const old = fakeBroker({ 42: { minVersion: 0, maxVersion: 0 } }, async () => undefined);
    await assert.rejects(sendRequest(old, deleteGroupsRequest(['g'])), UnsupportedApiVersionError);
    const closing = fakeBroker({ 42: { minVersion: 0, maxVersion: 1 } }, async () => {
      throw Object.assign(new Error('Closed connection'), { name: 'KafkaJSConnectionClosedError' });
    });
    await assert.rejects(sendRequest(closing, deleteGroupsRequest(['g'])), /Closed connection/);
    assert.equal(closing.disconnects, 1);
  });

  it('connects a broker that knows no versions yet, so an unreachable one says so (not "does not support Metadata")', async () => {
    const refused = Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9'), { name: 'KafkaJSConnectionError', code: 'ECONNREFUSED' });
    const fresh = fakeBroker(null, async () => undefined, async () => Promise.reject(refused));
    await assert.rejects(sendRequest(fresh, deleteGroupsRequest(['g'])), (e: unknown) => e === refused);
    const connecting = fakeBroker(null, async (p) => p.response.parse(await p.response.decode(new WireWriter().int32(0).array([0], (w) => w.string('g').int16(0)).toBuffer())), async () => {
      connecting.versions = { 42: { minVersion: 0, maxVersion: 1 } };
    });
    assert.deepEqual(await sendRequest(connecting, deleteGroupsRequest(['g'])), [{ groupId: 'g', errorCode: 0 }]);
  });

  it('opens the Fetch connection once for Fetches sent together (kafkajs would open one socket per request and leak all but the last)', async () => {
    // kafkajs 2.2.4's ConnectionPool: Fetch has its own lazily connected connection; connect() does not check for one in progress.
    let connects = 0;
    const connected = new Set<number>();
    const connection = async (index: number): Promise<{ send(p: SentProtocol): Promise<unknown> }> => {
      if (!connected.has(index)) {
        connects++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        connected.add(index);
      }
      return { send: (p: SentProtocol) => pool.send(p) };
    };
    const pool = {
      host: 'h',
      port: 1,
      getConnectionByRequest: ({ request }: { request: { apiKey: number } }) => connection(request.apiKey === 1 ? 1 : 0),
      send: async (p: SentProtocol) => {
        await pool.getConnectionByRequest(p);
        return p.response.decode(new WireWriter().int32(0).array([], () => undefined).toBuffer());
      },
    };
    const broker = { nodeId: 1, versions: { 1: { minVersion: 4, maxVersion: 11 }, 42: { minVersion: 0, maxVersion: 2 } }, connectionPool: pool, disconnect: async () => undefined } as unknown as KafkajsBroker;
    const fetch = { apiKey: 1, apiName: 'Fetch', apiVersion: 4, body: new Uint8Array(0), decode: () => 'fetched' };
    const other = { apiKey: 42, apiName: 'DeleteGroups', apiVersion: 1, body: new Uint8Array(0), decode: () => 'other' };
    const answers = await Promise.all([sendCall(broker, fetch), sendCall(broker, fetch), sendCall(broker, other), sendCall(broker, fetch), sendCall(broker, other)]);
    assert.deepEqual(answers, ['fetched', 'fetched', 'other', 'fetched', 'other']);
    assert.equal(connects, 2, 'one Fetch connection and one for the rest');
  });
});
