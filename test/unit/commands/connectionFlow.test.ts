import { strict as assert } from 'assert';
import { promptConnection, validateBootstrapText, type ConnectionFlowContext } from '../../../src/commands/connectionFlow';
import type { ConnectionConfig } from '../../../src/kafka/connection';
import { ScriptedPrompts, type Answer } from './scriptedPrompts';

const existing: ConnectionConfig[] = [{ id: 'prod', name: 'Production', bootstrapServers: ['p:9092'] }];

function context(overrides: Partial<ConnectionFlowContext> = {}): ConnectionFlowContext {
  return { existing, checkFile: (p) => (p.startsWith('/missing') ? `Cannot read ${p}` : undefined), ...overrides };
}

async function run(answers: Answer[], ctx = context()) {
  const prompts = new ScriptedPrompts(answers);
  return { draft: await promptConnection(prompts, ctx), prompts };
}

describe('connection flow', () => {
  it('adds a plaintext cluster without authentication', async () => {
    const { draft } = await run([{ input: 'Local dev' }, { input: '127.0.0.1:9092, 127.0.0.1:9093' }, { pick: 'Plaintext' }, { pick: 'No authentication' }]);
    assert.deepEqual(draft, { config: { id: 'local-dev', name: 'Local dev', bootstrapServers: ['127.0.0.1:9092', '127.0.0.1:9093'] }, secrets: {} });
  });

  it('adds a TLS + SCRAM cluster and returns the password apart from the settings', async () => {
    const { draft } = await run([
      { input: 'Staging' },
      { input: 'stg:9094' },
      { pick: 'TLS' },
      { input: '/etc/ca.pem' },
      { input: '' },
      { pick: 'Verify the server certificate' },
      { pick: 'SASL SCRAM-SHA-512' },
      { input: 'alice' },
      { input: 's3cret' },
    ]);
    assert.ok(draft);
    assert.deepEqual(draft.config.tls, { enabled: true, caPath: '/etc/ca.pem', certPath: undefined, keyPath: undefined, rejectUnauthorized: true });
    assert.deepEqual(draft.config.sasl, { mechanism: 'scram-sha-512', username: 'alice' });
    assert.equal(JSON.stringify(draft.config).includes('s3cret'), false, 'the password never enters the settings');
    assert.deepEqual(draft.secrets, { password: 's3cret' });
  });

  it('asks for the key and its passphrase with a client certificate', async () => {
    const { draft } = await run([
      { input: 'mtls' },
      { input: 'h:1' },
      { pick: 'TLS' },
      { input: '' },
      { input: '/etc/client.pem' },
      { input: '/etc/client.key' },
      { input: 'pass' },
      { pick: 'Accept any server certificate' },
      { pick: 'No authentication' },
    ]);
    assert.deepEqual(draft?.config.tls, { enabled: true, caPath: undefined, certPath: '/etc/client.pem', keyPath: '/etc/client.key', rejectUnauthorized: false });
    assert.deepEqual(draft?.secrets, { keyPassphrase: 'pass' });
  });

  it('rejects bad names, bootstrap lists and unreadable files', async () => {
    await assert.rejects(run([{ input: 'Production' }]), /A cluster named "Production" already exists/);
    await assert.rejects(run([{ input: 'x' }, { input: 'no-port' }]), /"no-port" is not host:port/);
    await assert.rejects(run([{ input: 'x' }, { input: 'h:1' }, { pick: 'TLS' }, { input: '/missing/ca.pem' }]), /Cannot read \/missing\/ca.pem/);
    await assert.rejects(run([{ input: 'x' }, { input: 'h:1' }, { pick: 'Plaintext' }, { pick: 'SASL PLAIN' }, { input: 'u' }, { input: '' }]), /password must not be empty/);
    assert.equal(validateBootstrapText(''), 'Give at least one bootstrap server (host:port)');
    assert.equal(validateBootstrapText('h:70000'), 'Bootstrap server "h:70000" has port 70000, outside 1..65535');
  });

  it('edits a connection keeping its id and, on an empty password, the stored secret', async () => {
    const editing: ConnectionConfig = { id: 'prod', name: 'Production', bootstrapServers: ['p:9092'], sasl: { mechanism: 'plain', username: 'bob' } };
    const { draft, prompts } = await run(
      [{ input: 'Production Kafka' }, { input: 'P:9092' }, { pick: 'Plaintext' }, { pick: 'SASL PLAIN' }, { input: 'bob' }, { input: '' }],
      context({ editing, hasStoredSecrets: true }),
    );
    assert.equal(draft?.config.id, 'prod');
    assert.deepEqual(draft?.config.bootstrapServers, ['P:9092'], 'the same server in another case: the stored password still applies');
    assert.deepEqual(draft?.secrets, { password: undefined });
    assert.equal(prompts.asked[0].prefilled, 'Production');
  });

  it('asks for the password again when the edit changes the bootstrap servers', async () => {
    const editing: ConnectionConfig = { id: 'prod', name: 'Production', bootstrapServers: ['p:9092'], sasl: { mechanism: 'plain', username: 'bob' } };
    const answers: Answer[] = [{ input: 'Production' }, { input: 'p:9092,q:9092' }, { pick: 'Plaintext' }, { pick: 'SASL PLAIN' }, { input: 'bob' }];
    await assert.rejects(run([...answers, { input: '' }], context({ editing, hasStoredSecrets: true })), /password must not be empty/);
    const { draft } = await run([...answers, { input: 'n3w' }], context({ editing, hasStoredSecrets: true }));
    assert.deepEqual(draft?.secrets, { password: 'n3w' });
  });

  it('takes an OAuth token command, or a static token when there is none', async () => {
    const withCommand = await run([{ input: 'oauth' }, { input: 'h:1' }, { pick: 'Plaintext' }, { pick: 'SASL OAUTHBEARER' }, { input: 'get-token --json' }]);
    assert.deepEqual(withCommand.draft?.config.sasl, { mechanism: 'oauthbearer', tokenCommand: 'get-token --json' });
    const withToken = await run([{ input: 'oauth' }, { input: 'h:1' }, { pick: 'Plaintext' }, { pick: 'SASL OAUTHBEARER' }, { input: '' }, { input: 'tok' }]);
    assert.deepEqual(withToken.draft?.secrets, { token: 'tok' });
  });

  it('stops quietly when the user cancels', async () => {
    assert.equal((await run([{ cancel: true }])).draft, undefined);
    assert.equal((await run([{ input: 'x' }, { input: 'h:1' }, { cancel: true }])).draft, undefined);
  });
});
