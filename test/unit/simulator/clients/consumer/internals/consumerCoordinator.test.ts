import { strict as assert } from 'node:assert';
import type { AssignorName } from '../../../../../../src/simulator/common/control';
import { commonRebalanceProtocol } from '../../../../../../src/simulator/clients/consumer/consumerConfig';
import { setup } from '../../../consumerHarness';

describe('ConsumerCoordinator', () => {
  it('runs EAGER with the default assignors and the coordinator elects "range"', () => {
    assert.equal(commonRebalanceProtocol(['range', 'cooperative-sticky']), 'EAGER');
    assert.equal(commonRebalanceProtocol(['cooperative-sticky']), 'COOPERATIVE');
    const { sim, add } = setup();
    add();
    add();
    sim.advance(10000);
    const group = sim.coordinator.group('g')!;
    assert.equal(group.state, 'Stable');
    assert.equal(group.protocolName, 'range');
    const assigned = [...group.members.values()].map((m) => m.assignment.partitions.length);
    assert.deepEqual(assigned, [3, 3]);
  });

  function generationsForJoin(assignors: AssignorName[]): { generations: number; revokedBeforeRejoin: number } {
    const { sim, add, generation, events } = setup();
    add({ assignors }, 'a');
    add({ assignors }, 'b');
    sim.advance(10000);
    const before = generation();
    const mark = events.length;
    add({ assignors }, 'c');
    sim.advance(30000);
    const revoked = events
      .slice(mark)
      .filter((e) => e.kind === 'assignment-changed')
      .reduce((n, e) => n + (e.assignments?.[0].revoked.length ?? 0), 0);
    return { generations: generation() - before, revokedBeforeRejoin: revoked };
  }

  it('takes two rounds with cooperative-sticky where eager takes one', () => {
    const eager = generationsForJoin(['range']);
    const cooperative = generationsForJoin(['cooperative-sticky']);
    assert.equal(eager.generations, 1);
    assert.equal(cooperative.generations, 2);
    // Eager revokes all 6 partitions; cooperative only the 2 that move to the new member.
    assert.equal(eager.revokedBeforeRejoin, 6);
    assert.equal(cooperative.revokedBeforeRejoin, 2);
  });
});
