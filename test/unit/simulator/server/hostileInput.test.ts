import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { WireWriter } from '../../protocol/wire';
import { MAX_CLUSTER_PARTITIONS } from '../../../../src/simulator/log/cluster';
import { crc32c } from '../../../../src/protocol/crc32c';
import { subscriptionToWire } from '../../../../src/simulator/server/memberProtocol';
import { encodeFields, producedBatch, type Field } from './requestCorpus';
import { coordinatorPort, leaderPort, rawExchange, requestFrame, responseBody, startServer, waitFor, type ServerUnderTest } from './serverTestKit';

const str = (value: string | null): Field => ({ kind: 'string', value });
const i16 = (value: number): Field => ({ kind: 'int16', value });
const i32 = (value: number): Field => ({ kind: 'int32', value });
const i64 = (value: bigint): Field => ({ kind: 'int64', value });
const bytes = (value: Buffer | null): Field => ({ kind: 'bytes', value });
const arr = (...items: Field[][]): Field => ({ kind: 'array', items });

const INCONSISTENT_GROUP_PROTOCOL = 23;
const OFFSET_OUT_OF_RANGE = 1;
const INVALID_RECORD = 87;
const KAFKA_STORAGE_ERROR = 56;
const POLICY_VIOLATION = 44;

function request(apiKey: number, apiVersion: number, fields: Field[]): Buffer {
  return requestFrame(apiKey, apiVersion, 7, encodeFields(fields).toBuffer());
}

/** Opens a connection and resolves once it is connected; `closed` resolves when the server closes it. */
async function connect(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = new Socket();
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  return { socket, closed };
}

