/**
 * The client properties file that Apache Kafka's CLI tools read with `--command-config`, for a
 * connection that needs one (TLS, SASL). Secrets are never written: where the CLI needs a password
 * the file holds a placeholder line the user fills in.
 */
import type { ConnectionConfig, SaslMechanism } from './connection';

export const PASSWORD_PLACEHOLDER = '<password>';

const LOGIN_MODULES: Record<SaslMechanism, string> = {
  plain: 'org.apache.kafka.common.security.plain.PlainLoginModule',
  'scram-sha-256': 'org.apache.kafka.common.security.scram.ScramLoginModule',
  'scram-sha-512': 'org.apache.kafka.common.security.scram.ScramLoginModule',
  oauthbearer: 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule',
};

/** True when the CLI cannot reach the cluster without a --command-config file. */
export function needsCommandConfig(config: ConnectionConfig): boolean {
  return config.tls?.enabled === true || config.sasl !== undefined;
}

/** The properties text, or undefined when the connection is plain (no TLS, no SASL). */
export function commandConfigProperties(config: ConnectionConfig): string | undefined {
  if (!needsCommandConfig(config)) {
    return undefined;
  }
  const tls = config.tls?.enabled === true ? config.tls : undefined;
  const sasl = config.sasl;
  const lines = [
    `# Client properties for the Kafka CLI tools (--command-config), cluster "${singleLine(config.name)}".`,
    '# Written by Kafka Group Lens without secrets: fill in the placeholders.',
    `security.protocol=${sasl ? (tls ? 'SASL_SSL' : 'SASL_PLAINTEXT') : 'SSL'}`,
  ];
  if (sasl) {
    lines.push(`sasl.mechanism=${sasl.mechanism.toUpperCase()}`);
    if (sasl.mechanism === 'oauthbearer') {
      lines.push(
        '# The CLI fetches its own token: set the endpoint (and client credentials) of your identity provider.',
        'sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler',
        'sasl.oauthbearer.token.endpoint.url=<token endpoint URL>',
        property('sasl.jaas.config', `${LOGIN_MODULES.oauthbearer} required clientId="<client id>" clientSecret="<client secret>";`),
      );
    } else {
      lines.push(property('sasl.jaas.config', `${LOGIN_MODULES[sasl.mechanism]} required username=${jaasString(sasl.username ?? '')} password="${PASSWORD_PLACEHOLDER}";`));
    }
  }
  if (tls) {
    if (tls.caPath) {
      lines.push('ssl.truststore.type=PEM', property('ssl.truststore.location', tls.caPath));
    }
    if (tls.certPath && tls.keyPath) {
      lines.push(
        '# A PEM keystore is one file holding the private key and then the certificate chain:',
        `#   cat ${singleLine(tls.keyPath)} ${singleLine(tls.certPath)} > client.pem`,
        'ssl.keystore.type=PEM',
        'ssl.keystore.location=client.pem',
        '# Only when the key is encrypted:',
        `# ssl.key.password=${PASSWORD_PLACEHOLDER}`,
      );
    }
    if (tls.rejectUnauthorized === false) {
      lines.push(
        '# This connection skips certificate checks; the Java tools cannot. Host-name checking is off here,',
        '# but the server certificate must still chain to the truststore above.',
        'ssl.endpoint.identification.algorithm=',
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A file name for the properties of a connection: its name with characters no file system accepts replaced. */
export function commandConfigFileName(config: ConnectionConfig): string {
  const safe = [...config.name].map((ch) => (ch < ' ' || ' \\/:*?"<>|'.includes(ch) ? '-' : ch)).join('').slice(0, 80);
  return `${safe || 'cluster'}.properties`;
}

/** `key=value` in java.util.Properties syntax: backslashes doubled, line breaks escaped. */
function property(key: string, value: string): string {
  return `${key}=${value.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n')}`;
}

/** A JAAS option value: double-quoted, with quotes and backslashes escaped. */
function jaasString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Text for a comment line: a name with a line break must not end the comment. */
function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}
