import { strict as assert } from 'assert';
import { newConnectionId, readStoredConnections, toStoredConnection } from '../../../src/kafka/connectionSettings';

describe('connection settings', () => {
  it('reads well-formed entries with TLS and SASL', () => {
    const read = readStoredConnections([
      { id: 'prod', name: 'Production', bootstrapServers: 'a:9092, b:9093', tls: { caPath: '/ca.pem' }, sasl: { mechanism: 'scram-sha-512', username: 'alice' } },
      { id: 'dev', bootstrapServers: ['127.0.0.1:9092'] },
    ]);
    assert.deepEqual(read.problems, []);
    assert.equal(read.connections.length, 2);
    const [prod, dev] = read.connections;
    assert.deepEqual(prod.bootstrapServers, ['a:9092', 'b:9093']);
    assert.equal(prod.tls?.enabled, true);
    assert.equal(prod.tls?.rejectUnauthorized, true);
    assert.equal(prod.tls?.caPath, '/ca.pem');
    assert.deepEqual(prod.sasl, { mechanism: 'scram-sha-512', username: 'alice', tokenCommand: undefined });
    assert.equal(dev.name, 'dev', 'the id stands in for a missing name');
  });

  it('reports each bad entry by index and keeps the good ones', () => {
    const read = readStoredConnections([
      'nonsense',
      { name: 'no id', bootstrapServers: 'a:1' },
      { id: 'x', bootstrapServers: 42 },
      { id: 'ok', bootstrapServers: 'h:1', sasl: { mechanism: 'kerberos' } },
      { id: 'good', bootstrapServers: 'h:1' },
      { id: 'good', bootstrapServers: 'h:2' },
    ]);
    assert.deepEqual(
      read.connections.map((c) => c.id),
      ['good'],
    );
    assert.deepEqual(read.problems, [
      'kafkaGroupLens.clusters[0] must be an object',
      'kafkaGroupLens.clusters[1].id is missing',
      'kafkaGroupLens.clusters[2].bootstrapServers must be a "host:port" string or a list of them',
      'kafkaGroupLens.clusters[3].sasl.mechanism must be one of plain, scram-sha-256, scram-sha-512, oauthbearer',
      'kafkaGroupLens.clusters[5].id "good" is used by an earlier entry',
    ]);
  });

  it('treats a missing setting as no connections and a non-list as a problem', () => {
    assert.deepEqual(readStoredConnections(undefined), { connections: [], problems: [] });
    assert.deepEqual(readStoredConnections({}).problems, ['kafkaGroupLens.clusters must be a list of connections']);
  });

  it('round-trips through the stored form without empty fields', () => {
    const read = readStoredConnections([{ id: 'a', name: 'A', bootstrapServers: 'h:1', tls: { enabled: true } }]);
    const stored = toStoredConnection(read.connections[0]);
    assert.deepEqual(stored, { id: 'a', name: 'A', bootstrapServers: ['h:1'], tls: { enabled: true, rejectUnauthorized: true } });
    assert.deepEqual(readStoredConnections([stored]).connections, read.connections);
  });

  it('makes readable unique ids', () => {
    assert.equal(newConnectionId('My Prod Cluster!', []), 'my-prod-cluster');
    assert.equal(newConnectionId('prod', [{ id: 'prod', name: 'p', bootstrapServers: [] }]), 'prod-2');
    assert.equal(newConnectionId('<b>', []), 'b');
    assert.equal(newConnectionId('***', []), 'cluster');
  });
});
