/**
 * Where connections live: the non-secret part in the `kafkaGroupLens.clusters` user setting, the
 * secrets in VS Code's SecretStorage under one key per connection. Nothing here logs a secret.
 *
 * Trust boundaries:
 * - Connections are read from the user (or remote machine) value of the setting only, never from a
 *   workspace or folder value: a cloned repository's `.vscode/settings.json` could otherwise add a
 *   cluster whose OAUTHBEARER token command runs on the first load (the manifest also scopes the
 *   setting to `machine` and lists it in `restrictedConfigurations`).
 * - Secrets are stored with the bootstrap servers they were entered for, and apply only to a connection
 *   with the same servers: an entry that takes a saved cluster's id but names another host does not
 *   receive its password.
 */
import * as vscode from 'vscode';
import type { ConnectionConfig, Secrets } from '../kafka/connection';
import { sameServers, serverSet } from './bootstrapServers';
import { readStoredConnections, toStoredConnection, type StoredConnections } from '../kafka/connectionSettings';
import { SETTINGS } from '../constants';

const SECRET_KEY_PREFIX = 'kafkaGroupLens.connection.';

/** What SecretStorage holds per connection. */
interface SecretEnvelope {
  /** The bootstrap servers the secrets were entered for, normalised (see serverSet). */
  servers: string[];
  secrets: Secrets;
}

export interface StoredSecrets {
  /** The secrets that apply to the connection; empty when none do. */
  secrets: Secrets;
  /** Set when secrets are stored for other bootstrap servers (those servers): they were withheld. */
  savedFor?: string[];
}

function isSecretEnvelope(value: unknown): value is SecretEnvelope {
  const v = value as Partial<SecretEnvelope> | null;
  return (
    typeof v === 'object' && v !== null && Array.isArray(v.servers) && v.servers.every((s) => typeof s === 'string') && typeof v.secrets === 'object' && v.secrets !== null
  );
}

export class ConnectionStore {
  constructor(private readonly secretStorage: vscode.SecretStorage) {}

  read(): StoredConnections {
    return readStoredConnections(this.userValue());
  }

  /** Whether a workspace or folder settings file sets the connections (they are ignored; the caller says so). */
  hasIgnoredWorkspaceValue(): boolean {
    const inspected = vscode.workspace.getConfiguration().inspect<unknown>(SETTINGS.clusters);
    return inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
  }

  /** The secrets stored for a connection, if they were entered for its bootstrap servers. */
  async secrets(config: Pick<ConnectionConfig, 'id' | 'bootstrapServers'>): Promise<StoredSecrets> {
    const envelope = await this.readEnvelope(config);
    if (!envelope) {
      return { secrets: {} };
    }
    if (!sameServers(envelope.servers, config.bootstrapServers)) {
      return { secrets: {}, savedFor: envelope.servers };
    }
    return { secrets: envelope.secrets };
  }

  /** Whether secrets that apply to the connection are stored. */
  async hasSecrets(config: Pick<ConnectionConfig, 'id' | 'bootstrapServers'>): Promise<boolean> {
    return Object.keys((await this.secrets(config)).secrets).length > 0;
  }

  /**
   * Adds or replaces a connection; secret fields left undefined keep their stored value, but only while
   * the bootstrap servers stay the same (new servers start with no secrets, so the password is asked again).
   */
  async save(config: ConnectionConfig, secrets: Secrets): Promise<void> {
    const merged: Secrets = { ...(await this.secrets(config)).secrets };
    for (const [key, value] of Object.entries(secrets) as Array<[keyof Secrets, string | undefined]>) {
      if (value !== undefined) {
        merged[key] = value;
      }
    }
    // A mechanism change makes old secrets meaningless; keep only what the new settings use.
    if (!config.sasl || config.sasl.mechanism === 'oauthbearer') {
      delete merged.password;
    }
    if (config.sasl?.mechanism !== 'oauthbearer' || config.sasl.tokenCommand) {
      delete merged.token;
    }
    if (!config.tls?.keyPath) {
      delete merged.keyPassphrase;
    }
    await this.writeSecrets(config, merged);
    const raw = this.rawEntries();
    const index = raw.findIndex((e) => typeof e === 'object' && e !== null && (e as { id?: unknown }).id === config.id);
    const stored = toStoredConnection(config);
    if (index >= 0) {
      raw[index] = stored;
    } else {
      raw.push(stored);
    }
    await vscode.workspace.getConfiguration().update(SETTINGS.clusters, raw, vscode.ConfigurationTarget.Global);
  }

  async remove(id: string): Promise<void> {
    const raw = this.rawEntries().filter((e) => !(typeof e === 'object' && e !== null && (e as { id?: unknown }).id === id));
    await vscode.workspace.getConfiguration().update(SETTINGS.clusters, raw, vscode.ConfigurationTarget.Global);
    await this.secretStorage.delete(SECRET_KEY_PREFIX + id);
  }

  onDidChangeSecrets(listener: (id: string) => void): vscode.Disposable {
    return this.secretStorage.onDidChange((e) => {
      if (e.key.startsWith(SECRET_KEY_PREFIX)) {
        listener(e.key.slice(SECRET_KEY_PREFIX.length));
      }
    });
  }

  /** The user (or remote machine) value of the setting; workspace and folder values are never read. */
  private userValue(): unknown {
    return vscode.workspace.getConfiguration().inspect<unknown>(SETTINGS.clusters)?.globalValue;
  }

  /** The setting as written, so entries we cannot read are kept rather than lost on save. */
  private rawEntries(): unknown[] {
    const value = this.userValue();
    return Array.isArray(value) ? [...(value as unknown[])] : [];
  }

  private async readEnvelope(config: Pick<ConnectionConfig, 'id' | 'bootstrapServers'>): Promise<SecretEnvelope | undefined> {
    const text = await this.secretStorage.get(SECRET_KEY_PREFIX + config.id);
    if (!text) {
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`The stored secrets of cluster "${config.id}" are unreadable; edit the cluster to enter them again`);
    }
    if (isSecretEnvelope(value)) {
      return value;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // Stored by an earlier version, keyed by the id alone: bound now to the servers of the user's own
      // setting (the only one read), so that later changes of the servers withhold them.
      const envelope: SecretEnvelope = { servers: serverSet(config.bootstrapServers), secrets: value };
      await this.secretStorage.store(SECRET_KEY_PREFIX + config.id, JSON.stringify(envelope));
      return envelope;
    }
    throw new Error(`The stored secrets of cluster "${config.id}" are unreadable; edit the cluster to enter them again`);
  }

  private async writeSecrets(config: ConnectionConfig, secrets: Secrets): Promise<void> {
    if (Object.keys(secrets).length === 0) {
      await this.secretStorage.delete(SECRET_KEY_PREFIX + config.id);
    } else {
      const envelope: SecretEnvelope = { servers: serverSet(config.bootstrapServers), secrets };
      await this.secretStorage.store(SECRET_KEY_PREFIX + config.id, JSON.stringify(envelope));
    }
  }
}
