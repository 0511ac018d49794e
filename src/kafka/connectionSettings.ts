/**
 * Reads the `kafkaGroupLens.clusters` setting: the non-secret part of each connection. Secrets are
 * kept apart (the editor's SecretStorage) and never appear in this shape.
 */
import { parseBootstrapServers, SASL_MECHANISMS, type ConnectionConfig, type SaslMechanism } from './connection';

export interface StoredConnections {
  connections: ConnectionConfig[];
  /** One line per entry that could not be read, naming its index and what is wrong. */
  problems: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(entry: Json, key: string, where: string, problems: string[]): string | undefined {
  const value = entry[key];
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push(`${where}.${key} must be a string`);
    return undefined;
  }
  return value;
}

function readBootstrap(entry: Json, where: string, problems: string[]): string[] {
  const value = entry.bootstrapServers;
  if (typeof value === 'string') {
    return parseBootstrapServers(value);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return value.flatMap((v: string) => parseBootstrapServers(v));
  }
  problems.push(`${where}.bootstrapServers must be a "host:port" string or a list of them`);
  return [];
}

function readEntry(entry: unknown, index: number, seenIds: Set<string>): { config?: ConnectionConfig; problems: string[] } {
  const where = `kafkaGroupLens.clusters[${index}]`;
  const problems: string[] = [];
  if (!isObject(entry)) {
    return { problems: [`${where} must be an object`] };
  }
  const id = optionalString(entry, 'id', where, problems);
  const name = optionalString(entry, 'name', where, problems);
  if (!id) {
    problems.push(`${where}.id is missing`);
  } else if (seenIds.has(id)) {
    problems.push(`${where}.id "${id}" is used by an earlier entry`);
  }
  const bootstrapServers = readBootstrap(entry, where, problems);
  const config: ConnectionConfig = { id: id ?? '', name: name ?? id ?? '', bootstrapServers };
  const clientId = optionalString(entry, 'clientId', where, problems);
  if (clientId) {
    config.clientId = clientId;
  }
  if (entry.tls !== undefined) {
    if (!isObject(entry.tls)) {
      problems.push(`${where}.tls must be an object`);
    } else {
      const tls = entry.tls;
      config.tls = {
        enabled: tls.enabled !== false,
        caPath: optionalString(tls, 'caPath', `${where}.tls`, problems),
        certPath: optionalString(tls, 'certPath', `${where}.tls`, problems),
        keyPath: optionalString(tls, 'keyPath', `${where}.tls`, problems),
        rejectUnauthorized: tls.rejectUnauthorized !== false,
      };
    }
  }
  if (entry.sasl !== undefined) {
    if (!isObject(entry.sasl)) {
      problems.push(`${where}.sasl must be an object`);
    } else {
      const mechanism = entry.sasl.mechanism;
      if (typeof mechanism !== 'string' || !SASL_MECHANISMS.includes(mechanism as SaslMechanism)) {
        problems.push(`${where}.sasl.mechanism must be one of ${SASL_MECHANISMS.join(', ')}`);
      } else {
        config.sasl = {
          mechanism: mechanism as SaslMechanism,
          username: optionalString(entry.sasl, 'username', `${where}.sasl`, problems),
          tokenCommand: optionalString(entry.sasl, 'tokenCommand', `${where}.sasl`, problems),
        };
      }
    }
  }
  if (problems.length > 0) {
    return { problems };
  }
  seenIds.add(config.id);
  return { config, problems };
}

/** Every readable connection; unreadable entries are reported, never silently dropped. */
export function readStoredConnections(setting: unknown): StoredConnections {
  if (setting === undefined || setting === null) {
    return { connections: [], problems: [] };
  }
  if (!Array.isArray(setting)) {
    return { connections: [], problems: ['kafkaGroupLens.clusters must be a list of connections'] };
  }
  const seenIds = new Set<string>();
  const connections: ConnectionConfig[] = [];
  const problems: string[] = [];
  setting.forEach((entry, index) => {
    const read = readEntry(entry, index, seenIds);
    if (read.config) {
      connections.push(read.config);
    }
    problems.push(...read.problems);
  });
  return { connections, problems };
}

/** The setting's form of a connection: drops empty optional fields so settings.json stays tidy. */
export function toStoredConnection(config: ConnectionConfig): Json {
  return JSON.parse(JSON.stringify(config)) as Json;
}

/** A fresh id that no existing connection uses, derived from the name so settings.json reads well. */
export function newConnectionId(name: string, existing: readonly ConnectionConfig[]): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'cluster';
  const taken = new Set(existing.map((c) => c.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) {
    id = `${base}-${n}`;
  }
  return id;
}
