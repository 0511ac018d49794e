/**
 * Connection settings for a real cluster, their validation, the kafkajs configuration built from
 * them, and the classification of connection failures into messages a person can act on.
 * Secrets never live in ConnectionConfig: the VS Code layer keeps them in SecretStorage and passes
 * them separately, and nothing here logs them.
 */
import { exec } from 'child_process';
import { readFileSync } from 'fs';
import { logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'tls';
import type { SourceFailureKind } from '../model/sourceFailure';
import { errorCodeOf } from '../protocol/errorCodes';
import { errorMessage } from '../protocol/errors';

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512' | 'oauthbearer';
export const SASL_MECHANISMS: readonly SaslMechanism[] = ['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer'];

export interface TlsSettings {
  enabled: boolean;
  caPath?: string;
  certPath?: string;
  keyPath?: string;
  /** Defaults to true; false accepts any server certificate. */
  rejectUnauthorized?: boolean;
}

export interface SaslSettings {
  mechanism: SaslMechanism;
  /** For plain and SCRAM. */
  username?: string;
  /** For oauthbearer: a shell command printing a bearer token, run on each (re)authentication. */
  tokenCommand?: string;
}

export interface ConnectionConfig {
  id: string;
  name: string;
  /** "host:port" entries. */
  bootstrapServers: string[];
  tls?: TlsSettings;
  sasl?: SaslSettings;
  clientId?: string;
}

export interface Secrets {
  /** SASL password (plain, SCRAM). */
  password?: string;
  /** Static OAuth bearer token, used when no tokenCommand is set. */
  token?: string;
  /** Passphrase of the TLS private key. */
  keyPassphrase?: string;
}

export interface KafkaLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Bounded so that a dead or frozen broker fails a load within seconds instead of kafkajs's ~30 s
 * default. No retry inside kafkajs: one load costs one connection attempt (and one SASL login) per
 * broker it contacts; the views retry with backoff, and never after a failed login.
 */
export const CONNECTION_TIMEOUTS = {
  connectionTimeout: 3000,
  authenticationTimeout: 5000,
  requestTimeout: 10000,
  retry: { retries: 0 },
} as const;

const TOKEN_COMMAND_TIMEOUT_MS = 15000;

export class ConnectionConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `Invalid connection settings:\n- ${problems.join('\n- ')}`);
    this.name = 'ConnectionConfigError';
  }
}

/** Splits "a:9092, b:9092" into entries. */
export function parseBootstrapServers(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function bootstrapProblem(entry: string): string | null {
  const match = /^(\[[^\]]+\]|[^:\s]+):(\d+)$/.exec(entry);
  if (!match) {
    return `Bootstrap server "${entry}" is not host:port`;
  }
  const port = Number(match[2]);
  if (port < 1 || port > 65535) {
    return `Bootstrap server "${entry}" has port ${port}, outside 1..65535`;
  }
  return null;
}

/** Every problem with the settings, or [] when they can be used. */
export function connectionConfigProblems(config: ConnectionConfig, secrets: Secrets): string[] {
  const problems: string[] = [];
  if (!config.id.trim()) {
    problems.push('The connection needs an id');
  }
  if (!config.name.trim()) {
    problems.push('The connection needs a name');
  }
  if (config.bootstrapServers.length === 0) {
    problems.push('Give at least one bootstrap server (host:port)');
  }
  for (const entry of config.bootstrapServers) {
    const problem = bootstrapProblem(entry);
    if (problem) {
      problems.push(problem);
    }
  }
  const tls = config.tls;
  if (tls?.enabled && Boolean(tls.certPath) !== Boolean(tls.keyPath)) {
    problems.push('A TLS client certificate needs both a certificate file and a key file');
  }
  const sasl = config.sasl;
  if (sasl) {
    if (!SASL_MECHANISMS.includes(sasl.mechanism)) {
      problems.push(`Unknown SASL mechanism "${sasl.mechanism}" (use one of ${SASL_MECHANISMS.join(', ')})`);
    } else if (sasl.mechanism === 'oauthbearer') {
      if (!sasl.tokenCommand?.trim() && !secrets.token) {
        problems.push('SASL OAUTHBEARER needs a token command or a stored token');
      }
    } else {
      if (!sasl.username?.trim()) {
        problems.push(`SASL ${sasl.mechanism.toUpperCase()} needs a user name`);
      }
      if (!secrets.password) {
        problems.push(`SASL ${sasl.mechanism.toUpperCase()} needs a password`);
      }
    }
  }
  return problems;
}

