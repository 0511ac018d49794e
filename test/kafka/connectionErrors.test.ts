/** Connection failures against the real broker come back classified, with messages a person can act on. */
import { strict as assert } from 'node:assert';
import * as net from 'net';
import type { ConnectionConfig, Secrets } from '../../src/kafka/connection';
import { KafkaConnectionError, KafkaSource } from '../../src/kafka/kafkaSource';
import { MemoryLogger, brokerEnv } from './support';

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function failure(config: Omit<ConnectionConfig, 'id' | 'name'>, secrets: Secrets, logger = new MemoryLogger()): Promise<KafkaConnectionError> {
  const source = new KafkaSource({ id: 'bad', name: 'bad', ...config }, secrets, { logger });
  try {
    await source.listGroups();
  } catch (e) {
    assert.ok(e instanceof KafkaConnectionError, `expected a KafkaConnectionError, got ${String(e)}`);
    return e;
  } finally {
    await source.dispose();
  }
  assert.fail('listGroups succeeded against a bad connection');
}

describe('connection errors from a real broker', function () {
  this.timeout(60000);
  const env = brokerEnv();

  it('reports a wrong SCRAM password as an authentication failure, without logging it', async () => {
    const logger = new MemoryLogger();
    const wrongPassword = 'definitely-not-the-password';
    const error = await failure(
      { bootstrapServers: [env.saslBootstrap], sasl: { mechanism: 'scram-sha-256', username: env.user } },
      { password: wrongPassword },
      logger,
    );
    assert.equal(error.kind, 'authentication');
    assert.equal(error.message, 'Authentication failed (SASL SCRAM-SHA-256): wrong user name or password');
    assert.ok(logger.lines.some((line) => line.startsWith('error')), 'kafkajs logged the failure');
    assert.ok(!logger.lines.some((line) => line.includes(wrongPassword)));
  });

  it('reports a closed port as unreachable', async () => {
    const port = await closedPort();
    const error = await failure({ bootstrapServers: [`127.0.0.1:${port}`] }, {});
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.message, `Cannot reach 127.0.0.1:${port}: connection refused`);
  });

  it('reports TLS against a PLAINTEXT listener as a TLS handshake failure', async () => {
    const error = await failure({ bootstrapServers: [env.bootstrap], tls: { enabled: true, rejectUnauthorized: false } }, {});
    assert.equal(error.kind, 'tls');
    assert.match(error.message, /^TLS handshake failed: /);
  });
});
