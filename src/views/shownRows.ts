/**
 * The rows last shown under each parent below the group rows. A re-read of a parent keeps the row object
 * of every child that is still there, updating it in place when its data changed, so the editor keeps
 * holding the same element and can be told about that one row; the re-read says which rows now show
 * something else and whether the list of rows itself changed (issue 19: rows that stay put). No editor types.
 */
import { describeNode } from './groupTreeRows';
import type { TreeNode } from './treeNodes';

/** What a row renders, as one string: two equal keys show the same row. */
export function renderKey(node: TreeNode): string {
  return JSON.stringify(describeNode(node));
}

interface ShownRow {
  node: TreeNode;
  /** The data the row was built from (its children's too): equal data, nothing to update. */
  dataKey: string;
}

export interface KeptRows {
  /** The children, as the objects already shown where their ids were shown before. */
  rows: TreeNode[];
  /** Rows already shown whose label, description, icon, tooltip or contextValue now differ. */
  changed: TreeNode[];
  /** The parent's list of row ids is not the one shown before (rows came, went or moved), or was never shown. */
  listChanged: boolean;
}

/** Replaces the fields of `shown` with those of `next` (same kind and id): the object stays, its data is new. */
function updateInPlace(shown: TreeNode, next: TreeNode): void {
  const target = shown as unknown as Record<string, unknown>;
  for (const key of Object.keys(target)) {
    if (!(key in next)) {
      delete target[key];
    }
  }
  Object.assign(target, next);
}

export class ShownRows {
  private readonly byParent = new Map<string, Map<string, ShownRow>>();

  /** `children` of `parentId`, with the rows already shown kept (and updated in place when their data changed). */
  keep(parentId: string, children: TreeNode[]): KeptRows {
    const before = this.byParent.get(parentId);
    const now = new Map<string, ShownRow>();
    const changed: TreeNode[] = [];
    const rows = children.map((child) => {
      const dataKey = JSON.stringify(child);
      const shown = before?.get(child.id);
      if (!shown || shown.node.kind !== child.kind) {
        now.set(child.id, { node: child, dataKey });
        return child;
      }
      if (shown.dataKey !== dataKey) {
        const shownKey = renderKey(shown.node);
        updateInPlace(shown.node, child);
        if (renderKey(shown.node) !== shownKey) {
          changed.push(shown.node);
        }
      }
      now.set(child.id, { node: shown.node, dataKey });
      return shown.node;
    });
    const beforeIds = before ? [...before.keys()] : undefined;
    const listChanged = !beforeIds || beforeIds.length !== rows.length || rows.some((row, i) => row.id !== beforeIds[i]);
    this.byParent.set(parentId, now);
    return { rows, changed, listChanged };
  }

  /** Whether the editor has been given the rows under `parentId` (it expanded that row at least once). */
  hasShown(parentId: string): boolean {
    return this.byParent.has(parentId);
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
