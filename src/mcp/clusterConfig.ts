/**
 * The MCP server's real clusters: a JSON file holding what the extension's `kafkaGroupLens.clusters` setting
 * holds (a list of connections, read by the same code), where each secret is named by an environment variable
 * instead (`sasl.passwordEnv`, `sasl.tokenEnv`, `tls.keyPassphraseEnv`). A secret is never read from the file or
 * from the command line, and never logged.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionConfig, Secrets } from '../kafka/connection';
import { readStoredConnections } from '../kafka/connectionSettings';
import { errorMessage } from '../protocol/errors';

export type ConfiguredCluster =
  | { config: ConnectionConfig; secrets: Secrets }
  /** Listed with why it cannot connect (a variable not set, a secret written into the file). */
  | { config: ConnectionConfig; unusable: string };

export interface ClusterConfigFile {
  clusters: ConfiguredCluster[];
  /** Entries that could not be read, one line each. */
  problems: string[];
}

/** Where each secret's variable is named: [block, key naming the variable, the secret, key a secret must not use]. */
const SECRET_FIELDS: ReadonlyArray<readonly ['sasl' | 'tls', string, keyof Secrets]> = [
  ['sasl', 'passwordEnv', 'password'],
  ['sasl', 'tokenEnv', 'token'],
  ['tls', 'keyPassphraseEnv', 'keyPassphrase'],
];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function block(entry: unknown, name: 'sasl' | 'tls'): Record<string, unknown> | undefined {
  const value = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[name] : undefined;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** The secrets of one entry from the variables it names, or why they cannot be had. */
function secretsOf(entry: unknown, env: NodeJS.ProcessEnv): { secrets: Secrets } | { unusable: string } {
  const secrets: Secrets = {};
  for (const [blockName, envKey, secret] of SECRET_FIELDS) {
    const fields = block(entry, blockName);
    if (fields?.[secret] !== undefined) {
      return { unusable: `${blockName}.${secret} is written in the config file, which is not read for secrets; put it in an environment variable and name it in ${blockName}.${envKey}` };
    }
    const variable = fields?.[envKey];
    if (variable === undefined) {
      continue;
    }
    if (typeof variable !== 'string' || !ENV_NAME.test(variable)) {
      return { unusable: `${blockName}.${envKey} must be the name of an environment variable` };
    }
    const value = env[variable];
    if (value === undefined || value === '') {
      return { unusable: `the environment variable ${variable} (${blockName}.${envKey}) is not set` };
    }
    secrets[secret] = value;
  }
  return { secrets };
}

/** The clusters of the file's JSON text; `env` supplies the secrets. */
export function parseClusterConfig(text: string, env: NodeJS.ProcessEnv): ClusterConfigFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`the cluster config is not JSON: ${errorMessage(e)}`);
  }
  if (!Array.isArray(value)) {
    throw new Error('the cluster config must be a JSON list of connections, as the kafkaGroupLens.clusters setting holds');
  }
  const entries: unknown[] = value;
  const { connections, problems } = readStoredConnections(entries);
  const clusters = connections.map((config): ConfiguredCluster => {
    const entry = entries.find((e) => typeof e === 'object' && e !== null && (e as { id?: unknown }).id === config.id);
    return { config, ...secretsOf(entry, env) };
  });
  return { clusters, problems };
}

export function readClusterConfig(path: string, env: NodeJS.ProcessEnv): ClusterConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the cluster config ${path}: ${errorMessage(e)}`);
  }
  return parseClusterConfig(text, env);
}
