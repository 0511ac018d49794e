/**
 * Transactions V2 (KIP-890) through the server's generated codecs, as a Kafka 4.x client sends them:
 * transaction.version 2 finalized in ApiVersions, Produce v12+ adding its partition by itself,
 * TxnOffsetCommit v5 without AddOffsetsToTxn, and EndTxn v5 bumping the epoch, answering a retry
 * with the bumped epoch, an empty abort, and fencing any other epoch (TransactionCoordinator.endTransaction).
 */
import { strict as assert } from 'node:assert';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { ApiVersionsRequest } from '../../../../src/protocol/messages/apiVersionsRequest';
import { ApiVersionsResponse } from '../../../../src/protocol/messages/apiVersionsResponse';
import { EndTxnRequest } from '../../../../src/protocol/messages/endTxnRequest';
import { EndTxnResponse } from '../../../../src/protocol/messages/endTxnResponse';
import { TxnOffsetCommitRequest } from '../../../../src/protocol/messages/txnOffsetCommitRequest';
import { TxnOffsetCommitResponse } from '../../../../src/protocol/messages/txnOffsetCommitResponse';
import { describeSimGroup } from '../../../../src/simulator/admin/groupDetailMapper';
import { initTransactionalProducer, produceTransactional } from './transactionClient';
import { codecExchange, leaderPort, startServer, type ServerUnderTest } from './serverTestKit';

const TOPIC = 'ledger-v2';
const NONE = 0;

describe('simulator server: Transactions V2 (KIP-890) through the codecs', function () {
  this.timeout(20000);
  let t: ServerUnderTest;
  let port: number;

  before(async () => {
    t = await startServer();
    t.sim.cluster.createTopic(TOPIC, 2);
    port = leaderPort(t, TOPIC, 0);
  });

  after(async () => {
    await t?.stop();
  });

  const log = (partition: number) => t.sim.cluster.requireTopic(TOPIC).partitions[partition];

  const initProducer = (transactionalId: string) => initTransactionalProducer(port, transactionalId);
  const produce = (version: number, transactionalId: string, producerId: bigint, producerEpoch: number, partition: number, records: number) =>
    produceTransactional(t, version, transactionalId, { producerId, producerEpoch }, TOPIC, partition, records);

  async function endTxn(transactionalId: string, producerId: bigint, producerEpoch: number, committed: boolean) {
    return codecExchange(port, EndTxnRequest, EndTxnResponse, 5, { transactionalId, producerId, producerEpoch, committed });
  }

  it('finalizes transaction.version 2 in ApiVersions, so Kafka 4.x clients run Transactions V2', async () => {
    const response = await codecExchange(port, ApiVersionsRequest, ApiVersionsResponse, 4, { clientSoftwareName: 'codec-test', clientSoftwareVersion: '1' });
    assert.deepEqual(response.finalizedFeatures?.map((f) => [f.name, f.minVersionLevel, f.maxVersionLevel]), [['transaction.version', 2, 2]]);
    assert.deepEqual(response.supportedFeatures?.map((f) => [f.name, f.minVersion, f.maxVersion]), [['transaction.version', 0, 2]]);
    assert.ok((response.finalizedFeaturesEpoch ?? -1n) >= 0n, 'a finalized-features epoch the client takes as known');
  });

  it('adds a partition on Produce v12+, bumps the epoch at EndTxn v5, answers its retry, and fences the old epoch', async () => {
    const { producerId, producerEpoch } = await initProducer('v2-writer');
    assert.equal(await produce(13, 'v2-writer', producerId, producerEpoch, 0, 3), NONE, 'no AddPartitionsToTxn first');
    assert.equal(await produce(12, 'v2-writer', producerId, producerEpoch, 1, 2), NONE);
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark], [0, 3], 'the open transaction holds the LSO');

    const committed = await endTxn('v2-writer', producerId, producerEpoch, true);
    assert.deepEqual([committed.errorCode, committed.producerId, committed.producerEpoch], [NONE, producerId, producerEpoch + 1]);
    assert.deepEqual([log(0).lastStableOffset, log(0).highWatermark, log(1).highWatermark], [4, 4, 3], 'a COMMIT marker per partition');

    const retried = await endTxn('v2-writer', producerId, producerEpoch, true);
    assert.deepEqual([retried.errorCode, retried.producerEpoch], [NONE, producerEpoch + 1], 'the retry of the EndTxn that ended it');
    assert.equal((await endTxn('v2-writer', producerId, producerEpoch, false)).errorCode, errorCodeOf('INVALID_TXN_STATE'), 'an abort is no retry of a commit');
    assert.equal(log(0).highWatermark, 4, 'no second marker');

    assert.equal(await produce(13, 'v2-writer', producerId, producerEpoch, 0, 1), errorCodeOf('INVALID_PRODUCER_EPOCH'), 'the epoch before the bump');
    const next = producerEpoch + 1;
    assert.equal((await endTxn('v2-writer', producerId, next, true)).errorCode, errorCodeOf('INVALID_TXN_STATE'), 'nothing to commit');
    const emptyAbort = await endTxn('v2-writer', producerId, next, false);
    assert.deepEqual([emptyAbort.errorCode, emptyAbort.producerEpoch], [NONE, next + 1], 'an empty abort bumps the epoch');
    assert.equal(log(0).highWatermark, 4, 'an empty abort writes no marker');
    assert.equal((await endTxn('v2-writer', producerId, producerEpoch, true)).errorCode, errorCodeOf('PRODUCER_FENCED'), 'two epochs behind');
    assert.equal((await endTxn('v2-writer', producerId + 1n, next + 1, true)).errorCode, errorCodeOf('INVALID_PRODUCER_ID_MAPPING'));
  });

  it('adds the group\'s offsets on TxnOffsetCommit v5, pending until EndTxn commits them', async () => {
    const { producerId, producerEpoch } = await initProducer('v2-processor');
    const response = await codecExchange(port, TxnOffsetCommitRequest, TxnOffsetCommitResponse, 5, {
      transactionalId: 'v2-processor', groupId: 'v2-eos', producerId, producerEpoch, generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null,
      topics: [{ name: TOPIC, partitions: [{ partitionIndex: 1, committedOffset: 2n, committedLeaderEpoch: -1, committedMetadata: null }] }],
    });
    assert.equal(response.topics[0].partitions[0].errorCode, NONE, 'no AddOffsetsToTxn first');
    const committedOffset = () => describeSimGroup(t.sim, 'v2-eos').offsets.find((o) => o.topic === TOPIC && o.partition === 1)?.committedOffset ?? null;
    assert.equal(committedOffset(), null, 'pending while the transaction is open');
    assert.equal((await endTxn('v2-processor', producerId, producerEpoch, true)).errorCode, NONE);
    assert.equal(committedOffset(), 2);
  });

  it('keeps Transactions V1 for Produce below v12: a partition not added is refused', async () => {
    const { producerId, producerEpoch } = await initProducer('v1-writer');
    assert.equal(await produce(11, 'v1-writer', producerId, producerEpoch, 0, 1), errorCodeOf('INVALID_TXN_STATE'));
  });
});
