import { strict as assert } from 'node:assert';
import { KafkaErrorCode } from '../../../src/kafka/kafkaErrors';
import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSRequestTimeoutError, logLevel, type LogEntry } from 'kafkajs';
import {
  CONNECTION_TIMEOUTS,
  ConnectionConfigError,
  buildKafkaConfig,
  classifyError,
  connectionConfigProblems,
  createLogCreator,
  parseBootstrapServers,
  redact,
  type ConnectionConfig,
} from '../../../src/kafka/connection';
import { MemoryLogger as Lines } from '../../kafka/support';

const base: ConnectionConfig = { id: 'c1', name: 'Local', bootstrapServers: ['127.0.0.1:9092'] };

/** kafkajs's SASLOptions union does not narrow on mechanism, so pick the provider out by shape. */
function oauthProvider(sasl: unknown): (() => Promise<{ value: string }>) | undefined {
  return (sasl as { oauthBearerProvider?: () => Promise<{ value: string }> } | undefined)?.oauthBearerProvider;
}

function namedError(name: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name, ...extra });
}

describe('kafka/connection', () => {
  describe('parseBootstrapServers', () => {
    it('splits on commas and whitespace and drops empties', () => {
      assert.deepEqual(parseBootstrapServers(' a:1, b:2\nc:3 ,,'), ['a:1', 'b:2', 'c:3']);
    });
  });

  describe('connectionConfigProblems', () => {
    it('accepts a minimal plaintext connection', () => {
      assert.deepEqual(connectionConfigProblems(base, {}), []);
    });

    it('names every problem at once', () => {
      const problems = connectionConfigProblems(
        { id: ' ', name: '', bootstrapServers: ['nohost', 'h:0', '[::1]:9092'], tls: { enabled: true, certPath: '/c.pem' }, sasl: { mechanism: 'scram-sha-256' } },
        {},
      );
      assert.deepEqual(problems, [
        'The connection needs an id',
        'The connection needs a name',
        'Bootstrap server "nohost" is not host:port',
        'Bootstrap server "h:0" has port 0, outside 1..65535',
        'A TLS client certificate needs both a certificate file and a key file',
        'SASL SCRAM-SHA-256 needs a user name',
        'SASL SCRAM-SHA-256 needs a password',
      ]);
    });

    it('requires bootstrap servers, a known mechanism and an OAuth token source', () => {
      assert.deepEqual(connectionConfigProblems({ ...base, bootstrapServers: [] }, {}), ['Give at least one bootstrap server (host:port)']);
      const unknown = { ...base, sasl: { mechanism: 'gssapi' } } as unknown as ConnectionConfig;
      assert.match(connectionConfigProblems(unknown, {})[0], /Unknown SASL mechanism "gssapi"/);
      assert.deepEqual(connectionConfigProblems({ ...base, sasl: { mechanism: 'oauthbearer' } }, {}), ['SASL OAUTHBEARER needs a token command or a stored token']);
      assert.deepEqual(connectionConfigProblems({ ...base, sasl: { mechanism: 'oauthbearer' } }, { token: 't' }), []);
    });
  });

  describe('buildKafkaConfig', () => {
    it('bounds timeouts and retries so a dead broker fails in seconds', () => {
      const config = buildKafkaConfig(base, {}, { logger: new Lines() });
      assert.deepEqual(config.brokers, ['127.0.0.1:9092']);
      assert.equal(config.clientId, 'kafka-group-lens');
      assert.equal(config.connectionTimeout, CONNECTION_TIMEOUTS.connectionTimeout);
      assert.equal(config.requestTimeout, CONNECTION_TIMEOUTS.requestTimeout);
      assert.deepEqual(config.retry, CONNECTION_TIMEOUTS.retry);
      assert.equal(config.ssl, undefined);
      assert.equal(config.sasl, undefined);
    });

    it('throws ConnectionConfigError listing the problems', () => {
      assert.throws(
        () => buildKafkaConfig({ ...base, bootstrapServers: ['x'] }, {}, { logger: new Lines() }),
        (e: unknown) => e instanceof ConnectionConfigError && e.problems.length === 1 && e.message === 'Bootstrap server "x" is not host:port',
      );
    });

    it('reads TLS files and passes the key passphrase', () => {
      const files: Record<string, string> = { '/ca.pem': 'CA', '/cert.pem': 'CERT', '/key.pem': 'KEY' };
      const config = buildKafkaConfig(
        { ...base, tls: { enabled: true, caPath: '/ca.pem', certPath: '/cert.pem', keyPath: '/key.pem', rejectUnauthorized: false } },
        { keyPassphrase: 'pp' },
        { logger: new Lines(), readFile: (p) => Buffer.from(files[p]) },
      );
      assert.deepEqual(config.ssl, { rejectUnauthorized: false, ca: [Buffer.from('CA')], cert: Buffer.from('CERT'), key: Buffer.from('KEY'), passphrase: 'pp' });
    });

    it('says which TLS file cannot be read', () => {
      assert.throws(
        () =>
          buildKafkaConfig({ ...base, tls: { enabled: true, caPath: '/missing.pem' } }, {}, {
            logger: new Lines(),
            readFile: () => {
              throw new Error('ENOENT: no such file');
            },
          }),
        /Cannot read the TLS CA file \/missing.pem: ENOENT/,
      );
    });

    it('passes SCRAM credentials from the secrets', () => {
      const config = buildKafkaConfig({ ...base, sasl: { mechanism: 'scram-sha-512', username: 'alice' } }, { password: 'pw' }, { logger: new Lines() });
      assert.deepEqual(config.sasl, { mechanism: 'scram-sha-512', username: 'alice', password: 'pw' });
    });

    it('gets OAuth tokens from the token command on each authentication, else the stored token', async () => {
      const commands: string[] = [];
      const fromCommand = buildKafkaConfig({ ...base, sasl: { mechanism: 'oauthbearer', tokenCommand: 'get-token' } }, {}, {
        logger: new Lines(),
        runCommand: async (c) => {
          commands.push(c);
          return `token-${commands.length}`;
        },
      });
      const provider = oauthProvider(fromCommand.sasl);
      assert.ok(provider);
      assert.deepEqual(await provider(), { value: 'token-1' });
      assert.deepEqual(await provider(), { value: 'token-2' });
      const stored = buildKafkaConfig({ ...base, sasl: { mechanism: 'oauthbearer' } }, { token: 'static' }, { logger: new Lines() });
      assert.deepEqual(await oauthProvider(stored.sasl)?.(), { value: 'static' });
    });
  });

  describe('logging', () => {
    it('redacts secret-named fields and secret values anywhere', () => {
      assert.deepEqual(redact({ message: 'pw is hunter2', nested: { password: 'x', sasl: { user: 'u' }, list: ['hunter2!'] } }, ['hunter2']), {
        message: 'pw is ***',
        nested: { password: '***', sasl: '***', list: ['***!'] },
      });
    });

    it('routes kafkajs levels to the logger without secrets', () => {
      const lines = new Lines();
      const log = createLogCreator(lines, { password: 'hunter2' })?.(logLevel.DEBUG);
      assert.ok(log);
      const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}): LogEntry => ({
        namespace: 'Connection',
        level,
        label: 'X',
        log: { timestamp: 'now', logger: 'kafkajs', message, ...extra },
      });
      log(entry(logLevel.ERROR, 'auth failed for hunter2', { broker: 'b:1', sasl: { password: 'hunter2' } }));
      log(entry(logLevel.WARN, 'w'));
      log(entry(logLevel.INFO, 'i'));
      log(entry(logLevel.DEBUG, 'd'));
      assert.deepEqual(lines.lines, ['error [Connection] auth failed for *** {"broker":"b:1","sasl":"***"}', 'warn [Connection] w', 'info [Connection] i', 'debug [Connection] d']);
    });
  });

  describe('classifyError', () => {
    const sasl: Pick<ConnectionConfig, 'bootstrapServers' | 'sasl'> = { bootstrapServers: ['h:9093'], sasl: { mechanism: 'scram-sha-256', username: 'a' } };

    it('classifies a refused connection wrapped in a retry error', () => {
      const cause = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:1', { broker: '127.0.0.1:1', code: 'ECONNREFUSED' });
      const error = new KafkaJSNumberOfRetriesExceeded(cause, { retryCount: 2, retryTime: 100 });
      assert.deepEqual(classifyError(error), { kind: 'unreachable', message: 'Cannot reach 127.0.0.1:1: connection refused' });
    });

    it('classifies unknown hosts', () => {
      const error = namedError('KafkaJSConnectionError', 'Connection error: getaddrinfo ENOTFOUND nope.invalid', { code: 'ENOTFOUND', broker: 'nope.invalid:9092' });
      assert.deepEqual(classifyError(error), { kind: 'unreachable', message: 'Cannot reach nope.invalid:9092: unknown host' });
    });

    it('classifies TOPIC/GROUP/CLUSTER_AUTHORIZATION_FAILED and SASL authorization refusals as authorization (no automatic retry)', () => {
      const kafkajsType = Object.assign(new Error('Not authorized to access group: Group authorization failed'), { name: 'KafkaJSProtocolError', type: 'GROUP_AUTHORIZATION_FAILED', code: 30 });
      assert.deepEqual(classifyError(kafkajsType, sasl), { kind: 'authorization', message: 'Not authorized: Not authorized to access group: Group authorization failed' });
      const ours = new KafkaErrorCode(31, 'ListGroups on broker 1');
      assert.equal(classifyError(ours, sasl).kind, 'authorization');
      assert.match(classifyError(ours, sasl).message, /^Not authorized: ListGroups on broker 1: CLUSTER_AUTHORIZATION_FAILED/);
      assert.equal(classifyError(new KafkaErrorCode(29, 'Metadata of t')).kind, 'authorization');
      const wrapped = new KafkaJSNumberOfRetriesExceeded(Object.assign(new Error('Topic authorization failed'), { type: 'TOPIC_AUTHORIZATION_FAILED' }), { retryCount: 0, retryTime: 0 });
      assert.equal(classifyError(wrapped).kind, 'authorization');
      const saslAuthz = namedError('KafkaJSSASLAuthenticationError', 'SASL PLAIN authentication failed: Authentication failed: Client requested an authorization id that is different from username');
      assert.equal(classifyError(saslAuthz, sasl).kind, 'authorization');
      assert.equal(classifyError(new KafkaErrorCode(15, 'Describe')).kind, 'other');
    });

    it('classifies wrong SCRAM and PLAIN credentials', () => {
      const scram = namedError('KafkaJSSASLAuthenticationError', 'SASL SCRAM SHA256 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256');
      assert.deepEqual(classifyError(scram, sasl), { kind: 'authentication', message: 'Authentication failed (SASL SCRAM-SHA-256): wrong user name or password' });
      const plain = namedError('KafkaJSSASLAuthenticationError', 'SASL PLAIN authentication failed: Authentication failed: Invalid username or password');
      assert.equal(classifyError(plain, { ...sasl, sasl: { mechanism: 'plain' } }).message, 'Authentication failed (SASL PLAIN): wrong user name or password');
    });

    it('classifies a mechanism the listener does not offer', () => {
      const error = namedError('KafkaJSProtocolError', 'The broker does not support the requested SASL mechanism', { type: 'UNSUPPORTED_SASL_MECHANISM', code: 33 });
      assert.deepEqual(classifyError(error, { ...sasl, sasl: { mechanism: 'oauthbearer' } }), {
        kind: 'authentication',
        message: 'Authentication failed (SASL OAUTHBEARER): the broker does not offer this mechanism on this listener',
      });
    });

    it('classifies TLS against a plaintext listener and certificate errors', () => {
      const reset = namedError('KafkaJSConnectionError', 'Connection error: Client network socket disconnected before secure TLS connection was established', { code: 'ECONNRESET', broker: 'h:9092' });
      const classified = classifyError(reset, { bootstrapServers: ['h:9092'], tls: { enabled: true } });
      assert.equal(classified.kind, 'tls');
      assert.match(classified.message, /^TLS handshake failed: Client network socket disconnected before secure TLS connection was established \(the server closed/);
      const cert = namedError('KafkaJSConnectionError', 'Connection error: self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      assert.deepEqual(classifyError(cert), { kind: 'tls', message: 'TLS handshake failed: self-signed certificate' });
    });

    it('classifies timeouts with a TLS hint when TLS is off', () => {
      const error = new KafkaJSRequestTimeoutError('Request ApiVersions(key: 18, version: 2) timed out', { broker: 'h:9094', correlationId: 0, createdAt: 0, sentAt: 0, pendingDuration: 0 } as never);
      const classified = classifyError(error, { bootstrapServers: ['h:9094'] });
      assert.equal(classified.kind, 'timeout');
      assert.equal(classified.message, 'Timed out talking to h:9094: Request ApiVersions(key: 18, version: 2) timed out (if the listener uses TLS, enable TLS for this connection)');
    });

    it('explains a connection closed by a SASL listener', () => {
      const error = namedError('KafkaJSConnectionClosedError', 'Closed connection', { broker: 'h:9093' });
      assert.deepEqual(classifyError(error, { bootstrapServers: ['h:9093'] }), { kind: 'unreachable', message: 'The broker at h:9093 closed the connection (does this listener require SASL?)' });
    });

    it('keeps anything else as "other" with its message', () => {
      assert.deepEqual(classifyError(new Error('boom')), { kind: 'other', message: 'boom' });
      assert.deepEqual(classifyError('plain string'), { kind: 'other', message: 'plain string' });
    });
  });
});
