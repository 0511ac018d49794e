/**
 * The language-model tools in the extension host, called as the agent calls them (`vscode.lm.invokeTool`) against
 * the built-in simulator: each answer is checked against the tree's own figures, and a write called outside chat
 * (no toolInvocationToken) is refused and changes nothing.
 */
import { strict as assert } from 'assert';
import * as vscode from 'vscode';
import { extensionId, readManifest } from '../contributions';
import { HOST_TEST_KAFKA } from '../hostTestCluster';

interface TreeApi {
  groupsTree: { getChildren(element?: unknown): vscode.ProviderResult<unknown[]> };
}

interface GroupRow {
  kind: 'group';
  sourceId: string;
  summary: { groupId: string; groupType: string; state: string; memberCount: number; totalLag: number | null };
}

const EMPTY_GROUP = 'billing-archive';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(`kafkaGroupLens_${name}`, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The tree's row of a group, once its cluster is loaded (a real broker's first load can take a while). */
async function treeRow(api: TreeApi, groupId: string): Promise<GroupRow> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const cluster of (await api.groupsTree.getChildren()) ?? []) {
      for (const child of (await api.groupsTree.getChildren(cluster)) ?? []) {
        const row = child as Partial<GroupRow>;
        if (row.kind === 'group' && row.summary?.groupId === groupId) {
          return row as GroupRow;
        }
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for the tree row of ${groupId}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Kafka Group Lens language-model tools (vscode.lm.invokeTool, simulator)', () => {
  const manifest = readManifest() as ReturnType<typeof readManifest> & { contributes?: { languageModelTools?: Array<{ name: string }> } };
  let api: TreeApi;
  let archive: GroupRow;

  before(async () => {
    const extension = vscode.extensions.getExtension(extensionId(manifest));
    assert.ok(extension, 'the extension is loaded');
    api = (await extension.activate()) as TreeApi;
    archive = await treeRow(api, EMPTY_GROUP);
    assert.equal(archive.summary.state, 'Empty', 'the demo keeps billing-archive Empty');
  });

  it('offers every tool package.json declares once a cluster is registered (the when clause of the cluster tools)', async () => {
    const declared = manifest.contributes?.languageModelTools?.map((t) => t.name) ?? [];
    assert.equal(declared.length, 9);
    // kafkaGroupLens.hasClusters is set as the simulator registers: the tools appear then.
    const deadline = Date.now() + 10000;
    let missing = declared;
    while (Date.now() < deadline) {
      const offered = new Set(vscode.lm.tools.map((t) => t.name));
      missing = declared.filter((name) => !offered.has(name));
      if (missing.length === 0) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(missing, []);
  });

  it('lists and describes groups with the figures of the tree rows', async () => {
    const line = `- ${EMPTY_GROUP} [simple] Empty, members 0, lag ${archive.summary.totalLag}`;
    assert.ok((await invoke('listGroups', { filter: 'state:empty' })).includes(line), 'listGroups');
    assert.ok((await invoke('describeGroup', { group: EMPTY_GROUP })).includes(line.slice(2)), 'describeGroup');
    const explained = await invoke('explainLag', { group: EMPTY_GROUP });
    assert.match(explained, new RegExp(`lag ${archive.summary.totalLag}`));
    assert.match(explained, /have no owner: no member consumes them \(the group has no members\)/);
    const orders = await treeRow(api, 'orders-processor');
    assert.match(await invoke('listGroups', { filter: 'orders-processor' }), new RegExp(`orders-processor \\[classic\\] ${orders.summary.state}, members ${orders.summary.memberCount}`));
    assert.match(await invoke('rebalanceHistory', { group: 'orders-processor' }), /Rebalance history of "orders-processor".*rebalance\(s\) started[\s\S]*cause: /);
  });

  it('plans a reset, runs a scenario, and returns input errors the model can act on', async () => {
    const plan = await invoke('planReset', { group: EMPTY_GROUP, scenario: 'to-earliest' });
    assert.match(plan, /\| legacy-events \| 0 \| 700 \| 0 \| -700 \|/);
    const simulated = await invoke('simulate', {
      scenario: { durationMs: 20_000, topics: [{ name: 't', partitions: 2 }], consumers: [{ id: 'c1', groupId: 'g', topics: ['t'] }, { id: 'c2', groupId: 'g', topics: ['t'] }] },
    });
    assert.match(simulated, /Simulated in virtual time: \d+ events, 1 group\(s\)/);
    assert.match(simulated, /- g \[classic\] Stable, members 2/);
    await assert.rejects(invoke('listGroups', { filter: 'state:bogus' }), /Bad "filter"/);
  });

  it('refuses a write called outside chat, and changes nothing', async () => {
    const input = { group: EMPTY_GROUP, scenario: 'to-earliest' };
    await assert.rejects(invoke('executeReset', input), /runs only from chat, after the user confirmed its preview there. Nothing was changed/);
    await assert.rejects(invoke('deleteOffsets', { group: EMPTY_GROUP, topic: 'legacy-events' }), /runs only from chat, after the user confirmed its preview there. Nothing was changed/);
    const after = await invoke('planReset', input);
    for (const row of ['| legacy-events | 0 | 700 |', '| legacy-events | 1 | 1000 |', '| legacy-events | 2 | 250 |']) {
      assert.ok(after.includes(row), `still committed: ${row}`);
    }
  });

  it('answers the read tools on a real Kafka broker with the figures of its tree rows', async () => {
    const { clusterName, groupId, topic, committed, recordsPerPartition } = HOST_TEST_KAFKA;
    const row = await treeRow(api, groupId);
    const expectedLag = committed.reduce((sum, offset) => sum + recordsPerPartition - offset, 0);
    assert.deepEqual([row.summary.state, row.summary.memberCount, row.summary.totalLag], ['Empty', 0, expectedLag], 'the tree reads the seeded group');
    const line = `${groupId} [${row.summary.groupType}] ${row.summary.state}, members ${row.summary.memberCount}, lag ${row.summary.totalLag}`;
    const listed = await invoke('listGroups', { cluster: clusterName, filter: groupId });
    assert.ok(listed.includes(`- ${line}`), `listGroups: ${listed}`);
    // No cluster named: the one whose groups hold the id is found.
    const described = await invoke('describeGroup', { group: groupId });
    assert.ok(described.includes(line), `describeGroup: ${described}`);
    assert.match(await invoke('explainLag', { cluster: clusterName, group: groupId }), new RegExp(`lag ${expectedLag}`));
    const plan = await invoke('planReset', { cluster: clusterName, group: groupId, scenario: 'to-earliest' });
    committed.forEach((offset, partition) => assert.ok(plan.includes(`| ${topic} | ${partition} | ${offset} | 0 | -${offset} |`), `planReset partition ${partition}: ${plan}`));
    await assert.rejects(invoke('describeGroup', { group: 'no-such-group-anywhere' }), /name one in "cluster"/);
  });
});