export function validateConnectionConfig(config: ConnectionConfig, secrets: Secrets): void {
  const problems = connectionConfigProblems(config, secrets);
  if (problems.length > 0) {
    throw new ConnectionConfigError(problems);
  }
}

export interface BuildOptions {
  logger: KafkaLogger;
  /** Injected for tests; defaults to fs.readFileSync. */
  readFile?: (path: string) => Buffer;
  /** Injected for tests; defaults to running the command in the platform shell. */
  runCommand?: (command: string) => Promise<string>;
}

function readTlsFile(readFile: (path: string) => Buffer, path: string, what: string): Buffer {
  try {
    return readFile(path);
  } catch (e) {
    throw new ConnectionConfigError([`Cannot read the TLS ${what} file ${path}: ${errorMessage(e)}`]);
  }
}

function tlsOptions(tls: TlsSettings, secrets: Secrets, readFile: (path: string) => Buffer): ConnectionOptions {
  const options: ConnectionOptions = { rejectUnauthorized: tls.rejectUnauthorized ?? true };
  if (tls.caPath) {
    options.ca = [readTlsFile(readFile, tls.caPath, 'CA')];
  }
  if (tls.certPath && tls.keyPath) {
    options.cert = readTlsFile(readFile, tls.certPath, 'certificate');
    options.key = readTlsFile(readFile, tls.keyPath, 'key');
    if (secrets.keyPassphrase) {
      options.passphrase = secrets.keyPassphrase;
    }
  }
  return options;
}

export function runShellCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    exec(command, { timeout: TOKEN_COMMAND_TIMEOUT_MS, windowsHide: true }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`The OAuth token command failed: ${stderr.trim() || error.message}`));
        return;
      }
      const token = stdout.trim();
      if (!token) {
        reject(new Error('The OAuth token command printed no token'));
        return;
      }
      resolve(token);
    });
  });
}

function saslOptions(sasl: SaslSettings, secrets: Secrets, runCommand: (command: string) => Promise<string>): SASLOptions {
  switch (sasl.mechanism) {
    case 'plain':
    case 'scram-sha-256':
    case 'scram-sha-512':
      return { mechanism: sasl.mechanism, username: sasl.username ?? '', password: secrets.password ?? '' };
    case 'oauthbearer': {
      const command = sasl.tokenCommand?.trim();
      const token = secrets.token ?? '';
      return {
        mechanism: 'oauthbearer',
        oauthBearerProvider: async () => ({ value: command ? await runCommand(command) : token }),
      };
    }
  }
}

const SECRET_KEY_PATTERN = /password|secret|token|passphrase|sasl|ssl|^key$|authorization|credential/i;

/** Removes secret-looking fields and any occurrence of a known secret value. */
export function redact(value: unknown, secretValues: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') {
    return secretValues.reduce((text, secret) => (secret ? text.split(secret).join('***') : text), value);
  }
  if (depth > 4 || value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((v) => redact(v, secretValues, depth + 1));
  }
  if (Buffer.isBuffer(value)) {
    return `<${value.length} bytes>`;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY_PATTERN.test(key) ? '***' : redact(v, secretValues, depth + 1);
  }
  return out;
}

