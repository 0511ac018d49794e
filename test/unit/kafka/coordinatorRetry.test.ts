import { strict as assert } from 'node:assert';
import { hasLoadingCode, isCoordinatorLoadingError, retryWhileCoordinatorLoads } from '../../../src/kafka/coordinatorRetry';

describe('kafka/coordinatorRetry', () => {
  it('recognises coordinator-loading codes and errors, also when wrapped', () => {
    assert.equal(hasLoadingCode([{ errorCode: 0 }, { errorCode: 14 }]), true);
    assert.equal(hasLoadingCode([{ errorCode: 0 }, { errorCode: 25 }]), false);
    assert.equal(isCoordinatorLoadingError({ name: 'KafkaJSNonRetriableError', cause: { type: 'GROUP_COORDINATOR_NOT_AVAILABLE' } }), true);
    assert.equal(isCoordinatorLoadingError({ name: 'KafkaJSGroupCoordinatorNotFound' }), true);
    assert.equal(isCoordinatorLoadingError(new Error('boom')), false);
  });

  it('repeats while the result says the coordinator loads, then returns the settled result', async () => {
    const answers = [[{ errorCode: 16 }], [{ errorCode: 14 }], [{ errorCode: 0 }]];
    let calls = 0;
    const result = await retryWhileCoordinatorLoads(async () => answers[calls++], hasLoadingCode, 1);
    assert.deepEqual(result, [{ errorCode: 0 }]);
    assert.equal(calls, 3);
  });

  it('repeats loading errors but rethrows other errors at once', async () => {
    let calls = 0;
    const value = await retryWhileCoordinatorLoads(
      async () => {
        calls++;
        if (calls < 3) {
          throw Object.assign(new Error('not yet'), { type: 'GROUP_LOAD_IN_PROGRESS' });
        }
        return 'ok';
      },
      () => false,
      1,
    );
    assert.deepEqual([value, calls], ['ok', 3]);
    let failures = 0;
    await assert.rejects(
      retryWhileCoordinatorLoads(async () => {
        failures++;
        throw new Error('bad request');
      }, () => false, 1),
      /bad request/,
    );
    assert.equal(failures, 1);
  });

  it('gives up after six attempts and hands back the last answer', async () => {
    let calls = 0;
    const result = await retryWhileCoordinatorLoads(async () => [{ errorCode: 15, call: ++calls }], hasLoadingCode, 1);
    assert.deepEqual(result, [{ errorCode: 15, call: 6 }]);
  });
});
