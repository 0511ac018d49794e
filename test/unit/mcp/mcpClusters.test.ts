import { strict as assert } from 'assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const PASSWORD = 'pw-that-must-not-leak';

describe('MCP server with --config', function () {
  this.timeout(60_000);
  let dir: string;
  let client: Client;
  let stderr = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgl-mcp-'));
    const config = join(dir, 'clusters.json');
    const sasl = (passwordEnv: string) => ({ mechanism: 'scram-sha-512', username: 'lens', passwordEnv });
    writeFileSync(config, JSON.stringify([
      { id: 'unset', name: 'Unset', bootstrapServers: '127.0.0.1:1', sasl: sasl('KGL_TEST_UNSET_PASSWORD') },
      // Port 1 refuses at once: the load fails without a broker.
      { id: 'refused', name: 'Refused', bootstrapServers: '127.0.0.1:1', sasl: sasl('KGL_TEST_PASSWORD') },
    ]));
    const env: Record<string, string> = { KGL_TEST_PASSWORD: PASSWORD };
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && key !== 'KGL_TEST_UNSET_PASSWORD') {
        env[key] = value;
      }
    }
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/mcp/cli.ts', '--config', config, '--refresh-seconds', '0', '--log-level', 'debug'], cwd: process.cwd(), env, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists each cluster with why its groups could not be loaded, and logs no password', async () => {
    const result = (await client.callTool({ name: 'kafkaGroupLens_listGroups', arguments: {} })) as CallToolResult;
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    assert.match(text, /Cluster "Unset" \(id unset, kafka\): its groups could not be loaded: Cannot connect: the environment variable KGL_TEST_UNSET_PASSWORD \(sasl\.passwordEnv\) is not set/);
    assert.match(text, /Cluster "Refused" \(id refused, kafka\): its groups could not be loaded: /);
    assert.doesNotMatch(text, /simulator/i, 'with --config alone the simulator does not run');
    assert.match(stderr, /Loading consumer groups of Refused failed/);
    assert.ok(!stderr.includes(PASSWORD) && !text.includes(PASSWORD), 'the password is never shown');
  });
});
