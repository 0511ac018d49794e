import { strict as assert } from 'assert';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import manifest from '../../../package.json';
import { AgentTools } from '../../../src/agent/agentTools';
import { GroupHealthTracker } from '../../../src/views/groupHealthTracker';
import { demoAdmin, type SimAdminFixture } from '../commands/simAdminFixture';

/** The demo simulator held at 15 s of virtual time, as demoAdmin() builds it in this process; no polling reloads. */
const SERVER_ARGS = ['--import', 'tsx', 'src/mcp/cli.ts', '--frozen-at', '15', '--refresh-seconds', '0', '--log-level', 'warn'];
const TO_EARLIEST = { group: 'billing-archive', scenario: 'to-earliest' };

async function connect(elicit?: (message: string) => ElicitResult): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, elicit ? { capabilities: { elicitation: {} } } : {});
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  await client.connect(new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, cwd: process.cwd(), stderr: 'pipe' }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name: `kafkaGroupLens_${name}`, arguments: args })) as CallToolResult;
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return { text: first.type === 'text' ? first.text : '', isError: result.isError === true };
}

/** The committed offsets of billing-archive as describeGroup shows them, read through the server. */
async function billingOffsets(client: Client): Promise<string[]> {
  const { text } = await call(client, 'describeGroup', { group: 'billing-archive' });
  return [...text.matchAll(/^- (legacy-events-\d): committed (\d+|\(none\))/gm)].map((m) => `${m[1]}@${m[2]}`).sort();
}

