import { strict as assert } from 'assert';
import { parsePartitionSelections, promptResetRequest, RESET_SCENARIOS, type ResetQuestionContext } from '../../../src/reset/resetPrompts';
import { ScriptedAdminPrompts } from '../commands/scriptedAdminPrompts';

function context(files: Record<string, string> = {}, extra: Partial<ResetQuestionContext> = {}): ResetQuestionContext {
  return {
    groupId: 'g',
    committedTopics: ['orders'],
    groupTopics: ['orders', 'payments'],
    readFile: async (path) => {
      if (!(path in files)) {
        throw new Error(`ENOENT: ${path}`);
      }
      return files[path];
    },
    ...extra,
  };
}

describe('reset/resetPrompts', () => {
  it('offers the eight --reset-offsets scenarios', () => {
    assert.deepEqual(RESET_SCENARIOS.map((s) => s.description), [
      '--to-earliest', '--to-latest', '--to-current', '--to-offset', '--shift-by', '--to-datetime', '--by-duration', '--from-file',
    ]);
  });

  it('asks a shift and whole topics picked from the group', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: 'Shift By…' }, { input: ' -25 ' }, { pick: 'Whole topics…' }, { pickMany: ['payments'] }]);
    const asked = await promptResetRequest(prompts, context());
    assert.deepEqual(asked, { request: { groupId: 'g', scenario: { kind: 'shift-by', shift: -25 }, scope: { kind: 'topics', topics: [{ topic: 'payments' }] } } });
    assert.deepEqual(prompts.asked[3].labels, ['orders', 'payments']);
  });

  it('validates offsets, datetimes, durations and partition lists with the planner parsers', async () => {
    await assert.rejects(promptResetRequest(new ScriptedAdminPrompts([{ pick: 'To Offset…' }, { input: '1.5' }]), context()), /whole number/);
    await assert.rejects(promptResetRequest(new ScriptedAdminPrompts([{ pick: 'To Offset…' }, { input: '9223372036854775808' }]), context()), /from -2\^63 to 2\^63-1/);
    const beyond = await promptResetRequest(new ScriptedAdminPrompts([{ pick: 'To Offset…' }, { input: '9007199254740993' }, { pick: 'All topics' }]), context());
    assert.deepEqual(beyond?.request.scenario, { kind: 'to-offset', offset: 9007199254740993n }, 'beyond 2^53 the offset stays exact');
    const small = await promptResetRequest(new ScriptedAdminPrompts([{ pick: 'To Offset…' }, { input: ' 42 ' }, { pick: 'All topics' }]), context());
    assert.deepEqual(small?.request.scenario, { kind: 'to-offset', offset: 42 });
    await assert.rejects(promptResetRequest(new ScriptedAdminPrompts([{ pick: 'To Date and Time…' }, { input: '2024-01-01T00:00:00Z' }]), context()), /milliseconds are required|Unparseable/);
    await assert.rejects(promptResetRequest(new ScriptedAdminPrompts([{ pick: 'By Duration…' }, { input: '1 hour' }]), context()), /Invalid scripted input/);
    const partitions = new ScriptedAdminPrompts([{ pick: 'To Earliest' }, { pick: 'Specific partitions…' }, { input: 'orders:0,1 payments:2' }]);
    assert.deepEqual((await promptResetRequest(partitions, context()))?.request.scope, {
      kind: 'topics',
      topics: [{ topic: 'orders', partitions: [0, 1] }, { topic: 'payments', partitions: [2] }],
    });
    assert.deepEqual(parsePartitionSelections('orders'), { ok: false, error: "'orders' names no partitions: write orders:0,1 (or pick \"Whole topics\")" });
    assert.equal(parsePartitionSelections('orders:0,,1').ok, false);
  });

  it('reads a CSV plan for from-file and reports a bad row with its line number', async () => {
    const files = { '/plans/ok.csv': 'orders,0,10\norders,1,20\n', '/plans/bad.csv': 'orders,0,10\norders,x,20\n' };
    const ok = await promptResetRequest(new ScriptedAdminPrompts([], [], ['/plans/ok.csv']), context(files, { scenario: 'from-file' }));
    assert.deepEqual(ok, { request: { groupId: 'g', scenario: { kind: 'from-file', csv: files['/plans/ok.csv'] }, scope: { kind: 'all-topics' } }, fromFilePath: '/plans/ok.csv' });
    await assert.rejects(
      promptResetRequest(new ScriptedAdminPrompts([], [], ['/plans/bad.csv']), context(files, { scenario: 'from-file' })),
      /^Error: \/plans\/bad\.csv: Line 2: partition 'x' is not a partition number/,
    );
    assert.equal(await promptResetRequest(new ScriptedAdminPrompts([], [], [undefined]), context(files, { scenario: 'from-file' })), undefined);
  });

  it('stops when a step is cancelled', async () => {
    assert.equal(await promptResetRequest(new ScriptedAdminPrompts([{ cancel: true }]), context()), undefined);
    assert.equal(await promptResetRequest(new ScriptedAdminPrompts([{ pick: 'To Latest' }, { cancel: true }]), context()), undefined);
  });
});
