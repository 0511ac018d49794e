import { strict as assert } from 'assert';
import { formatTopicArg, parseTopicArg } from '../../../src/offsets/resetRequest';
import { expectError } from './expectResult';

const errorOf = (arg: string): string => expectError(parseTopicArg(arg), arg);

describe('parseTopicArg', () => {
  it('reads a whole topic and a topic with partitions', () => {
    assert.deepEqual(parseTopicArg('orders'), { ok: true, selection: { topic: 'orders' } });
    assert.deepEqual(parseTopicArg('orders:0,2'), { ok: true, selection: { topic: 'orders', partitions: [0, 2] } });
  });

  it("follows Java's split: trailing separators are dropped", () => {
    assert.deepEqual(parseTopicArg('orders:0,1,'), { ok: true, selection: { topic: 'orders', partitions: [0, 1] } });
    assert.deepEqual(parseTopicArg('orders:3:'), { ok: true, selection: { topic: 'orders', partitions: [3] } });
  });

  it("rejects malformed args with the CLI's wording", () => {
    assert.equal(errorOf('orders:'), "Invalid topic arg 'orders:', expected topic name and partitions");
    assert.equal(errorOf('orders:0:1'), "Invalid topic arg 'orders:0:1', expected topic name and partitions");
    assert.equal(errorOf('orders:0,,1'), "Invalid partition '' specified in topic arg 'orders:0,,1'");
    assert.equal(errorOf('orders:x'), "Invalid partition 'x' specified in topic arg 'orders:x'");
    assert.equal(errorOf('orders: 1'), "Invalid partition ' 1' specified in topic arg 'orders: 1'");
    assert.equal(errorOf('orders:2147483648'), "Invalid partition '2147483648' specified in topic arg 'orders:2147483648'");
    assert.match(errorOf('orders:-1'), /partitions are numbered from 0/);
    assert.match(errorOf(':0'), /the topic name is empty/);
    assert.match(errorOf(''), /the topic name is empty/);
    assert.match(errorOf('bad topic'), /contains characters other than ASCII alphanumerics/);
  });

  it('formats back to the CLI form', () => {
    assert.equal(formatTopicArg({ topic: 'orders' }), 'orders');
    assert.equal(formatTopicArg({ topic: 'orders', partitions: [0, 1] }), 'orders:0,1');
  });
});
