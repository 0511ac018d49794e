import * as assert from 'node:assert/strict';
import { assign, PartitionAssignorError, type GroupSpec, type TopicMetadata } from '../../../../../../src/simulator/coordinator/group/assignor/index';
import { hashSetCopyCapacity, javaHashIterationOrder, tableSizeFor } from '../../../../../../src/simulator/coordinator/group/assignor/javaHashSet';
import { compareUuids, parseUuid, uuidText } from '../../../../../../src/simulator/coordinator/group/assignor/uuid';
import { member, topic1, topic2, topicsWith, tp } from './kafkaTestSupport';

describe('server assignors: inputs', () => {
  const rejects = (groupSpec: GroupSpec, topics: TopicMetadata[], message: RegExp): void => {
    for (const name of ['uniform', 'range'] as const) {
      assert.throws(() => assign(name, groupSpec, topics), (error: Error) => error instanceof PartitionAssignorError && message.test(error.message));
    }
  };
  const homogeneous = (...members: GroupSpec['members']): GroupSpec => ({ members, subscriptionType: 'HOMOGENEOUS' });

  it('rejects what Kafka\'s coordinator could not have built, saying what is wrong', () => {
    rejects(homogeneous(member('A', ['not-a-uuid'])), topicsWith([topic1, 1]), /not a Kafka Uuid/);
    rejects(homogeneous(member('A', ['AAAAAAAAAAAAAAAAAAAA*A'])), topicsWith([topic1, 1]), /not URL-safe base64/);
    rejects(homogeneous(member('A', [topic1]), member('A', [topic1])), topicsWith([topic1, 1]), /appears twice in the group spec/);
    rejects(homogeneous(member('', [topic1])), topicsWith([topic1, 1]), /non-empty member id/);
    rejects(homogeneous(member('A', [topic1, topic1])), topicsWith([topic1, 1]), /subscribes to topic .* twice/);
    rejects(homogeneous(member('A', [topic1])), topicsWith([topic1, 1], [topic1, 2]), /appears twice in the topic metadata/);
    rejects(homogeneous(member('A', [topic1])), topicsWith([topic1, -1]), /invalid partition count/);
    rejects(homogeneous(member('A', [topic1], [tp(topic1, 3)])), topicsWith([topic1, 3]), /partition 3 of topic .* which does not exist/);
    rejects(homogeneous(member('A', [topic1], [tp(topic1, 0)]), member('B', [topic1], [tp(topic1, 0)])), topicsWith([topic1, 3]),
      /assigned to both A and B/);
    rejects({ members: [member('A', [topic1])], subscriptionType: 'MIXED' as GroupSpec['subscriptionType'] }, topicsWith([topic1, 1]),
      /Unknown subscription type/);
    assert.throws(() => assign('sticky' as 'range', homogeneous(member('A', [topic1])), topicsWith([topic1, 1])), /Kafka 4.4 has uniform, range/);
  });

  it('keeps partitions of a deleted topic out of the result without complaint', () => {
    const deleted = uuidText(new Uint8Array(16).fill(7));
    const result = assign('uniform', homogeneous(member('A', [topic1], [tp(deleted, 0, 9)])), topicsWith([topic1, 2]));
    assert.deepEqual([...result.get('A') ?? []], [[topic1, [0, 1]]]);
  });

  it('gives every member an entry, and an empty group an empty result', () => {
    assert.deepEqual(assign('uniform', homogeneous(), topicsWith([topic1, 2])), new Map());
    const result = assign('range', homogeneous(member('A', [topic2]), member('B', [topic2])), topicsWith([topic2, 1]));
    assert.deepEqual([...result.keys()].sort(), ['A', 'B']);
  });
});

describe('server assignors: Kafka Uuid and Java hash order', () => {
  it('reads a Uuid as Kafka does: hashCode, compareTo, canonical text', () => {
    const zero = parseUuid('AAAAAAAAAAAAAAAAAAAAAA');
    const one = parseUuid('AAAAAAAAAAAAAAAAAAAAAQ');
    assert.equal(zero.hash, 0);
    assert.equal(one.hash, 1);
    // Uuid(-1L, 0L): most significant bits negative, so it sorts before ZERO_UUID, and hashes to 0 (-1 ^ -1).
    const negative = parseUuid(uuidText(new Uint8Array([255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0])));
    assert.equal(negative.hash, 0);
    assert.ok(compareUuids(negative, zero) < 0 && compareUuids(zero, one) < 0 && compareUuids(one, one) === 0);
    // Java's decoder ignores the spare bits of the last character, as Kafka's own tests rely on.
    assert.equal(parseUuid('AAAAAAAAAAAAAAAAAAAAAB').text, 'AAAAAAAAAAAAAAAAAAAAAA');
  });

  it('sizes HashSet copies as JDK 17 does and iterates by bucket, then insertion order', () => {
    assert.deepEqual([0, 1, 2, 11, 12, 13, 24, 25].map(hashSetCopyCapacity), [16, 16, 16, 16, 32, 32, 64, 64]);
    assert.equal(tableSizeFor(17), 32);
    // 17 and 1 share bucket 1 of a 16-table, in insertion order; 16 sits in bucket 0.
    assert.deepEqual(javaHashIterationOrder([17, 1, 16, 3]), [2, 0, 1, 3]);
    // In a 32-table they part: 1 (bucket 1), 3, 16, 17.
    assert.deepEqual(javaHashIterationOrder([17, 1, 16, 3], 32), [1, 3, 2, 0]);
    // The 13th key grows a default table to 32.
    const keys = Array.from({ length: 13 }, (_, i) => 31 - i);
    assert.deepEqual(javaHashIterationOrder(keys).map((i) => keys[i]), [...keys].sort((a, b) => a - b));
  });
});
