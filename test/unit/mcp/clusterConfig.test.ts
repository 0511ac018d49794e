import { strict as assert } from 'assert';
import { parseClusterConfig } from '../../../src/mcp/clusterConfig';
import { parseMcpArgs } from '../../../src/mcp/cliArgs';

const SCRAM = { id: 'prod', name: 'Production', bootstrapServers: 'kafka-1:9092', sasl: { mechanism: 'scram-sha-512', username: 'lens', passwordEnv: 'PROD_KAFKA_PASSWORD' } };

describe('MCP cluster config', () => {
  it('reads the kafkaGroupLens.clusters shape and takes the password from the variable it names', () => {
    const { clusters, problems } = parseClusterConfig(JSON.stringify([SCRAM, { id: 'dev', bootstrapServers: ['localhost:9092'] }]), { PROD_KAFKA_PASSWORD: 's3cret' });
    assert.deepEqual(problems, []);
    assert.deepEqual(clusters.map((c) => c.config.id), ['prod', 'dev']);
    assert.deepEqual(clusters[0], { config: { id: 'prod', name: 'Production', bootstrapServers: ['kafka-1:9092'], sasl: { mechanism: 'scram-sha-512', username: 'lens', tokenCommand: undefined } }, secrets: { password: 's3cret' } });
    assert.deepEqual(clusters[1], { config: { id: 'dev', name: 'dev', bootstrapServers: ['localhost:9092'] }, secrets: {} });
  });

  it('makes a cluster unusable, with the reason, when its variable is not set or the file holds the secret', () => {
    const [unset] = parseClusterConfig(JSON.stringify([SCRAM]), {}).clusters;
    assert.ok('unusable' in unset);
    assert.match(unset.unusable, /environment variable PROD_KAFKA_PASSWORD \(sasl\.passwordEnv\) is not set/);
    const [written] = parseClusterConfig(JSON.stringify([{ ...SCRAM, sasl: { ...SCRAM.sasl, password: 'in-the-file' } }]), { PROD_KAFKA_PASSWORD: 's3cret' }).clusters;
    assert.ok('unusable' in written);
    assert.match(written.unusable, /sasl\.password is written in the config file/);
    assert.doesNotMatch(written.unusable, /in-the-file|s3cret/, 'the reason never holds a secret');
  });

  it('reports unreadable entries and refuses a file that is not a list', () => {
    const { clusters, problems } = parseClusterConfig(JSON.stringify([{ name: 'no id', bootstrapServers: 'a:1' }, SCRAM]), { PROD_KAFKA_PASSWORD: 'x' });
    assert.deepEqual(clusters.map((c) => c.config.id), ['prod']);
    assert.match(problems.join('\n'), /kafkaGroupLens\.clusters\[0\]\.id is missing/);
    assert.throws(() => parseClusterConfig('{"clusters": []}', {}), /must be a JSON list of connections/);
    assert.throws(() => parseClusterConfig('[{', {}), /not JSON/);
  });
});

describe('MCP command line', () => {
  it('runs the simulator without --config, and only when asked with it', () => {
    assert.equal(parseMcpArgs([]).simulator, true);
    assert.deepEqual(parseMcpArgs(['--config', 'c.json']), { config: 'c.json', simulator: false, scenario: 'demo', speed: 1, refreshSeconds: 5, logLevel: 'info' });
    assert.equal(parseMcpArgs(['--config', 'c.json', '--simulator']).simulator, true);
    assert.equal(parseMcpArgs(['--frozen-at', '15']).frozenAtSeconds, 15);
  });

  it('names what is wrong with an option', () => {
    assert.throws(() => parseMcpArgs(['--password', 'x']), /Unknown option "--password"/);
    assert.throws(() => parseMcpArgs(['--config']), /--config needs a value/);
    assert.throws(() => parseMcpArgs(['--speed', '0']), /--speed must be a number above 0/);
    assert.throws(() => parseMcpArgs(['--scenario', 'nope']), /--scenario must be one of demo/);
  });
});
