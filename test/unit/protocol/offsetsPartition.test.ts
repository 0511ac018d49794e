import { strict as assert } from 'assert';
import { javaStringHashCode, offsetsPartitionFor } from '../../../src/protocol/offsetsPartition';

describe('offsetsPartitionFor', () => {
  it('matches Java for the spec vectors', () => {
    assert.equal(offsetsPartitionFor('my-group'), 12);
    assert.equal(offsetsPartitionFor('test-group'), 12);
    assert.equal(offsetsPartitionFor('group'), 47);
    assert.equal(offsetsPartitionFor('polygenelubricants'), 0);
  });

  it('computes Java hash codes with int wrap-around', () => {
    assert.equal(javaStringHashCode('my-group'), -1906497762);
    assert.equal(javaStringHashCode('group'), 98629247);
    assert.equal(javaStringHashCode('polygenelubricants'), -2147483648);
    assert.equal(javaStringHashCode(''), 0);
  });

  it('honours another partition count and non-ASCII ids', () => {
    assert.equal(offsetsPartitionFor('group', 7), 98629247 % 7);
    const id = 'grüppe-ß-😀';
    const h = javaStringHashCode(id);
    assert.equal(offsetsPartitionFor(id, 50), Math.abs(h) % 50);
  });
});
