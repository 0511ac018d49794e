/**
 * Extension-host checks in a desktop VS Code: activation, contributed commands, the groups tree's root
 * nodes, a command run, and the rebalance timeline panel. Features the manifest does not contribute yet
 * are reported as pending with the reason, never passed silently.
 */
import { strict as assert } from 'assert';
import * as vscode from 'vscode';
import { contributedCommand, extensionId, GROUPS_VIEW_ID, OPEN_TIMELINE_COMMAND_ID, readManifest, REFRESH_COMMAND_ID } from '../contributions';

/** What a test API returned by activate() offers, when the extension exposes one. */
interface GroupsTreeApi {
  groupsTree: {
    getChildren(element?: unknown): vscode.ProviderResult<unknown[]>;
    getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem>;
  };
}

function hasGroupsTree(exports: unknown): exports is GroupsTreeApi {
  const tree = (exports as Partial<GroupsTreeApi> | undefined)?.groupsTree;
  return typeof tree?.getChildren === 'function' && typeof tree.getTreeItem === 'function';
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

  it('shows the groups view and its root nodes', async function () {
    await vscode.commands.executeCommand(`${GROUPS_VIEW_ID}.focus`);
    const tree = groupsTreeOrSkip(this);
    const roots = await childrenOf(tree, undefined, 'root nodes of the groups tree');
    for (const root of roots) {
      const item = await tree.getTreeItem(root);
      assert.ok(item.label, 'every root node has a label');
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'cluster nodes start expanded');
    }
  });

  it('runs the refresh command', async function () {
    if (!contributedCommand(REFRESH_COMMAND_ID, manifest)) {
      console.log(`      refresh: not available yet (package.json contributes no ${REFRESH_COMMAND_ID})`);
      this.skip();
    }
    await vscode.commands.executeCommand(REFRESH_COMMAND_ID);
  });

  it("opens a group's rebalance timeline panel", async function () {
    if (!contributedCommand(OPEN_TIMELINE_COMMAND_ID, manifest)) {
      console.log(`      rebalance timeline: not available yet (package.json contributes no ${OPEN_TIMELINE_COMMAND_ID})`);
      this.skip();
    }
    const tree = groupsTreeOrSkip(this);
    const [cluster] = await childrenOf(tree, undefined, 'a cluster node');
    // Group nodes are the cluster's collapsible children (message rows such as "Loading…" are leaves).
    const group = await waitFor('a group node', 30_000, async () => {
      for (const child of (await tree.getChildren(cluster)) ?? []) {
        if ((await tree.getTreeItem(child)).collapsibleState === vscode.TreeItemCollapsibleState.Collapsed) {
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

  /** The groups tree from activate()'s test API, or a pending test that says the API is missing. */
  function groupsTreeOrSkip(context: Mocha.Context): GroupsTreeApi['groupsTree'] {
    if (!hasGroupsTree(extension.exports)) {
      console.log('      groups tree: not available yet (activate() returns no { groupsTree } test API)');
      context.skip();
    }
    return extension.exports.groupsTree;
  }
});

async function childrenOf(tree: GroupsTreeApi['groupsTree'], parent: unknown, what: string): Promise<unknown[]> {
  return waitFor(what, 30_000, async () => {
    const children = (await tree.getChildren(parent)) ?? [];
    return children.length ? children : undefined;
  });
}
