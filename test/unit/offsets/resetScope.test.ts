import { strict as assert } from 'assert';
import { resolveScopePartitions, type ScopeResolution } from '../../../src/offsets/resetScope';
import { expectError as errorOf, expectOk } from './expectResult';
import { committed, partitionsPerTopic } from './resetFixtures';

function partitionsOf(resolution: ScopeResolution): string[] {
  return expectOk(resolution).partitions.map((tp) => `${tp.topic}-${tp.partition}`);
}

describe('resolveScopePartitions', () => {
  it('--all-topics: the committed partitions, once each', () => {
    assert.deepEqual(partitionsOf(resolveScopePartitions({ kind: 'all-topics' }, [...committed, committed[0]], partitionsPerTopic)), [
      'payments-0',
      'orders-1',
      'orders-0',
    ]);
  });

  it('--topic: explicit partitions first, then every partition of whole topics (named once)', () => {
    const scope = { kind: 'topics', topics: [{ topic: 'payments' }, { topic: 'orders', partitions: [2] }, { topic: 'payments' }] } as const;
    assert.deepEqual(partitionsOf(resolveScopePartitions(scope, [], partitionsPerTopic)), ['orders-2', 'payments-0', 'payments-1']);
  });

  it('accepts a Map of partition counts', () => {
    const scope = { kind: 'topics', topics: [{ topic: 'orders' }] } as const;
    assert.deepEqual(partitionsOf(resolveScopePartitions(scope, [], new Map([['orders', 2]]))), ['orders-0', 'orders-1']);
  });

  it('rejects unknown topics, duplicates, empty and invalid selections', () => {
    const resolve = (topics: Array<{ topic: string; partitions?: number[] }>) => resolveScopePartitions({ kind: 'topics', topics }, [], partitionsPerTopic);
    assert.match(errorOf(resolve([{ topic: 'toString' }])), /Topic 'toString' does not exist/);
    assert.match(errorOf(resolve([{ topic: 'orders', partitions: [1, 1] }])), /orders-1 is selected more than once/);
    assert.match(errorOf(resolve([{ topic: 'orders', partitions: [] }])), /expected topic name and partitions/);
    assert.match(errorOf(resolve([{ topic: 'orders', partitions: [-1] }])), /Invalid partition '-1'/);
    assert.match(errorOf(resolve([{ topic: 'orders', partitions: [0.5] }])), /Invalid partition '0.5'/);
    assert.match(errorOf(resolve([{ topic: '' }])), /the topic name is empty/);
    assert.equal(errorOf(resolve([])), 'One of the reset scopes should be defined: --all-topics, --topic.');
  });
});
