/**
 * The rows last shown under each parent below the group rows: a re-read of a parent reuses the row
 * object of every child whose data did not change, so the editor keeps holding the same element and a
 * row is new only when what it shows is (issue 19: rows that stay put). No editor types.
 */
import { describeNode } from './groupTreeRows';
import type { TreeNode } from './treeNodes';

/** What a row renders, as one string: two equal keys show the same row. */
export function renderKey(node: TreeNode): string {
  return JSON.stringify(describeNode(node));
}

interface ShownRow {
  node: TreeNode;
  /** The data the row was built from (its children's too): equal data, same rows. */
  key: string;
}

export class ShownRows {
  private readonly byParent = new Map<string, Map<string, ShownRow>>();

  /** `children` of `parentId`, with the rows already shown kept where nothing in them changed. */
  keep(parentId: string, children: TreeNode[]): TreeNode[] {
    const before = this.byParent.get(parentId);
    const now = new Map<string, ShownRow>();
    const kept = children.map((child) => {
      const key = JSON.stringify(child);
      const shown = before?.get(child.id);
      const row = shown && shown.key === key ? shown.node : child;
      now.set(child.id, { node: row, key });
      return row;
    });
    this.byParent.set(parentId, now);
    return kept;
  }

  /** Forgets the rows under `rowId` and its descendants (a group or a source that is gone). */
  forgetUnder(rowId: string): void {
    for (const parentId of [...this.byParent.keys()]) {
      if (parentId === rowId || parentId.startsWith(`${rowId}/`)) {
        this.byParent.delete(parentId);
      }
    }
  }
}
