import { strict as assert } from 'node:assert';
import { abortTransactionFlow, findHangingFlow } from '../../../src/commands/transactionFlows';
import { SimTransactionAdmin } from '../../../src/simulator/admin/simTransactionAdmin';
import { Simulation } from '../../../src/simulator/simulation';
import { ScriptedAdminPrompts } from './scriptedAdminPrompts';

/** ledger-0: 4 plain records, then "payments-tx" open from offset 4; ledger-1: a zombie write of producer 777. */
function cluster() {
  const sim = new Simulation({ seed: 9, startTime: 1_000_000 });
  sim.createTopic('ledger', 2);
  const log = (p: number) => sim.cluster.partition('ledger', p)!;
  log(0).append(4, sim.now);
  const producer = sim.initTransactions('payments-tx', 900_000);
  producer.beginTransaction();
  producer.send('ledger', 3, 0);
  log(1).appendTransactional({ producerId: 777, producerEpoch: 2, baseSequence: 0 }, 5, sim.now);
  return { sim, log, producer, admin: new SimTransactionAdmin(sim) };
}

describe('transaction flows', () => {
  it('Abort Transaction… asks the topic, partition and open transaction, confirms with the cost, then frees the LSO', async () => {
    const { log, producer, admin } = cluster();
    const prompts = new ScriptedAdminPrompts([{ pick: 'ledger' }, { input: '0' }, { pick: 'Offset 4' }], [true]);
    const outcome = await abortTransactionFlow(prompts, admin);
    assert.deepEqual(outcome, { target: { topic: 'ledger', partition: 0, startOffset: 4 }, producerId: producer.producerId, transactionalId: 'payments-tx' });
    const [confirmation] = prompts.confirmations;
    assert.equal(confirmation.message, `Abort the transaction of "payments-tx" (producer ${producer.producerId}) on ledger-0, open from offset 4?`);
    assert.match(confirmation.detail ?? '', /Cost: every record this transaction wrote to ledger-0 from offset 4, last written 0 s ago is discarded\. .*cannot be undone/);
    assert.equal(confirmation.action, 'Abort Transaction');
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark], [8, 8]);
  });

  it('writes nothing when the confirmation is declined, or when a row named a transaction that is gone', async () => {
    const { log, admin } = cluster();
    const declined = new ScriptedAdminPrompts([], [false]);
    assert.equal(await abortTransactionFlow(declined, admin, { topic: 'ledger', partition: 1, startOffset: 0 }), undefined);
    assert.match(declined.confirmations[0].message, /producer 777 \(no transaction coordinator knows its transactional id\) on ledger-1/);
    assert.equal(log(1).lastStableOffset, 0, 'still held');
    await assert.rejects(abortTransactionFlow(new ScriptedAdminPrompts([]), admin, { topic: 'ledger', partition: 1, startOffset: 3 }), /Could not find any open transactions starting at offset 3 on partition ledger-1/);
    const typed = new ScriptedAdminPrompts([{ input: 'x' }]);
    await assert.rejects(abortTransactionFlow(typed, admin, { topic: 'ledger' }), /Invalid scripted input for "Abort Transaction": Partition must be a whole number/);
    assert.equal(typed.asked[0].validation, 'Partition must be a whole number, e.g. 0');
  });

  it('from a transaction row, asks which of its partitions and finds its producer\'s open transaction there', async () => {
    const { log, producer, admin } = cluster();
    const prompts = new ScriptedAdminPrompts([{ pick: 'ledger-0' }], [true]);
    const outcome = await abortTransactionFlow(prompts, admin, { producerId: producer.producerId, choices: [{ topic: 'ledger', partition: 0 }] });
    assert.deepEqual(outcome?.target, { topic: 'ledger', partition: 0, startOffset: 4 });
    assert.equal(log(0).lastStableOffset, log(0).highWatermark);
    await assert.rejects(
      abortTransactionFlow(new ScriptedAdminPrompts([{ pick: 'ledger-1' }]), admin, { producerId: producer.producerId, choices: [{ topic: 'ledger', partition: 1 }] }),
      new RegExp(`Producer ${producer.producerId} has no open transaction on ledger-1`),
    );
  });

  it('Find Hanging Transactions… searches a topic with the asked timeout and finds the zombie write only', async () => {
    const { sim, admin } = cluster();
    sim.advance(10 * 60_000);
    const prompts = new ScriptedAdminPrompts([{ pick: 'A topic' }, { pick: 'ledger' }, { input: '5' }]);
    const result = await findHangingFlow(prompts, admin);
    assert.deepEqual(result?.scope, { topic: 'ledger', maxTransactionTimeoutMs: 300_000 });
    assert.deepEqual(result?.hanging.map((h) => [h.partition, h.producer.producerId, h.durationMinutes]), [[1, 777, 10]]);
    assert.equal(prompts.asked[2].prefilled, '15', 'the tool\'s default, 15 minutes');
    assert.equal(await findHangingFlow(new ScriptedAdminPrompts([{ cancel: true }]), admin), undefined);
  });
});
