import { strict as assert } from 'assert';
import { deleteGroupCommand, deleteOffsetsCommand, resetOffsetsCommand, shellQuote } from '../../../src/offsets/cliCommand';
import type { ResetRequest } from '../../../src/offsets/resetRequest';

const servers = { bootstrapServers: 'localhost:9092' };

describe('CLI commands', () => {
  it('quotes shell words only when needed, and escapes single quotes', () => {
    assert.equal(shellQuote('orders.v1_x-2'), 'orders.v1_x-2');
    assert.equal(shellQuote('PT1H30M'), 'PT1H30M');
    assert.equal(shellQuote('2024-05-01T08:30:00.000+02:00'), '2024-05-01T08:30:00.000+02:00');
    assert.equal(shellQuote('my group'), "'my group'");
    assert.equal(shellQuote("it's"), "'it'\\''s'");
    assert.equal(shellQuote('$(rm -rf /)'), "'$(rm -rf /)'");
    assert.equal(shellQuote('a*b;c|d`e'), "'a*b;c|d`e'");
    assert.equal(shellQuote(''), "''");
  });

  it('builds a dry-run reset with explicit partitions and whole topics', () => {
    const request: ResetRequest = {
      groupId: 'g1',
      scenario: { kind: 'to-earliest' },
      scope: { kind: 'topics', topics: [{ topic: 'orders', partitions: [0, 1] }, { topic: 'payments' }] },
    };
    assert.equal(
      resetOffsetsCommand(request, { ...servers, mode: 'dry-run' }),
      'kafka-consumer-groups.sh --bootstrap-server localhost:9092 --group g1 --reset-offsets --to-earliest --topic orders:0,1 --topic payments --dry-run',
    );
  });

  it('writes each scenario with its argument', () => {
    const scope = { kind: 'all-topics' } as const;
    const cases: Array<[ResetRequest['scenario'], string]> = [
      [{ kind: 'to-latest' }, '--to-latest'],
      [{ kind: 'to-current' }, '--to-current'],
      [{ kind: 'to-offset', offset: 42 }, '--to-offset 42'],
      [{ kind: 'shift-by', shift: -5 }, '--shift-by -5'],
      [{ kind: 'to-datetime', datetime: '2024-05-01T08:30:00.000' }, '--to-datetime 2024-05-01T08:30:00.000'],
      [{ kind: 'by-duration', duration: 'P1DT2H' }, '--by-duration P1DT2H'],
    ];
    for (const [scenario, expected] of cases) {
      const command = resetOffsetsCommand({ groupId: 'g', scenario, scope }, { ...servers, mode: 'execute' });
      assert.equal(command, `kafka-consumer-groups.sh --bootstrap-server localhost:9092 --group g --reset-offsets ${expected} --all-topics --execute`);
    }
  });

  it('quotes special group ids, config paths and file paths; from-file takes no scope', () => {
    const request: ResetRequest = { groupId: "team's group", scenario: { kind: 'from-file', csv: 'orders,0,1\n' }, scope: { kind: 'all-topics' } };
    const command = resetOffsetsCommand(request, {
      bootstrapServers: ['b1:9092', 'b2:9092'],
      commandConfigPath: '/home/me/my client.properties',
      fromFilePath: '/tmp/plan.csv',
      mode: 'execute',
      export: true,
      command: 'kafka-consumer-groups',
    });
    assert.equal(
      command,
      "kafka-consumer-groups --bootstrap-server b1:9092,b2:9092 --command-config '/home/me/my client.properties' --group 'team'\\''s group' --reset-offsets --from-file /tmp/plan.csv --execute --export",
    );
  });

  it('refuses a from-file command without a path, and no bootstrap servers', () => {
    const request: ResetRequest = { groupId: 'g', scenario: { kind: 'from-file', csv: '' }, scope: { kind: 'all-topics' } };
    assert.throws(() => resetOffsetsCommand(request, { ...servers, mode: 'dry-run' }), /needs the path of its CSV file/);
    const plain: ResetRequest = { ...request, scenario: { kind: 'to-latest' } };
    assert.throws(() => resetOffsetsCommand(plain, { bootstrapServers: [], mode: 'dry-run' }), /needs bootstrap servers/);
  });

  it('builds delete and delete-offsets commands', () => {
    assert.equal(deleteGroupCommand('g 1', servers), "kafka-consumer-groups.sh --bootstrap-server localhost:9092 --group 'g 1' --delete");
    assert.equal(
      deleteOffsetsCommand('g', [{ topic: 'orders', partitions: [2] }, { topic: 'payments' }], servers),
      'kafka-consumer-groups.sh --bootstrap-server localhost:9092 --group g --delete-offsets --topic orders:2 --topic payments',
    );
    assert.throws(() => deleteOffsetsCommand('g', [], servers), /at least one --topic/);
  });
});
