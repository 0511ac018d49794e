/**
 * Where connections live: the non-secret part in the `kafkaGroupLens.clusters` user setting, the
 * secrets in VS Code's SecretStorage under one key per connection. Nothing here logs a secret.
 */
import * as vscode from 'vscode';
import type { ConnectionConfig, Secrets } from '../kafka/connection';
import { readStoredConnections, toStoredConnection, type StoredConnections } from '../kafka/connectionSettings';

export const CLUSTERS_SETTING = 'kafkaGroupLens.clusters';
const SECRET_KEY_PREFIX = 'kafkaGroupLens.connection.';

export class ConnectionStore {
  constructor(private readonly secretStorage: vscode.SecretStorage) {}

  read(): StoredConnections {
    return readStoredConnections(vscode.workspace.getConfiguration().get<unknown>(CLUSTERS_SETTING));
  }

  async secrets(id: string): Promise<Secrets> {
    const text = await this.secretStorage.get(SECRET_KEY_PREFIX + id);
    if (!text) {
      return {};
    }
    try {
      return JSON.parse(text) as Secrets;
    } catch {
      throw new Error(`The stored secrets of cluster "${id}" are unreadable; edit the cluster to enter them again`);
    }
  }

  async hasSecrets(id: string): Promise<boolean> {
    return Object.keys(await this.secrets(id)).length > 0;
  }

  /** Adds or replaces a connection; secret fields left undefined keep their stored value. */
  async save(config: ConnectionConfig, secrets: Secrets): Promise<void> {
    const merged: Secrets = { ...(await this.secrets(config.id)) };
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
    await this.writeSecrets(config.id, merged);
    const raw = this.rawEntries();
    const index = raw.findIndex((e) => typeof e === 'object' && e !== null && (e as { id?: unknown }).id === config.id);
    const stored = toStoredConnection(config);
    if (index >= 0) {
      raw[index] = stored;
    } else {
      raw.push(stored);
    }
    await vscode.workspace.getConfiguration().update(CLUSTERS_SETTING, raw, vscode.ConfigurationTarget.Global);
  }

  async remove(id: string): Promise<void> {
    const raw = this.rawEntries().filter((e) => !(typeof e === 'object' && e !== null && (e as { id?: unknown }).id === id));
    await vscode.workspace.getConfiguration().update(CLUSTERS_SETTING, raw, vscode.ConfigurationTarget.Global);
    await this.secretStorage.delete(SECRET_KEY_PREFIX + id);
  }

  onDidChangeSecrets(listener: (id: string) => void): vscode.Disposable {
    return this.secretStorage.onDidChange((e) => {
      if (e.key.startsWith(SECRET_KEY_PREFIX)) {
        listener(e.key.slice(SECRET_KEY_PREFIX.length));
      }
    });
  }

  /** The setting as written, so entries we cannot read are kept rather than lost on save. */
  private rawEntries(): unknown[] {
    const value = vscode.workspace.getConfiguration().get<unknown>(CLUSTERS_SETTING);
    return Array.isArray(value) ? [...(value as unknown[])] : [];
  }

  private async writeSecrets(id: string, secrets: Secrets): Promise<void> {
    if (Object.keys(secrets).length === 0) {
      await this.secretStorage.delete(SECRET_KEY_PREFIX + id);
    } else {
      await this.secretStorage.store(SECRET_KEY_PREFIX + id, JSON.stringify(secrets));
    }
  }
}
