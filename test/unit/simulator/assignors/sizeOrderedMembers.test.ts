import assert from 'node:assert/strict';
import { SizeOrderedMembers } from '../../../../src/simulator/assignors/sizeOrderedMembers';
import { SeededRandom } from '../../../../src/simulator/common/random';

describe('SizeOrderedMembers (the general builder\'s TreeSet)', () => {
  it('orders by (count, rank) like a sorted list through random adds, removes and updates', () => {
    const random = new SeededRandom(77);
    const memberCount = 70;
    const memberOfRank = Int32Array.from({ length: memberCount }, (_, i) => i);
    for (let i = memberCount - 1; i > 0; i--) {
      const j = random.nextInt(i + 1);
      [memberOfRank[i], memberOfRank[j]] = [memberOfRank[j], memberOfRank[i]];
    }
    const rankOf = new Int32Array(memberCount);
    memberOfRank.forEach((m, rank) => {
      rankOf[m] = rank;
    });
    const set = new SizeOrderedMembers(rankOf, memberOfRank);
    const reference = new Map<number, number>();
    const expectedOrder = (): number[] => [...reference.entries()]
      .sort((a, b) => a[1] - b[1] || rankOf[a[0]] - rankOf[b[0]]).map(([m]) => m);

    for (let step = 0; step < 3000; step++) {
      const member = random.nextInt(memberCount);
      const size = random.nextInt(6);
      const action = random.nextInt(3);
      if (action === 0) {
        set.add(member, size);
        if (!reference.has(member)) {
          reference.set(member, size);
        }
      } else if (action === 1) {
        set.remove(member);
        reference.delete(member);
      } else {
        set.update(member, size);
        reference.set(member, size);
      }
      const order = expectedOrder();
      assert.equal(set.first(), order.length > 0 ? order[0] : -1);
      assert.equal(set.last(), order.length > 0 ? order[order.length - 1] : -1);
      const wanted = random.nextInt(memberCount);
      const visited: number[] = [];
      const found = set.scan((m) => {
        visited.push(m);
        return m % 5 === wanted % 5;
      });
      const expectedFound = order.find((m) => m % 5 === wanted % 5) ?? -1;
      assert.equal(found, expectedFound);
      assert.deepEqual(visited, order.slice(0, expectedFound < 0 ? order.length : order.indexOf(expectedFound) + 1));
    }
  });
});
