/**
 * Extension-host checks in a desktop VS Code (or code-server's extension host): activation, contributed
 * commands, the groups tree's root nodes, the refresh command reloading every cluster, and the rebalance
 * timeline panel. Nothing here is skipped: the suite runs with mocha's forbidPending.
 */
import { strict as assert } from 'assert';
import * as vscode from 'vscode';
import { contributedCommand, extensionId, GROUPS_VIEW_ID, OPEN_TIMELINE_COMMAND_ID, readManifest, REFRESH_COMMAND_ID } from '../contributions';

interface LoadCounts {
  full: number;
  background: number;
}

/** What a test API returned by activate() offers, when the extension exposes one. */
interface GroupsTreeApi {
  groupsTree: {
    getChildren(element?: unknown): vscode.ProviderResult<unknown[]>;
    getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem>;
  };
  treeLoadCounts(sourceId: string): LoadCounts;
}

function hasGroupsTree(exports: unknown): exports is GroupsTreeApi {
  const api = exports as Partial<GroupsTreeApi> | undefined;
  const tree = api?.groupsTree;
  return typeof tree?.getChildren === 'function' && typeof tree.getTreeItem === 'function' && typeof api?.treeLoadCounts === 'function';
}

/** The source a cluster row stands for (cluster nodes carry it as `sourceId`). */
function sourceIdOf(node: unknown): string {
  const sourceId = (node as { sourceId?: unknown }).sourceId;
  assert.equal(typeof sourceId, 'string', 'a cluster node names its source');
  return sourceId as string;
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Kafka Group Lens in the extension host', () => {
  const manifest = readManifest();
  let extension: vscode.Extension<unknown>;

  before(async () => {
    const found = vscode.extensions.getExtension(extensionId(manifest));
    assert.ok(found, `extension ${extensionId(manifest)} is not loaded`);
    extension = found;
    await extension.activate();
  });

  it('activates', () => {
    assert.equal(extension.isActive, true);
  });

  it('registers every command package.json contributes', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = (manifest.contributes?.commands ?? []).map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('shows the groups view and its root nodes', async () => {
    await vscode.commands.executeCommand(`${GROUPS_VIEW_ID}.focus`);
    const tree = groupsApi().groupsTree;
    const roots = await childrenOf(tree, undefined, 'root nodes of the groups tree');
    for (const root of roots) {
      const item = await tree.getTreeItem(root);
      assert.ok(item.label, 'every root node has a label');
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'cluster nodes start expanded');
    }
  });

  it('reloads every cluster when the refresh command runs', async () => {
    assert.ok(contributedCommand(REFRESH_COMMAND_ID, manifest), `package.json contributes no ${REFRESH_COMMAND_ID}`);
    const api = groupsApi();
    const clusters = await childrenOf(api.groupsTree, undefined, 'the cluster nodes');
    // The first load of each cluster has finished (its groups or a message row are listed).
    for (const cluster of clusters) {
      await childrenOf(api.groupsTree, cluster, 'the rows of a loaded cluster');
    }
    const before = clusters.map((c) => api.treeLoadCounts(sourceIdOf(c)));
    // The command runner reports failures instead of throwing, so the reload itself is what is checked.
    await vscode.commands.executeCommand(REFRESH_COMMAND_ID);
    const after = clusters.map((c) => api.treeLoadCounts(sourceIdOf(c)));
    clusters.forEach((cluster, i) => {
      assert.equal(after[i].full, before[i].full + 1, `cluster ${sourceIdOf(cluster)} was reloaded once by the command (before ${JSON.stringify(before[i])}, after ${JSON.stringify(after[i])})`);
    });
  });

  it("opens a group's rebalance timeline panel", async () => {
    assert.ok(contributedCommand(OPEN_TIMELINE_COMMAND_ID, manifest), `package.json contributes no ${OPEN_TIMELINE_COMMAND_ID}`);
    const tree = groupsApi().groupsTree;
    const [cluster] = await childrenOf(tree, undefined, 'a cluster node');
    // Group rows are the cluster's rows whose contextValue says so (the Transactions row and messages are not).
    const group = await waitFor('a group node', 30_000, async () => {
      for (const child of (await tree.getChildren(cluster)) ?? []) {
        if ((await tree.getTreeItem(child)).contextValue?.startsWith('kgl:group:')) {
          return child;
        }
      }
      return undefined;
    });
    // The tree's menu passes the node itself, so the test does the same.
    await vscode.commands.executeCommand(OPEN_TIMELINE_COMMAND_ID, group);
    const tab = await waitFor('a timeline webview tab', 30_000, () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && /timeline/i.test(t.input.viewType)),
    );
    assert.ok(tab.label.length > 0);
  });

  /** activate()'s test API: the groups tree and its load counts. */
  function groupsApi(): GroupsTreeApi {
    assert.ok(hasGroupsTree(extension.exports), 'activate() returns no { groupsTree, treeLoadCounts } test API');
    return extension.exports;
  }
});

async function childrenOf(tree: GroupsTreeApi['groupsTree'], parent: unknown, what: string): Promise<unknown[]> {
  return waitFor(what, 30_000, async () => {
    const children = (await tree.getChildren(parent)) ?? [];
    return children.length ? children : undefined;
  });
}
