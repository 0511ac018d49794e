/**
 * The trust boundaries of cluster connections (vscode stub): connections come from the user's settings
 * only, never from a workspace's, and stored secrets apply only to the bootstrap servers they were
 * entered for.
 */
import { strict as assert } from 'assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Disposable, LogOutputChannel } from 'vscode';
import type { ConnectionConfig } from '../../../src/kafka/connection';
import { failureKind } from '../../../src/model/sourceFailure';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { FakeSecretStorage, installFreshVscodeStub, StubHost } from '../views/vscodeStub';

type StoreModule = typeof import('../../../src/sources/connectionStore');
type SourcesModule = typeof import('../../../src/sources/kafkaSources');

const CLUSTERS = 'kafkaGroupLens.clusters';
const SECRET_KEY = 'kafkaGroupLens.connection.prod';

async function eventually<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== undefined) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('views/ConnectionStore trust boundaries', () => {
  let host: StubHost;
  let uninstall: () => void;
  let ConnectionStore: StoreModule['ConnectionStore'];
  let manageKafkaSources: SourcesModule['manageKafkaSources'];
  let log: LogOutputChannel;
  let secrets: FakeSecretStorage;
  let scratch: string;
  const disposables: Disposable[] = [];
  const registry = new SourceRegistry();

  const prod: ConnectionConfig = { id: 'prod', name: 'Production', bootstrapServers: ['kafka-1.prod:9092', 'kafka-2.prod:9092'], sasl: { mechanism: 'scram-sha-512', username: 'alice' } };

  before(() => {
    host = new StubHost();
    uninstall = installFreshVscodeStub(host);
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is installed */
    ({ ConnectionStore } = require('../../../src/sources/connectionStore') as StoreModule);
    ({ manageKafkaSources } = require('../../../src/sources/kafkaSources') as SourcesModule);
    log = (require('vscode') as typeof import('vscode')).window.createOutputChannel('test', { log: true });
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => uninstall());

  beforeEach(() => {
    host.config.clear();
    host.workspaceConfig.clear();
    host.logLines.length = 0;
    secrets = new FakeSecretStorage();
    scratch = mkdtempSync(join(tmpdir(), 'kgl-trust-'));
  });

  afterEach(async () => {
    for (const d of disposables.splice(0)) {
      d.dispose();
    }
    await registry.disposeAll();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('declares the clusters setting machine-scoped and restricted in untrusted workspaces', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
      capabilities?: { untrustedWorkspaces?: { supported: unknown; restrictedConfigurations?: string[] } };
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    };
    assert.equal(manifest.contributes.configuration.properties[CLUSTERS].scope, 'machine');
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.deepEqual(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations, [CLUSTERS]);
  });

  it("never reads a workspace's cluster (whose token command would run), only the user's", async () => {
    const marker = join(scratch, 'token-command-ran');
    const tokenCommand = `node -e "require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')"`;
    host.workspaceConfig.set(CLUSTERS, [{ id: 'cloned', name: 'From the repository', bootstrapServers: '127.0.0.1:1', sasl: { mechanism: 'oauthbearer', tokenCommand } }]);
    const store = new ConnectionStore(secrets);
    assert.deepEqual(store.read(), { connections: [], problems: [] });
    host.config.set(CLUSTERS, [{ id: 'mine', name: 'Mine', bootstrapServers: '127.0.0.1:1' }]);
    assert.deepEqual(store.read().connections.map((c) => c.id), ['mine']);

    disposables.push(manageKafkaSources(registry, store, log));
    const mine = await eventually('the user cluster', () => registry.get('mine'));
    await assert.rejects(mine.source.listGroups());
    assert.equal(registry.get('cloned'), undefined);
    assert.equal(existsSync(marker), false, 'the token command never ran');
    assert.ok(host.logLines.some((l) => l.level === 'warn' && l.message.includes(`${CLUSTERS} in workspace or folder settings is ignored`)));
  });

  it('gives stored secrets only to the bootstrap servers they were entered for', async () => {
    const store = new ConnectionStore(secrets);
    await store.save(prod, { password: 's3cret' });
    assert.deepEqual(await store.secrets(prod), { secrets: { password: 's3cret' } });
    assert.deepEqual(await store.secrets({ ...prod, bootstrapServers: ['KAFKA-2.prod:9092', 'kafka-1.prod:9092'] }), { secrets: { password: 's3cret' } }, 'same servers, other order and case');

    const impostor = { ...prod, bootstrapServers: ['attacker.example:9092'] };
    assert.deepEqual(await store.secrets(impostor), { secrets: {}, savedFor: ['kafka-1.prod:9092', 'kafka-2.prod:9092'] });
    assert.equal(await store.hasSecrets(impostor), false);

    // Editing the servers without a new password keeps nothing for the new servers.
    await store.save(impostor, { password: undefined });
    assert.deepEqual(await store.secrets(impostor), { secrets: {} });
    assert.equal(secrets.values.has(SECRET_KEY), false);
  });

  it('binds secrets stored by an earlier version (by id alone) to the servers of the user setting', async () => {
    host.config.set(CLUSTERS, [{ ...prod }]);
    await secrets.store(SECRET_KEY, JSON.stringify({ password: 'old' }));
    const store = new ConnectionStore(secrets);
    assert.deepEqual(await store.secrets(prod), { secrets: { password: 'old' } });
    assert.deepEqual(JSON.parse(secrets.values.get(SECRET_KEY) ?? ''), { servers: ['kafka-1.prod:9092', 'kafka-2.prod:9092'], secrets: { password: 'old' } });
    assert.deepEqual((await store.secrets({ ...prod, bootstrapServers: ['elsewhere:9092'] })).secrets, {});
  });

  it('says on the row that the password must be entered again after a settings edit of the servers, and does not retry it', async () => {
    const store = new ConnectionStore(secrets);
    await store.save({ ...prod, bootstrapServers: ['127.0.0.1:1'] }, { password: 's3cret' });
    disposables.push(manageKafkaSources(registry, store, log));
    await eventually('the cluster', () => registry.get('prod'));

    host.setConfig(CLUSTERS, [{ ...prod, bootstrapServers: ['127.0.0.1:2'] }]);
    const rebuilt = await eventually('the rebuilt cluster', () => {
      const entry = registry.get('prod');
      return entry && entry.admin === undefined ? entry : undefined;
    });
    const error = await rebuilt.source.listGroups().then(
      () => assert.fail('a cluster without its password loads'),
      (e: unknown) => e,
    );
    assert.match(String(error), /stored password or token was entered for 127\.0\.0\.1:1, not 127\.0\.0\.1:2; enter it again with "Edit Cluster…"/);
    assert.equal(failureKind(error), 'authentication', 'only the user can mend it: no automatic retry');
  });
});