describe('simulator Kafka server under hostile input', function () {
  this.timeout(60000);

  describe('requests', () => {
    let env: ServerUnderTest;

    before(async () => {
      env = await startServer();
    });

    after(async () => {
      await env?.stop();
    });

    it('answers a JoinGroup naming one protocol twice with INCONSISTENT_GROUP_PROTOCOL and keeps serving', async () => {
      const metadata = subscriptionToWire({ topics: ['orders'], ownedPartitions: [], generationId: -1 });
      const protocols = arr([str('range'), bytes(metadata)], [str('range'), bytes(metadata)]);
      const join = request(11, 0, [str('twice'), i32(10000), str(''), str('consumer'), protocols]);
      const reply = responseBody(await rawExchange(coordinatorPort(env, 'twice'), join));
      assert.equal(reply.int16(), INCONSISTENT_GROUP_PROTOCOL);
      // The engine is still running: a valid join of the same group completes after the rebalance delay.
      const single = request(11, 0, [str('twice'), i32(10000), str(''), str('consumer'), arr([str('range'), bytes(metadata)])]);
      const joined = responseBody(await rawExchange(coordinatorPort(env, 'twice'), single));
      assert.equal(joined.int16(), 0);
      assert.equal(joined.int32(), 1, 'generation 1');
    });

    it('refuses an OffsetCommit above 2^53 per partition, and OffsetFetch still answers', async () => {
      const port = coordinatorPort(env, 'huge');
      const partitions = arr([i32(0), i64(2n ** 53n + 2n), str('')], [i32(1), i64(2n ** 63n - 1n), str('')], [i32(2), i64(5n), str('')]);
      const commit = responseBody(await rawExchange(port, request(8, 2, [str('huge'), i32(-1), str(''), i64(-1n), arr([str('orders'), partitions])])));
      assert.deepEqual(
        commit.array((t) => [t.string(), t.array((p) => [p.int32(), p.int16()])]),
        [['orders', [[0, OFFSET_OUT_OF_RANGE], [1, OFFSET_OUT_OF_RANGE], [2, 0]]]],
      );
      const fetched = responseBody(await rawExchange(port, request(9, 1, [str('huge'), arr([str('orders'), arr([i32(0)], [i32(2)])])])));
      assert.deepEqual(
        fetched.array((t) => [t.string(), t.array((p) => [p.int32(), p.int64(), p.string(), p.int16()])]),
        [['orders', [[0, -1, '', 0], [2, 5, '', 0]]]],
      );
    });

    it('forgets a parked Fetch once its wait ends, and when its connection closes', async () => {
      const log = env.sim.cluster.partition('orders', 2);
      assert.ok(log);
      const fetchAtEnd = (maxWaitMs: number) =>
        request(1, 4, [i32(-1), i32(maxWaitMs), i32(1), i32(1 << 20), { kind: 'int8', value: 0 }, arr([str('orders'), arr([i32(2), i64(BigInt(log.highWatermark)), i32(1 << 20)])])]);
      const port = leaderPort(env, 'orders', 2);
      const answered = responseBody(await rawExchange(port, fetchAtEnd(30)));
      answered.int32(); // throttle
      assert.equal(answered.int32(), 1, 'one topic in the empty answer');
      assert.equal(log.waiterCount, 0, 'the waiter of a fetch answered by its timeout is gone');

      const { socket, closed } = await connect(port);
      socket.write(fetchAtEnd(600000));
      await waitFor('the fetch to park', () => log.waiterCount === 1);
      socket.destroy();
      await closed;
      await waitFor('the parked fetch of a closed connection to let go', () => log.waiterCount === 0);
    });

    it('refuses CreateTopics past 10,000 partitions per request or past the simulator limit, creating nothing', async () => {
      const port = env.server.endpoints()[0].port;
      const create = (name: string, partitions: number) => request(19, 2, [arr([str(name), i32(partitions), i16(1), arr(), arr()]), i32(1000), { kind: 'int8', value: 0 }]);
      const tooMany = responseBody(await rawExchange(port, create('huge', 10_000_000)));
      assert.equal(tooMany.int32(), 0, 'throttle time');
      assert.deepEqual(tooMany.array((t) => [t.string(), t.int16(), t.nullableString()]), [['huge', POLICY_VIOLATION, 'Excessively large number of partitions per request.']]);
      assert.equal(env.sim.cluster.topic('huge'), undefined);
      const room = env.sim.cluster.partitionRoom();
      assert.ok(room < MAX_CLUSTER_PARTITIONS && room > 0);
      assert.throws(() => env.sim.cluster.createTopic('over', room + 1), /limit of 100000 partitions/);
    });

    it('refuses an empty batch claiming 2^31 - 1 records without moving the end offset', async () => {
      const log = env.sim.cluster.partition('orders', 0);
      assert.ok(log);
      const before = log.highWatermark;
      const lying = Buffer.from(producedBatch(1).subarray(0, 61));
      lying.writeInt32BE(49, 8);
      lying.writeInt32BE(2 ** 31 - 2, 23);
      lying.writeInt32BE(2 ** 31 - 1, 57);
      lying.writeUInt32BE(crc32c(lying.subarray(21)), 17);
      const produce = request(0, 3, [str(null), i16(1), i32(1000), arr([str('orders'), arr([i32(0), bytes(lying)])])]);
      const reply = responseBody(await rawExchange(leaderPort(env, 'orders', 0), produce));
      assert.deepEqual(reply.array((t) => [t.string(), t.array((p) => [p.int32(), p.int16(), p.int64()])]), [['orders', [[0, INVALID_RECORD, -1]]]]);
      assert.equal(log.highWatermark, before);
      assert.ok(env.logLines.some((l) => l.includes('declares 2147483647 record(s) but holds 0')));
    });

    it('does not acknowledge a record the log cannot count exactly (offsets past 2^53 - 1)', async () => {
      env.sim.createTopic('nearly-full', 1);
      const log = env.sim.cluster.requireTopic('nearly-full').partitions[0];
      log.append(Number.MAX_SAFE_INTEGER, env.sim.now);
      const produce = request(0, 3, [str(null), i16(1), i32(1000), arr([str('nearly-full'), arr([i32(0), bytes(producedBatch(1))])])]);
      const reply = responseBody(await rawExchange(leaderPort(env, 'nearly-full', 0), produce));
      assert.deepEqual(reply.array((t) => [t.string(), t.array((p) => [p.int32(), p.int16()])]), [['nearly-full', [[0, KAFKA_STORAGE_ERROR]]]]);
      assert.equal(log.highWatermark, Number.MAX_SAFE_INTEGER);
      assert.throws(() => log.append(1, env.sim.now), /exact only up to/);
    });

    it('closes a connection that declares a frame above socket.request.max.bytes, with a log line', async () => {
      const size = Buffer.alloc(4);
      size.writeInt32BE(104857600 + 1);
      const reply = await rawExchange(env.server.endpoints()[0].port, size);
      assert.equal(reply.length, 0);
      await waitFor('the log line', () => env.logLines.some((l) => l.includes('invalid receive (size = 104857601 larger than 104857600')));
    });
  });

  describe('connections', () => {
    let env: ServerUnderTest;

    afterEach(async () => {
      await env?.stop();
    });

    it('refuses connections past max.connections with a log line, and accepts again once one closes', async () => {
      env = await startServer({ maxConnections: 2 });
      const port = env.server.endpoints()[0].port;
      const first = await connect(port);
      const second = await connect(port);
      await waitFor('two connections', () => env.server.connectionCount === 2);
      const third = await connect(port);
      await third.closed;
      assert.ok(env.logLines.some((l) => l.includes('refusing connection') && l.includes('max.connections 2')));
      first.socket.destroy();
      await waitFor('the first connection to go', () => env.server.connectionCount === 1);
      const apiVersions = responseBody(await rawExchange(port, requestFrame(18, 0, 1, Buffer.alloc(0))));
      assert.equal(apiVersions.int16(), 0);
      second.socket.destroy();
    });

    it('closes a connection idle for connections.max.idle.ms', async () => {
      env = await startServer({ connectionsMaxIdleMs: 100 });
      const { closed } = await connect(env.server.endpoints()[0].port);
      await closed;
      assert.ok(env.logLines.some((l) => l.includes('no traffic for 100 ms (connections.max.idle.ms)')));
    });

    it('bounds the bytes held for incomplete frames across connections', async () => {
      env = await startServer({ maxBufferedRequestBytes: 1024 * 1024 });
      const port = env.server.endpoints()[0].port;
      const partial = new WireWriter().int32(20 * 1024 * 1024).raw(Buffer.alloc(400 * 1024)).toBuffer();
      const held = [await connect(port), await connect(port)];
      for (const c of held) {
        c.socket.write(partial);
      }
      await waitFor('two partial frames to be held', () => env.server.bufferedRequestBytes >= 800 * 1024);
      const third = await connect(port);
      third.socket.write(partial);
      await third.closed;
      assert.ok(env.server.bufferedRequestBytes <= 1024 * 1024);
      assert.ok(env.logLines.some((l) => l.includes('bytes held for incomplete requests')));
      for (const c of held) {
        c.socket.destroy();
      }
      await waitFor('the held bytes to be released', () => env.server.bufferedRequestBytes === 0);
    });
  });
});
