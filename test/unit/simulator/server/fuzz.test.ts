import assert from 'node:assert/strict';
import type { Consumer } from 'kafkajs';
import { SeededRandom } from '../../../../src/simulator/random';
import { supportedApis } from '../../../../src/simulator/server/apis';
import { startServer, rawExchange, requestFrame, waitFor, type ServerUnderTest } from './serverTestKit';

/** Garbage of every shape: random bytes, truncated frames, impossible sizes, valid headers over random bodies. */
function garbageFrame(random: SeededRandom, index: number): Buffer {
  const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => random.nextInt(256)));
  switch (index % 5) {
    case 0:
      return randomBytes(1 + random.nextInt(64));
    case 1: {
      const size = Buffer.alloc(4);
      size.writeInt32BE(random.next() < 0.5 ? -1 - random.nextInt(1000) : 200 * 1024 * 1024);
      return Buffer.concat([size, randomBytes(8)]);
    }
    default: {
      const apis = supportedApis();
      const api = apis[random.nextInt(apis.length)];
      const version = api.minVersion + random.nextInt(api.maxVersion - api.minVersion + 2);
      const frame = requestFrame(api.key, version, index, randomBytes(random.nextInt(48)));
      // Every other structured frame is cut short: the size promises more than arrives.
      return index % 2 === 0 ? frame.subarray(0, 4 + random.nextInt(frame.length - 4)) : frame;
    }
  }
}

describe('simulator Kafka server under malformed input', function () {
  this.timeout(60000);
  let env: ServerUnderTest;
  let consumer: Consumer;
  let consumed = 0;

  before(async () => {
    env = await startServer();
    consumer = env.kafka.consumer({ groupId: 'steady', sessionTimeout: 10000, heartbeatInterval: 300, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'orders', fromBeginning: true });
    await consumer.run({
      eachMessage: async () => {
        consumed++;
      },
    });
  });

  after(async () => {
    await consumer?.disconnect();
    await env?.stop();
  });

  it('closes only the offending connections while a well-behaved consumer keeps consuming', async () => {
    await waitFor('the steady consumer to read the initial records', () => consumed >= 12);
    const random = new SeededRandom(2024);
    const ports = env.server.endpoints().map((e) => e.port);
    for (let i = 0; i < 300; i++) {
      await rawExchange(ports[i % ports.length], garbageFrame(random, i), { halfClose: true });
    }
    assert.ok(env.logLines.some((line) => line.includes('closing connection')), 'garbage is reported in the log');

    const producer = env.kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic: 'orders', messages: [0, 1, 2].map((p) => ({ partition: p, value: 'after-fuzz' })) });
    } finally {
      await producer.disconnect();
    }
    await waitFor('the steady consumer to read the records produced after the garbage', () => consumed >= 15);
    const group = env.sim.coordinator.describeGroupNow('steady');
    assert.equal(group.groupState, 'Stable');
    assert.equal(group.members.length, 1);
  });
});
