import { strict as assert } from 'node:assert';
import { commandConfigFileName, commandConfigProperties, needsCommandConfig, PASSWORD_PLACEHOLDER } from '../../../src/kafka/commandConfig';
import type { ConnectionConfig } from '../../../src/kafka/connection';

const base: ConnectionConfig = { id: 'c1', name: 'Production', bootstrapServers: ['kafka-1:9093'] };

/** The non-comment lines as java.util.Properties reads them (values un-escaped). */
function parse(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    const at = line.indexOf('=');
    entries.set(line.slice(0, at), line.slice(at + 1).replace(/\\(.)/g, (_, ch: string) => (ch === 'n' ? '\n' : ch === 'r' ? '\r' : ch)));
  }
  return entries;
}

describe('kafka/commandConfig', () => {
  it('needs no file for a plain connection', () => {
    assert.equal(needsCommandConfig(base), false);
    assert.equal(commandConfigProperties(base), undefined);
    assert.equal(commandConfigProperties({ ...base, tls: { enabled: false, caPath: '/ca.pem' } }), undefined);
  });

  it('writes SASL over TLS with a PEM truststore and keystore, and never a secret', () => {
    const text = commandConfigProperties({
      ...base,
      tls: { enabled: true, caPath: '/etc/kafka/ca.pem', certPath: '/etc/kafka/client.crt', keyPath: '/etc/kafka/client.key', rejectUnauthorized: false },
      sasl: { mechanism: 'scram-sha-256', username: 'alice' },
    });
    assert.ok(text);
    const properties = parse(text);
    assert.equal(properties.get('security.protocol'), 'SASL_SSL');
    assert.equal(properties.get('sasl.mechanism'), 'SCRAM-SHA-256');
    assert.equal(properties.get('sasl.jaas.config'), `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="${PASSWORD_PLACEHOLDER}";`);
    assert.equal(properties.get('ssl.truststore.type'), 'PEM');
    assert.equal(properties.get('ssl.truststore.location'), '/etc/kafka/ca.pem');
    assert.equal(properties.get('ssl.keystore.type'), 'PEM');
    assert.equal(properties.get('ssl.endpoint.identification.algorithm'), '');
    assert.match(text, /cat \/etc\/kafka\/client\.key \/etc\/kafka\/client\.crt > client\.pem/);
  });

  it('picks the security protocol from TLS and SASL', () => {
    const protocol = (config: ConnectionConfig): string | undefined => parse(commandConfigProperties(config) ?? '').get('security.protocol');
    assert.equal(protocol({ ...base, tls: { enabled: true } }), 'SSL');
    assert.equal(protocol({ ...base, sasl: { mechanism: 'plain', username: 'u' } }), 'SASL_PLAINTEXT');
    assert.equal(parse(commandConfigProperties({ ...base, sasl: { mechanism: 'plain', username: 'u' } }) ?? '').get('sasl.mechanism'), 'PLAIN');
  });

  it('escapes a user name for JAAS and for the properties format, and keeps a hostile cluster name inside its comment', () => {
    const text = commandConfigProperties({ ...base, name: 'evil\nsecurity.protocol=PLAINTEXT', sasl: { mechanism: 'scram-sha-512', username: 'a"b\\c' } });
    assert.ok(text);
    const properties = parse(text);
    assert.equal(properties.get('sasl.jaas.config'), `org.apache.kafka.common.security.scram.ScramLoginModule required username="a\\"b\\\\c" password="${PASSWORD_PLACEHOLDER}";`);
    assert.equal(properties.get('security.protocol'), 'SASL_PLAINTEXT', 'the name did not add a line');
    assert.equal(text.split('\n').filter((line) => line.startsWith('security.protocol=')).length, 1);
  });

  it('sets up OAUTHBEARER for the CLI to fetch its own token', () => {
    const properties = parse(commandConfigProperties({ ...base, sasl: { mechanism: 'oauthbearer', tokenCommand: 'get-token' } }) ?? '');
    assert.equal(properties.get('sasl.mechanism'), 'OAUTHBEARER');
    assert.equal(properties.get('sasl.login.callback.handler.class'), 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler');
    assert.match(properties.get('sasl.jaas.config') ?? '', /^org\.apache\.kafka\.common\.security\.oauthbearer\.OAuthBearerLoginModule required /);
    assert.ok(![...properties.values()].some((value) => value.includes('get-token')), 'the token command is not a CLI setting');
  });

  it('names the file after the cluster, safely', () => {
    assert.equal(commandConfigFileName(base), 'Production.properties');
    assert.equal(commandConfigFileName({ ...base, name: 'a/b: c*?' }), 'a-b--c--.properties');
    assert.equal(commandConfigFileName({ ...base, name: '' }), 'cluster.properties');
  });
});