/** A kafkajs logCreator that forwards to our logger with secrets removed. */
export function createLogCreator(logger: KafkaLogger, secrets: Secrets): KafkaConfig['logCreator'] {
  const secretValues = [secrets.password, secrets.token, secrets.keyPassphrase].filter((s): s is string => Boolean(s));
  return () => (entry: LogEntry) => {
    const { message, timestamp: _timestamp, logger: _logger, ...extra } = entry.log;
    const details = Object.keys(extra).length > 0 ? ` ${JSON.stringify(redact(extra, secretValues))}` : '';
    const line = `[${entry.namespace}] ${String(redact(message, secretValues))}${details}`;
    switch (entry.level) {
      case logLevel.ERROR:
        logger.error(line);
        break;
      case logLevel.WARN:
        logger.warn(line);
        break;
      case logLevel.INFO:
        logger.info(line);
        break;
      default:
        logger.debug(line);
    }
  };
}

/** Validates the settings and builds the kafkajs client configuration. */
export function buildKafkaConfig(config: ConnectionConfig, secrets: Secrets, options: BuildOptions): KafkaConfig {
  validateConnectionConfig(config, secrets);
  const readFile = options.readFile ?? ((path: string) => readFileSync(path));
  const kafkaConfig: KafkaConfig = {
    clientId: config.clientId ?? 'kafka-group-lens',
    brokers: [...config.bootstrapServers],
    connectionTimeout: CONNECTION_TIMEOUTS.connectionTimeout,
    authenticationTimeout: CONNECTION_TIMEOUTS.authenticationTimeout,
    requestTimeout: CONNECTION_TIMEOUTS.requestTimeout,
    retry: { ...CONNECTION_TIMEOUTS.retry },
    logLevel: logLevel.INFO,
    logCreator: createLogCreator(options.logger, secrets),
  };
  if (config.tls?.enabled) {
    kafkaConfig.ssl = tlsOptions(config.tls, secrets, readFile);
  }
  if (config.sasl) {
    kafkaConfig.sasl = saslOptions(config.sasl, secrets, options.runCommand ?? runShellCommand);
  }
  return kafkaConfig;
}

export type ConnectionErrorKind = SourceFailureKind;

export interface ClassifiedError {
  kind: ConnectionErrorKind;
  message: string;
}

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string | number;
  type?: string;
  broker?: string;
  cause?: unknown;
  originalError?: unknown;
}

/** The error and everything it wraps (kafkajs retry errors wrap the real cause). */
function errorChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 10 && !chain.includes(current)) {
    const e = current as ErrorLike;
    chain.push(e);
    current = e.cause ?? e.originalError;
  }
  return chain;
}

const UNREACHABLE_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset by the server',
};

