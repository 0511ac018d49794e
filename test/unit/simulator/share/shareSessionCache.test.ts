/** Share sessions: epochs as ShareRequestMetadata counts them, the session's partition order, and hostile sizes. */
import assert from 'node:assert/strict';
import { nextShareSessionEpoch, ShareSessionCache } from '../../../../src/simulator/share/shareSessionCache';

describe('ShareSessionCache', () => {
  const noConnection = (): (() => void) => () => undefined;

  it('counts epochs as ShareRequestMetadata.nextEpoch, replaces a member\'s session, and keeps Kafka\'s partition order', () => {
    assert.deepEqual([nextShareSessionEpoch(0), nextShareSessionEpoch(7), nextShareSessionEpoch(0x7fffffff), nextShareSessionEpoch(-1)], [1, 8, 1, -1]);
    const left: string[] = [];
    const cache = new ShareSessionCache({ onMemberLeave: (s) => left.push(s.memberId), onGroupEmpty: () => undefined }, 2);
    const first = cache.create(1, 'g', 'm', [{ topicId: 't', partition: 0 }, { topicId: 't', partition: 1 }, { topicId: 't', partition: 0 }], noConnection);
    assert.deepEqual([first.epoch, [...first.partitions.keys()]], [1, ['t:0', 't:1']]);
    ShareSessionCache.moveToEnd(first, { topicId: 't', partition: 0 });
    ShareSessionCache.update(first, [{ topicId: 't', partition: 2 }], [{ topicId: 't', partition: 1 }]);
    assert.deepEqual([...first.partitions.keys()], ['t:0', 't:2']);
    const second = cache.create(1, 'g', 'm', [], noConnection);
    assert.deepEqual([cache.size, cache.get(1, 'g', 'm') === second], [1, true]);
    cache.create(2, 'g', 'm', [], noConnection);
    assert.throws(() => cache.create(1, 'g', 'other', [], noConnection), /The limit of share sessions has been reached/);
  });

  it('releases a member whose connection closed, unless its session was replaced since', () => {
    const left: string[] = [];
    const empty: string[] = [];
    const cache = new ShareSessionCache({ onMemberLeave: (s) => left.push(s.memberId), onGroupEmpty: (_b, g) => empty.push(g) });
    const closers: Array<() => void> = [];
    const connection = (listener: () => void): (() => void) => {
      closers.push(listener);
      return () => undefined;
    };
    cache.create(1, 'g', 'a', [], connection);
    cache.create(1, 'g', 'b', [], connection);
    cache.create(1, 'g', 'b', [], noConnection);
    closers.forEach((close) => close());
    assert.deepEqual([left, empty, cache.size], [['a'], [], 1]);
  });

  it('keeps a session of 200,000 partitions named twice once each (keyed: a hostile request costs its size, not its square)', () => {
    const cache = new ShareSessionCache({ onMemberLeave: () => undefined, onGroupEmpty: () => undefined });
    const refs = Array.from({ length: 200_000 }, (_, partition) => ({ topicId: 't', partition }));
    const session = cache.create(1, 'g', 'm', [...refs, ...refs], noConnection);
    ShareSessionCache.update(session, refs, refs.slice(0, 100_000));
    assert.equal(session.partitions.size, 100_000);
  });
});
