import { strict as assert } from 'node:assert';
import { decodeAssignment, decodeSubscription } from '../../../src/protocol/consumerProtocol';
import { WireWriter } from './wire';

/**
 * Bytes written by Java's ConsumerProtocol.serializeSubscription / serializeAssignment (kafka-clients
 * 4.1.1) for topics [orders, payments], userData 010203, owned orders-0, orders-2, payments-1,
 * generation 7, rack "rack-a"; and an assignment of orders-1, payments-0 with userData 09.
 */
const JAVA_SUBSCRIPTION: Record<number, string> = {
  0: '00000000000200066f726465727300087061796d656e747300000003010203',
  1: '00010000000200066f726465727300087061796d656e7473000000030102030000000200066f726465727300000002000000000000000200087061796d656e74730000000100000001',
  2: '00020000000200066f726465727300087061796d656e7473000000030102030000000200066f726465727300000002000000000000000200087061796d656e7473000000010000000100000007',
  3: '00030000000200066f726465727300087061796d656e7473000000030102030000000200066f726465727300000002000000000000000200087061796d656e747300000001000000010000000700067261636b2d61',
};
const JAVA_SUBSCRIPTION_V3_NO_RACK_NULL_USERDATA = '00030000000100066f7264657273ffffffff00000000ffffffffffff';
const JAVA_ASSIGNMENT_BODY = '0000000200066f7264657273000000010000000100087061796d656e747300000001000000000000000109';

const owned = [
  { topic: 'orders', partition: 0 },
  { topic: 'orders', partition: 2 },
  { topic: 'payments', partition: 1 },
];

describe('protocol: consumer protocol bytes Java writes', () => {
  describe('decodeSubscription', () => {
    it('decodes each Java version with the fields that version carries', () => {
      const decoded = [0, 1, 2, 3].map((v) => decodeSubscription(Buffer.from(JAVA_SUBSCRIPTION[v], 'hex')));
      for (const [v, s] of decoded.entries()) {
        assert.equal(s.version, v);
        assert.deepEqual(s.topics, ['orders', 'payments']);
        assert.deepEqual(s.userData, new Uint8Array([1, 2, 3]));
      }
      assert.deepEqual(decoded[0].ownedPartitions, []);
      assert.deepEqual(decoded[1].ownedPartitions, owned);
      assert.equal(decoded[1].generationId, -1);
      assert.equal(decoded[2].generationId, 7);
      assert.equal(decoded[2].rackId, null);
      assert.deepEqual({ owned: decoded[3].ownedPartitions, generation: decoded[3].generationId, rack: decoded[3].rackId }, { owned, generation: 7, rack: 'rack-a' });
    });

    it('decodes Java v3 with null user data, no owned partitions and no rack', () => {
      const s = decodeSubscription(Buffer.from(JAVA_SUBSCRIPTION_V3_NO_RACK_NULL_USERDATA, 'hex'));
      assert.deepEqual(s, { version: 3, topics: ['orders'], userData: null, ownedPartitions: [], generationId: -1, rackId: null });
    });

    it('reads a newer version with the v3 layout and ignores what follows', () => {
      const bytes = Buffer.from('0009' + JAVA_SUBSCRIPTION[3].slice(4) + 'deadbeef', 'hex');
      const s = decodeSubscription(bytes);
      assert.equal(s.version, 9);
      assert.equal(s.rackId, 'rack-a');
    });

    it("decodes kafkajs's v0 metadata (empty user data)", () => {
      const bytes = new WireWriter().int16(0).array(['t'], (w, t) => w.string(t)).bytes(Buffer.alloc(0)).toBuffer();
      assert.deepEqual(decodeSubscription(bytes), { version: 0, topics: ['t'], userData: new Uint8Array(0), ownedPartitions: [], generationId: -1, rackId: null });
    });

    it('rejects truncated or negative-version bytes with a clear error', () => {
      assert.throws(() => decodeSubscription(Buffer.from(JAVA_SUBSCRIPTION[0].slice(0, 20), 'hex')), /consumer subscription v0: Truncated input/);
      assert.throws(() => decodeSubscription(Buffer.from('ffff00000000ffffffff', 'hex')), /unsupported version -1/);
    });
  });

  describe('decodeAssignment', () => {
    it('decodes every Java version (the layout never changed)', () => {
      for (const v of [0, 1, 2, 3]) {
        const a = decodeAssignment(Buffer.from(`000${v}${JAVA_ASSIGNMENT_BODY}`, 'hex'));
        assert.deepEqual(a, {
          version: v,
          partitions: [
            { topic: 'orders', partition: 1 },
            { topic: 'payments', partition: 0 },
          ],
          userData: new Uint8Array([9]),
        });
      }
    });

    it('decodes an empty buffer (a group that is not Stable) as no assignment', () => {
      assert.deepEqual(decodeAssignment(Buffer.alloc(0)), { version: -1, partitions: [], userData: null });
    });

    it('accepts an assignment that stops before the user data', () => {
      const bytes = new WireWriter().int16(0).array([0], (w) => w.string('t').array([3], (x, p) => x.int32(p))).toBuffer();
      assert.deepEqual(decodeAssignment(bytes), { version: 0, partitions: [{ topic: 't', partition: 3 }], userData: null });
    });
  });
});