/** Kafka's TOPIC_, GROUP_, CLUSTER_ and TRANSACTIONAL_ID_AUTHORIZATION_FAILED, by kafkajs type and by code. */
const AUTHORIZATION_TYPES: ReadonlySet<string> = new Set(['TOPIC_AUTHORIZATION_FAILED', 'GROUP_AUTHORIZATION_FAILED', 'CLUSTER_AUTHORIZATION_FAILED', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED']);
const AUTHORIZATION_CODES: ReadonlySet<number> = new Set([...AUTHORIZATION_TYPES].map(errorCodeOf));

const TLS_CODE_PATTERN = /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;
const TLS_MESSAGE_PATTERN = /secure TLS connection|SSL routines|wrong version number|certificate|handshake/i;

function addressIn(e: ErrorLike, fallback: string): string {
  if (e.broker) {
    return e.broker;
  }
  const match = /(\d{1,3}(?:\.\d{1,3}){3}:\d+|\[[0-9a-f:]+\]:\d+)/i.exec(e.message ?? '');
  return match ? match[1] : fallback;
}

function stripPrefix(message: string): string {
  return message.replace(/^(Connection error|Failed to connect):\s*/i, '');
}

/** Maps a kafkajs (or Node socket/TLS) failure to a kind and a human message. */
export function classifyError(error: unknown, config?: Pick<ConnectionConfig, 'bootstrapServers' | 'tls' | 'sasl'>): ClassifiedError {
  const chain = errorChain(error);
  const fallbackAddress = config?.bootstrapServers.join(', ') ?? 'the broker';
  const mechanism = config?.sasl?.mechanism.toUpperCase() ?? 'SASL';

  const authorization = chain.find((e) => (typeof e.type === 'string' && AUTHORIZATION_TYPES.has(e.type)) || (typeof e.code === 'number' && AUTHORIZATION_CODES.has(e.code)));
  if (authorization) {
    return { kind: 'authorization', message: `Not authorized: ${authorization.message ?? 'the broker refused the request'}` };
  }

  const auth = chain.find((e) => e.name === 'KafkaJSSASLAuthenticationError' || e.type === 'SASL_AUTHENTICATION_FAILED' || e.type === 'UNSUPPORTED_SASL_MECHANISM' || e.type === 'ILLEGAL_SASL_STATE');
  if (auth) {
    const text = auth.message ?? '';
    if (/not authorized|authorization (failed|denied)|authorization id/i.test(text)) {
      return { kind: 'authorization', message: `Not authorized (SASL ${mechanism}): ${text}` };
    }
    if (auth.type === 'UNSUPPORTED_SASL_MECHANISM' || /unsupported sasl mechanism|not enabled/i.test(text)) {
      return { kind: 'authentication', message: `Authentication failed (SASL ${mechanism}): the broker does not offer this mechanism on this listener` };
    }
    if (/invalid credentials|invalid username or password|authentication failed/i.test(text)) {
      return { kind: 'authentication', message: `Authentication failed (SASL ${mechanism}): wrong user name or password` };
    }
    return { kind: 'authentication', message: `Authentication failed (SASL ${mechanism}): ${text}` };
  }

  const tls = chain.find((e) => (typeof e.code === 'string' && TLS_CODE_PATTERN.test(e.code)) || TLS_MESSAGE_PATTERN.test(e.message ?? ''));
  if (tls) {
    const reason = stripPrefix(tls.message ?? 'unknown reason');
    const hint = /before secure TLS connection/i.test(reason)
      ? ' (the server closed the connection during the handshake: is this listener PLAINTEXT or SASL_PLAINTEXT rather than TLS?)'
      : '';
    return { kind: 'tls', message: `TLS handshake failed: ${reason}${hint}` };
  }

  const unreachable = chain.find((e) => typeof e.code === 'string' && e.code in UNREACHABLE_CODES);
  if (unreachable) {
    const address = addressIn(unreachable, fallbackAddress);
    const tlsHint = unreachable.code === 'ECONNRESET' && !config?.tls?.enabled ? ' (does this listener require TLS?)' : '';
    return { kind: 'unreachable', message: `Cannot reach ${address}: ${UNREACHABLE_CODES[unreachable.code as string]}${tlsHint}` };
  }

  const timeout = chain.find((e) => e.name === 'KafkaJSRequestTimeoutError' || e.name === 'KafkaJSTimeout' || e.name === 'KafkaJSLockTimeout' || /timeout|timed out/i.test(e.message ?? '') || e.code === 'ETIMEDOUT');
  if (timeout) {
    const address = addressIn(timeout, fallbackAddress);
    const hint = config?.tls?.enabled ? '' : ' (if the listener uses TLS, enable TLS for this connection)';
    return { kind: 'timeout', message: `Timed out talking to ${address}: ${stripPrefix(timeout.message ?? 'no answer')}${hint}` };
  }

  const closed = chain.find((e) => e.name === 'KafkaJSConnectionClosedError' || /closed/i.test(e.message ?? ''));
  if (closed) {
    const hint = config?.sasl ? '' : ' (does this listener require SASL?)';
    return { kind: 'unreachable', message: `The broker at ${addressIn(closed, fallbackAddress)} closed the connection${hint}` };
  }

  const connection = chain.find((e) => e.name === 'KafkaJSConnectionError');
  if (connection) {
    return { kind: 'unreachable', message: `Cannot reach ${addressIn(connection, fallbackAddress)}: ${stripPrefix(connection.message ?? 'connection failed')}` };
  }

  const first = chain[0];
  const message = first?.message ?? String(error);
  return { kind: 'other', message };
}
