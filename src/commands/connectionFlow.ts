/**
 * The questions behind "Add Cluster…" and "Edit Cluster…", on the `Prompts` seam so the flow is
 * tested in plain Node. Secrets are asked for with a password box and returned apart from the
 * settings; on edit, an empty password keeps the stored one.
 */
import { connectionConfigProblems, parseBootstrapServers, type ConnectionConfig, type SaslMechanism, type Secrets } from '../kafka/connection';
import { newConnectionId } from '../kafka/connectionSettings';
import { sameServers } from '../sources/bootstrapServers';
import type { InputOptions, Prompts } from './simulatorPrompts';

export interface ConnectionDraft {
  config: ConnectionConfig;
  /** Secrets to store; a field left undefined keeps what is stored (on edit) or stays unset. */
  secrets: Secrets;
}

export interface ConnectionFlowContext {
  existing: readonly ConnectionConfig[];
  /** The connection being edited, when editing. */
  editing?: ConnectionConfig;
  /** Whether secrets are already stored for the connection being edited (for its current bootstrap servers). */
  hasStoredSecrets?: boolean;
  /** Checks that a file exists and can be read; returns an error message or undefined. */
  checkFile(path: string): string | undefined;
}

type Security = 'none' | SaslMechanism;

const SECURITY_LABELS: Record<Security, string> = {
  none: 'No authentication',
  plain: 'SASL PLAIN',
  'scram-sha-256': 'SASL SCRAM-SHA-256',
  'scram-sha-512': 'SASL SCRAM-SHA-512',
  oauthbearer: 'SASL OAUTHBEARER',
};

const TITLE = 'Kafka cluster connection';

export function validateBootstrapText(text: string): string | undefined {
  const servers = parseBootstrapServers(text);
  const problems = connectionConfigProblems({ id: 'x', name: 'x', bootstrapServers: servers }, {});
  return problems[0];
}

function secretInput(options: InputOptions): InputOptions {
  return { ...options, password: true };
}

async function askOptionalFile(prompts: Prompts, ctx: ConnectionFlowContext, prompt: string, value: string | undefined): Promise<string | undefined | null> {
  const text = await prompts.input({
    title: TITLE,
    prompt: `${prompt} (leave empty for none)`,
    value: value ?? '',
    validate: (t) => (t.trim() === '' ? undefined : ctx.checkFile(t.trim())),
  });
  if (text === undefined) {
    return null;
  }
  return text.trim() || undefined;
}