describe('MCP server over stdio (demo simulator held at 15 s)', function () {
  this.timeout(60_000);
  let fx: SimAdminFixture;
  let expected: AgentTools;

  before(async () => {
    fx = demoAdmin(15000);
    // The server's one load of the frozen cluster: the groups with their health from one sample.
    const groups = await new GroupHealthTracker(Date.now).load(fx.source);
    expected = new AgentTools({ sources: () => [{ source: fx.source, admin: fx.admin }], loadedGroups: () => [{ sourceId: fx.source.id, label: fx.source.label, groups }] });
  });
  after(async () => {
    expected.dispose();
    await fx.source.dispose();
  });

  describe('a client without elicitation', () => {
    let client: Client;
    before(async () => {
      client = await connect();
    });
    after(async () => {
      await client.close();
    });

    it('lists package.json\'s tools with their descriptions, schemas and annotations', async () => {
      const { tools } = await client.listTools();
      const declared = manifest.contributes.languageModelTools;
      assert.deepEqual(tools.map((t) => t.name), declared.map((t) => t.name));
      for (const tool of tools) {
        const source = declared.find((t) => t.name === tool.name);
        assert.equal(tool.description, source?.modelDescription);
        assert.deepEqual(tool.inputSchema, source?.inputSchema);
        const writes = source?.tags.includes('write') === true;
        assert.equal(tool.annotations?.readOnlyHint, !writes, tool.name);
        assert.equal(tool.annotations?.destructiveHint, writes, tool.name);
      }
      assert.deepEqual(tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name), ['kafkaGroupLens_executeReset', 'kafkaGroupLens_deleteOffsets', 'kafkaGroupLens_removeMember']);
    });

    it('answers the read tools as src/agent does over the same cluster', async () => {
      const cases: Array<[string, Record<string, unknown>, () => Promise<string> | string]> = [
        ['listGroups', {}, () => expected.listGroups({})],
        ['describeGroup', { group: 'orders-processor' }, () => expected.describeGroup({ group: 'orders-processor' })],
        ['explainLag', { group: 'billing-archive' }, () => expected.explainLag({ group: 'billing-archive' })],
        ['rebalanceHistory', { group: 'orders-processor', limit: 10 }, () => expected.rebalanceHistory({ group: 'orders-processor', limit: 10 })],
        ['planReset', { group: 'billing-archive', scenario: 'shift-by', value: '-100' }, () => expected.planReset({ group: 'billing-archive', scenario: 'shift-by', value: '-100' })],
      ];
      for (const [name, args, local] of cases) {
        const answer = await call(client, name, args);
        assert.equal(answer.isError, false, `${name}: ${answer.text}`);
        assert.equal(answer.text, await local(), name);
      }
    });

    it('shows lag as the log end minus the committed offset of the simulated partitions', async () => {
      const { text } = await call(client, 'describeGroup', { group: 'billing-archive' });
      const detail = await fx.source.describeGroup('billing-archive');
      for (const row of detail.offsets) {
        const end = fx.source.simulation.cluster.partition(row.topic, row.partition)?.highWatermark;
        assert.ok(end !== undefined && row.committedOffset !== null);
        assert.match(text, new RegExp(`- ${row.topic}-${row.partition}: committed ${row.committedOffset}, log end ${end}, lag ${end - row.committedOffset},`));
      }
    });

    it('turns bad input into an error result that says what to send', async () => {
      const wrongType = await call(client, 'describeGroup', { group: 5 });
      assert.equal(wrongType.isError, true);
      assert.match(wrongType.text, /"group" must be a string/);
      const missing = await call(client, 'planReset', { group: 'billing-archive' });
      assert.equal(missing.isError, true);
      assert.match(missing.text, /"scenario" is required/);
      const badValue = await call(client, 'planReset', { group: 'billing-archive', scenario: 'to-offset', value: 'ten' });
      assert.equal(badValue.isError, true);
      assert.match(badValue.text, /--to-offset needs "value"/);
      const noCluster = await call(client, 'listGroups', { cluster: 'production' });
      assert.equal(noCluster.isError, true);
      assert.match(noCluster.text, /No cluster "production"; the clusters are "Simulator \(demo\)"/);
    });

    it('refuses a write it cannot have confirmed, shows its preview, and changes nothing', async () => {
      const before = await billingOffsets(client);
      assert.deepEqual(before, ['legacy-events-0@700', 'legacy-events-1@1000', 'legacy-events-2@250']);
      const refused = await call(client, 'executeReset', TO_EARLIEST);
      assert.equal(refused.isError, true);
      assert.match(refused.text, /no elicitation capability\)\. Nothing was changed/);
      assert.match(refused.text, /\| legacy-events \| 0 \| 700 \| 0 \| -700 \|/);
      const deletion = await call(client, 'deleteOffsets', { group: 'billing-archive', topic: 'legacy-events' });
      assert.equal(deletion.isError, true);
      assert.match(deletion.text, /Nothing was changed/);
      assert.deepEqual(await billingOffsets(client), before);
    });
  });

  describe('a client that elicits', () => {
    let client: Client;
    let answer: ElicitResult['action'] = 'decline';
    const asked: string[] = [];
    before(async () => {
      client = await connect((message) => {
        asked.push(message);
        return { action: answer, ...(answer === 'accept' ? { content: {} } : {}) };
      });
    });
    after(async () => {
      await client.close();
    });

    it('asks the user with the preview and changes nothing when declined', async () => {
      const declined = await call(client, 'executeReset', TO_EARLIEST);
      assert.equal(declined.isError, false);
      assert.match(declined.text, /the user declined the change\. Nothing was changed/);
      assert.equal(asked.length, 1);
      assert.match(asked[0], /^Reset the offsets of "billing-archive" on "Simulator \(demo\)"\?\n\n```text\n/);
      assert.match(asked[0], /\| legacy-events \| 1 \| 1000 \| 0 \| -1000 \|/);
      assert.deepEqual(await billingOffsets(client), ['legacy-events-0@700', 'legacy-events-1@1000', 'legacy-events-2@250']);
    });

    it('runs the write once the user accepts, and the offsets change', async () => {
      answer = 'accept';
      const done = await call(client, 'executeReset', TO_EARLIEST);
      assert.equal(done.isError, false, done.text);
      assert.match(done.text, /Committed 3 offset\(s\) of billing-archive/);
      assert.deepEqual(await billingOffsets(client), ['legacy-events-0@0', 'legacy-events-1@0', 'legacy-events-2@0']);
    });
  });

  it('survives malformed JSON-RPC and answers the next request', async () => {
    const child = spawn(process.execPath, SERVER_ARGS, { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    try {
      child.stdin.write('this is not JSON\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}\n[1,2\n');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
      const deadline = Date.now() + 20_000;
      const answered = (): Array<{ id?: number; error?: unknown; result?: { serverInfo?: { name: string } } }> =>
        stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { id?: number });
      while (!answered().some((m) => m.id === 2)) {
        assert.ok(Date.now() < deadline, `no answer to initialize; stdout: ${stdout}`);
        assert.equal(child.exitCode, null, 'the server exited');
        await new Promise((resolve) => child.stdout.once('data', resolve).once('close', resolve));
      }
      const messages = answered();
      assert.ok(messages.find((m) => m.id === 1)?.error, 'the request with bad params gets an error answer');
      assert.equal(messages.find((m) => m.id === 2)?.result?.serverInfo?.name, 'kafka-group-lens');
      assert.equal(child.exitCode, null);
    } finally {
      child.kill();
    }
  });
});
