import { strict as assert } from 'node:assert';
import { PartitionLog } from '../../../../src/simulator/log/partitionLog';
import { PRODUCER_ID_EXPIRATION_MS } from '../../../../src/simulator/log/producerStateTable';

describe('ProducerStateTable (DescribeProducers on one partition)', () => {
  it('keeps each producer\'s epoch, last sequence, last write and open transaction, as ProducerStateManager does', () => {
    const log = new PartitionLog();
    log.appendStamped([100, 110, 120], { producerId: 7, producerEpoch: 0, baseSequence: 0 }); // idempotent 0-2
    log.appendTransactional({ producerId: 4, producerEpoch: 2, baseSequence: 0 }, 3, 130); // 3-5 open
    log.appendTransactional({ producerId: 4, producerEpoch: 2, baseSequence: 3 }, 2, 140); // 6-7 same transaction
    log.appendStamped([150], { producerId: 7, producerEpoch: 0, baseSequence: 3 }); // 8
    assert.deepEqual(log.activeProducers(200), [
      { producerId: 4, producerEpoch: 2, lastSequence: 4, lastTimestamp: 140, coordinatorEpoch: -1, currentTxnStartOffset: 3 },
      { producerId: 7, producerEpoch: 0, lastSequence: 3, lastTimestamp: 150, coordinatorEpoch: -1, currentTxnStartOffset: -1 },
    ]);
    assert.equal(log.lastStableOffset, 3, 'held by producer 4\'s first offset');
    log.writeControlMarker(4, 'COMMIT', 160, 3, 0); // TV2: the marker carries the bumped epoch
    assert.deepEqual(log.activeProducers(200)[0], { producerId: 4, producerEpoch: 3, lastSequence: -1, lastTimestamp: 160, coordinatorEpoch: 0, currentTxnStartOffset: -1 }, 'a new epoch restarts the sequence');
    assert.deepEqual(log.producerEpochs(4), { producerEpoch: 3, coordinatorEpoch: 0 });
    assert.equal(log.producerEpochs(99), undefined);
  });

  it('forgets a producer idle past producer.id.expiration.ms, but never one with a transaction open', () => {
    const log = new PartitionLog();
    log.appendStamped([0], { producerId: 1, producerEpoch: 0, baseSequence: 0 });
    log.appendTransactional({ producerId: 2, producerEpoch: 0, baseSequence: 0 }, 1, 0);
    assert.deepEqual(log.activeProducers(PRODUCER_ID_EXPIRATION_MS - 1).map((p) => p.producerId), [1, 2]);
    assert.deepEqual(log.activeProducers(PRODUCER_ID_EXPIRATION_MS).map((p) => p.producerId), [2], 'the hanging transaction stays visible');
  });
});