/** Runs the flow; undefined when the user cancels at any step. */
export async function promptConnection(prompts: Prompts, ctx: ConnectionFlowContext): Promise<ConnectionDraft | undefined> {
  const editing = ctx.editing;
  const otherNames = new Set(ctx.existing.filter((c) => c.id !== editing?.id).map((c) => c.name));
  const name = await prompts.input({
    title: TITLE,
    prompt: 'Name shown in the tree',
    value: editing?.name ?? '',
    validate: (t) => (t.trim() === '' ? 'The name must not be empty' : otherNames.has(t.trim()) ? `A cluster named "${t.trim()}" already exists` : undefined),
  });
  if (name === undefined) {
    return undefined;
  }
  const bootstrap = await prompts.input({
    title: TITLE,
    prompt: 'Bootstrap servers, host:port, separated by commas',
    placeholder: 'broker1:9092,broker2:9092',
    value: editing?.bootstrapServers.join(',') ?? '',
    validate: validateBootstrapText,
  });
  if (bootstrap === undefined) {
    return undefined;
  }
  const config: ConnectionConfig = {
    id: editing?.id ?? newConnectionId(name.trim(), ctx.existing),
    name: name.trim(),
    bootstrapServers: parseBootstrapServers(bootstrap),
  };
  if (editing?.clientId) {
    config.clientId = editing.clientId;
  }
  const secrets: Secrets = {};
  // Stored secrets stay with the servers they were entered for: new servers ask for them again.
  const canKeepSecrets = Boolean(editing && ctx.hasStoredSecrets && sameServers(editing.bootstrapServers, config.bootstrapServers));

  const useTls = await prompts.pickOne(
    [
      { label: 'Plaintext', value: false, picked: editing?.tls?.enabled !== true },
      { label: 'TLS', description: 'encrypted connection', value: true, picked: editing?.tls?.enabled === true },
    ],
    { title: TITLE, placeholder: 'Transport' },
  );
  if (useTls === undefined) {
    return undefined;
  }
  if (useTls) {
    const caPath = await askOptionalFile(prompts, ctx, 'CA certificate file (PEM); empty uses the system CAs', editing?.tls?.caPath);
    if (caPath === null) {
      return undefined;
    }
    const certPath = await askOptionalFile(prompts, ctx, 'Client certificate file (PEM) for mutual TLS', editing?.tls?.certPath);
    if (certPath === null) {
      return undefined;
    }
    let keyPath: string | undefined;
    if (certPath) {
      const key = await prompts.input({
        title: TITLE,
        prompt: 'Client private key file (PEM)',
        value: editing?.tls?.keyPath ?? '',
        validate: (t) => (t.trim() === '' ? 'A client certificate needs its key file' : ctx.checkFile(t.trim())),
      });
      if (key === undefined) {
        return undefined;
      }
      keyPath = key.trim();
      const passphrase = await prompts.input(
        secretInput({ title: TITLE, prompt: `Key passphrase (leave empty if the key has none${canKeepSecrets ? ', or to keep the stored one' : ''})`, validate: () => undefined }),
      );
      if (passphrase === undefined) {
        return undefined;
      }
      secrets.keyPassphrase = passphrase || undefined;
    }
    const verify = await prompts.pickOne(
      [
        { label: 'Verify the server certificate', value: true },
        { label: 'Accept any server certificate', description: 'insecure; for test clusters only', value: false },
      ],
      { title: TITLE, placeholder: 'Server certificate' },
    );
    if (verify === undefined) {
      return undefined;
    }
    config.tls = { enabled: true, caPath, certPath, keyPath, rejectUnauthorized: verify };
  }

  const securityItems = (Object.keys(SECURITY_LABELS) as Security[]).map((s) => ({
    label: SECURITY_LABELS[s],
    value: s,
    picked: (editing?.sasl?.mechanism ?? 'none') === s,
  }));
  const security = await prompts.pickOne(securityItems, { title: TITLE, placeholder: 'Authentication' });
  if (security === undefined) {
    return undefined;
  }
  const keepHint = canKeepSecrets ? ' (leave empty to keep the stored one)' : '';
  if (security === 'oauthbearer') {
    const tokenCommand = await prompts.input({
      title: TITLE,
      prompt: 'Command that prints a bearer token (leave empty to enter a static token instead)',
      value: editing?.sasl?.tokenCommand ?? '',
      validate: () => undefined,
    });
    if (tokenCommand === undefined) {
      return undefined;
    }
    config.sasl = { mechanism: 'oauthbearer', tokenCommand: tokenCommand.trim() || undefined };
    if (!tokenCommand.trim()) {
      const canKeep = canKeepSecrets;
      const token = await prompts.input(
        secretInput({ title: TITLE, prompt: `Bearer token${keepHint}`, validate: (t) => (t === '' && !canKeep ? 'Give a token or a token command' : undefined) }),
      );
      if (token === undefined) {
        return undefined;
      }
      secrets.token = token || undefined;
    }
  } else if (security !== 'none') {
    const username = await prompts.input({
      title: TITLE,
      prompt: `${SECURITY_LABELS[security]} user name`,
      value: editing?.sasl?.username ?? '',
      validate: (t) => (t.trim() === '' ? 'The user name must not be empty' : undefined),
    });
    if (username === undefined) {
      return undefined;
    }
    const canKeep = canKeepSecrets && Boolean(editing?.sasl);
    const password = await prompts.input(
      secretInput({ title: TITLE, prompt: `Password${canKeep ? keepHint : ''}`, validate: (t) => (t === '' && !canKeep ? 'The password must not be empty' : undefined) }),
    );
    if (password === undefined) {
      return undefined;
    }
    config.sasl = { mechanism: security, username: username.trim() };
    secrets.password = password || undefined;
  }
  return { config, secrets };
}
