import { strict as assert } from 'assert';
import { alterResults, alterShareGroupOffsetsData, deleteResults } from '../../../src/kafka/shareGroupAdmin';
import { AlterShareGroupOffsetsResponse } from '../../../src/protocol/messages/alterShareGroupOffsetsResponse';
import { DeleteShareGroupOffsetsResponse } from '../../../src/protocol/messages/deleteShareGroupOffsetsResponse';
import { errorCodeOf } from '../../../src/protocol/errorCodes';

const asked = [
  { topic: 'a', partition: 0, offset: 5 },
  { topic: 'a', partition: 1, offset: 6 },
  { topic: 'b', partition: 0, offset: 7 },
];

describe('kafka/shareGroupAdmin', () => {
  it('groups AlterShareGroupOffsets by topic and refuses offsets a start offset cannot be', () => {
    assert.deepEqual(alterShareGroupOffsetsData('sg', asked), {
      groupId: 'sg',
      topics: [
        { topicName: 'a', partitions: [{ partitionIndex: 0, startOffset: 5n }, { partitionIndex: 1, startOffset: 6n }] },
        { topicName: 'b', partitions: [{ partitionIndex: 0, startOffset: 7n }] },
      ],
    });
    assert.throws(() => alterShareGroupOffsetsData('sg', [{ topic: 'a', partition: 0, offset: -1 }]), /non-negative integer/);
  });

  it('answers every asked partition: its own error, the request error, or no answer', () => {
    const answer = AlterShareGroupOffsetsResponse.defaults();
    answer.responses = [{ topicName: 'a', topicId: '', partitions: [{ partitionIndex: 0, errorCode: 0, errorMessage: null }, { partitionIndex: 1, errorCode: errorCodeOf('UNKNOWN_TOPIC_OR_PARTITION'), errorMessage: null }] }];
    const results = alterResults(asked, answer);
    assert.deepEqual(results[0], { topic: 'a', partition: 0 });
    assert.match(results[1].error ?? '', /^UNKNOWN_TOPIC_OR_PARTITION/);
    assert.equal(results[2].error, 'The broker did not answer for this partition');
    const refused = AlterShareGroupOffsetsResponse.defaults();
    refused.errorCode = errorCodeOf('NON_EMPTY_GROUP');
    refused.errorMessage = 'The group is not empty.';
    assert.ok(alterResults(asked, refused).every((r) => r.error === 'NON_EMPTY_GROUP: The group is not empty.'));
  });

  it('answers every asked topic of a DeleteShareGroupOffsets', () => {
    const answer = DeleteShareGroupOffsetsResponse.defaults();
    answer.responses = [{ topicName: 'a', topicId: '', errorCode: 0, errorMessage: null }];
    assert.deepEqual(deleteResults(['a', 'b'], answer), { topics: [{ topic: 'a' }, { topic: 'b', error: 'The broker did not answer for this topic' }] });
    const refused = DeleteShareGroupOffsetsResponse.defaults();
    refused.errorCode = errorCodeOf('GROUP_ID_NOT_FOUND');
    const outcome = deleteResults(['a'], refused);
    assert.match(outcome.error ?? '', /^GROUP_ID_NOT_FOUND/);
    assert.equal(outcome.topics[0].error, outcome.error);
  });
});
