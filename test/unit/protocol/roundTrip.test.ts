import * as assert from 'node:assert/strict';
import { allMessages } from '../../../src/protocol/messages/allMessages';
import { defaultTopicPartitions } from '../../../src/protocol/messages/consumerGroupCurrentMemberAssignmentValue';
import { JoinGroupRequest } from '../../../src/protocol/messages/joinGroupRequest';
import { decode, deepEqual, encode } from '../../../src/protocol/runtime';
import { SpecModel, messageSpecs, seededRandom, versionsOf } from '../../protocol/specModel';

const MESSAGES_PER_VERSION = 6;

describe('generated messages: random round trips', () => {
  const specs = new Map(messageSpecs.map((spec) => [spec.name, spec]));

  it('covers every spec the generator read', () => {
    assert.equal(allMessages.length, messageSpecs.length);
    assert.ok(allMessages.length > 200, `only ${allMessages.length} messages`);
  });

  it('defaults are Kafka\'s (FieldSpec.fieldDefault): a JSON-null default is the type\'s own, "null" is null', () => {
    // AssignmentEpochs declares "default": null (JSON null): Kafka reads that as no default, an empty array.
    assert.deepEqual(defaultTopicPartitions().assignmentEpochs, []);
    const join = JoinGroupRequest.defaults();
    assert.equal(join.rebalanceTimeoutMs, -1);
    assert.equal(join.groupInstanceId, null);
  });

  for (const codec of allMessages) {
    it(`${codec.name}: every version reads back what it wrote, byte for byte`, () => {
      const spec = specs.get(codec.name);
      assert.ok(spec, `no spec for ${codec.name}`);
      const model = new SpecModel(spec);
      for (const version of versionsOf(spec)) {
        for (let i = 0; i < MESSAGES_PER_VERSION; i++) {
          const seed = version * 1000 + i;
          const message = model.randomMessage(version, seededRandom(seed), true);
          const bytes = encode(codec, version, message);
          const decoded = decode(codec, bytes, version);
          assert.ok(deepEqual(decoded, message), `${codec.name} v${version} seed ${seed}: decoded value differs`);
          assert.deepEqual(Buffer.from(encode(codec, version, decoded)), Buffer.from(bytes), `${codec.name} v${version} seed ${seed}: re-encoded bytes differ`);
        }
      }
    });
  }
});
