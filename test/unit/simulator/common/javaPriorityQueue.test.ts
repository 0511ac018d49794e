import * as assert from 'node:assert/strict';
import { JavaPriorityQueue } from '../../../../src/simulator/common/javaPriorityQueue';

describe('JavaPriorityQueue', () => {
  it('hands out equal elements in the order java.util.PriorityQueue does', () => {
    // [priority, id]; the expected order is what JDK 17's PriorityQueue printed for the same adds and polls.
    const queue = new JavaPriorityQueue<[number, number]>((a, b) => a[0] - b[0]);
    queue.addAll([[1, 0], [1, 1], [1, 2], [0, 3], [1, 4], [0, 5], [2, 6], [1, 7]]);
    const polled: number[] = [];
    for (let element = queue.poll(); element !== undefined; element = queue.poll()) {
      polled.push(element[1]);
      if (polled.length === 3) {
        queue.add([0, 8]);
        queue.add([1, 9]);
      }
    }
    assert.deepEqual(polled, [3, 5, 0, 8, 9, 7, 4, 1, 2, 6]);
    assert.ok(queue.isEmpty());
    assert.equal(queue.poll(), undefined);
  });
});
