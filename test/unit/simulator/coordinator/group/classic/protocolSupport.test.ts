import { strict as assert } from 'node:assert';
import { harness, joinDynamic, protocols } from '../../../harness';

describe('ProtocolSupport', () => {
  describe('protocol selection', () => {
    function electedProtocol(lists: string[][]): string | null {
      const h = harness();
      const members = lists.map((names, i) => joinDynamic(h.sim, `C${i}`, { protocols: protocols(names) }));
      h.sim.advance(10000);
      return members[0].pending.response?.protocolName ?? null;
    }

    it('only counts protocols every member supports', () => {
      assert.equal(electedProtocol([['roundrobin', 'range'], ['range', 'roundrobin'], ['range']]), 'range');
    });

    it('elects the protocol with most first-choice votes', () => {
      assert.equal(electedProtocol([['roundrobin', 'range'], ['roundrobin', 'range'], ['range', 'roundrobin']]), 'roundrobin');
    });

    it('breaks a tie in favour of the protocol voted first (insertion order)', () => {
      assert.equal(electedProtocol([['roundrobin', 'range'], ['range', 'roundrobin']]), 'roundrobin');
      assert.equal(electedProtocol([['range', 'roundrobin'], ['roundrobin', 'range']]), 'range');
    });
  });
});
