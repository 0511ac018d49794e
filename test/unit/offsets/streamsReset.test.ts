import { strict as assert } from 'assert';
import { resetOffsetsCommand } from '../../../src/offsets/cliCommand';
import type { ResetRequest } from '../../../src/offsets/resetRequest';
import { planStreamsReset, STREAMS_GROUPS_COMMAND, STREAMS_SCOPE_FLAGS, type StreamsResetFacts } from '../../../src/offsets/streamsReset';

/** The app reads "in" (2 partitions) and writes a repartition topic it reads back; it also committed on "other". */
function facts(overrides: Partial<StreamsResetFacts> = {}): StreamsResetFacts {
  return {
    groupState: 'Empty',
    committed: [
      { topic: 'in', partition: 0, offset: 5 },
      { topic: 'in', partition: 1, offset: 6 },
      { topic: 'app-rep-repartition', partition: 0, offset: 2 },
      { topic: 'other', partition: 0, offset: 9 },
    ],
    partitionsPerTopic: { in: 2, other: 1, 'app-rep-repartition': 1 },
    logOffsets: ['in-0', 'in-1', 'app-rep-repartition-0', 'other-0'].map((key) => {
      const at = key.lastIndexOf('-');
      return { topic: key.slice(0, at), partition: Number(key.slice(at + 1)), earliest: 1, latest: 50 };
    }),
    sourceTopics: ['in', 'app-rep-repartition'],
    ...overrides,
  };
}

function request(scope: ResetRequest['scope'], scenario: ResetRequest['scenario'] = { kind: 'to-earliest' }): ResetRequest {
  return { groupId: 'app', scenario, scope };
}

describe('streams group reset plan (kafka-streams-groups.sh 4.4)', () => {
  it('takes the committed partitions of the topology\'s source topics on --all-input-topics', async () => {
    const plan = await planStreamsReset(request({ kind: 'all-topics' }), facts());
    assert.ok(plan.ok);
    assert.deepEqual(plan.rows.map((r) => `${r.topic}-${r.partition}:${r.currentOffset}->${r.newOffset}`), ['app-rep-repartition-0:2->1', 'in-0:5->1', 'in-1:6->1']);
  });

  it('refuses --input-topic partitions the group has no offset for, as filterExistingGroupTopics does', async () => {
    const partial = facts({ committed: [{ topic: 'in', partition: 0, offset: 5 }] });
    assert.deepEqual(await planStreamsReset(request({ kind: 'topics', topics: [{ topic: 'in' }] }), partial), { ok: false, error: "One or more topics are not part of the group 'app'." });
    const plan = await planStreamsReset(request({ kind: 'topics', topics: [{ topic: 'in', partitions: [1] }] }, { kind: 'shift-by', shift: 100 }), facts());
    assert.ok(plan.ok);
    assert.deepEqual(plan.rows.map((r) => r.newOffset), [50]);
  });

  it('refuses an active group with the consumer tool\'s sentence before anything else', async () => {
    assert.deepEqual(await planStreamsReset(request({ kind: 'topics', topics: [{ topic: 'nope' }] }), facts({ groupState: 'Stable' })), {
      ok: false,
      error: "Assignments can only be reset if the group 'app' is inactive, but the current state is Stable.",
    });
  });

  it('writes the kafka-streams-groups.sh line with its input-topic scope flags', () => {
    const options = { bootstrapServers: 'localhost:9092', command: STREAMS_GROUPS_COMMAND, scopeFlags: STREAMS_SCOPE_FLAGS, mode: 'dry-run' as const };
    assert.equal(resetOffsetsCommand(request({ kind: 'all-topics' }), options), 'kafka-streams-groups.sh --bootstrap-server localhost:9092 --group app --reset-offsets --to-earliest --all-input-topics --dry-run');
    assert.equal(
      resetOffsetsCommand(request({ kind: 'topics', topics: [{ topic: 'in', partitions: [0] }] }), { ...options, mode: 'execute' }),
      'kafka-streams-groups.sh --bootstrap-server localhost:9092 --group app --reset-offsets --to-earliest --input-topic in:0 --execute',
    );
  });
});
