import assert from 'node:assert/strict';
import { javaStringHashCode } from '../../../../src/protocol/offsetsPartition';
import { JavaHashOrder, javaHashMapKeyOrder, javaTopicPartitionHash } from '../../../../src/simulator/common/javaHashOrder';

// Expected orders printed by OpenJDK 17 (java.util.HashMap / HashSet, org.apache.kafka.common.TopicPartition).
describe('Java HashMap / HashSet iteration order', () => {
  const orderOf = (keys: string[]): string[] => javaHashMapKeyOrder(keys).map((i) => keys[i]);

  it('orders a small map by bucket', () => {
    assert.deepEqual(orderOf(['consumer1', 'consumer2', 'consumer3']), ['consumer3', 'consumer2', 'consumer1']);
  });

  it('keeps insertion order among colliding keys ("Aa" and "BB") and grows past 12 entries', () => {
    const keys = ['c', 'b', 'a', 'consumer-b', 'consumer-a', 'Aa', 'BB', 'zeta', 'alpha',
      'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10'];
    assert.deepEqual(orderOf(keys), ['Aa', 'BB', 'zeta', 'a', 'b', 'c', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9',
      'm10', 'alpha', 'consumer-b', 'consumer-a']);
  });

  it('orders 31 keys in a 64-bucket table', () => {
    const keys = Array.from({ length: 31 }, (_, i) => `c${i}`);
    assert.deepEqual(orderOf(keys).join(','),
      'c30,c11,c10,c13,c12,c15,c14,c17,c16,c19,c18,c20,c22,c21,c24,c23,c26,c25,c28,c27,c29,c0,c1,c2,c3,c4,c5,c6,c7,c8,c9');
  });

  it('finds the first TopicPartition of a HashSet, also after a removal', () => {
    const topicHash = javaStringHashCode('orders');
    const set = new JavaHashOrder<number>();
    for (let p = 0; p < 40; p += 3) {
      set.add(p, javaTopicPartitionHash(topicHash, p));
    }
    assert.equal(set.first(), 39);
    set.delete(39);
    assert.equal(set.first(), 9);
  });

  it('puts a computeIfAbsent key at the head of its bucket and resizes only on the call after the threshold', () => {
    const orderAfter = (keys: number[], add: (order: JavaHashOrder<number>, key: number) => void): number[] => {
      const order = new JavaHashOrder<number>();
      keys.forEach((key) => add(order, key));
      return order.keys();
    };
    const computeIfAbsent = (order: JavaHashOrder<number>, key: number): void => order.addByComputeIfAbsent(key, key);
    const put = (order: JavaHashOrder<number>, key: number): void => order.add(key, key);
    assert.deepEqual(orderAfter([1, 17, 33], computeIfAbsent), [33, 17, 1]);
    const keys = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 32];
    assert.deepEqual(orderAfter(keys, computeIfAbsent), [32, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16]);
    assert.deepEqual(orderAfter(keys, put), [0, 32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16]);
  });

  it('lists a HashSet<TopicPartition> in Java order', () => {
    const topicHash = javaStringHashCode('t0');
    const set = new JavaHashOrder<number>();
    for (let p = 100; p > 0; p -= 7) {
      set.add(p, javaTopicPartitionHash(topicHash, p));
    }
    assert.deepEqual(set.keys(), [93, 58, 23, 86, 51, 16, 79, 44, 9, 72, 37, 100, 2, 65, 30]);
  });
});
