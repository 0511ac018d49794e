/**
 * Holds back the tree refreshes that would replace a row while its tooltip is open. The editor says
 * when a tooltip opens (it resolves the row's item on hover) but not when it closes, so a hovered row
 * is held for a bounded time; the refreshes held meanwhile are fired, once each, when it ends. A
 * refresh of a row re-renders its whole subtree, so a refresh of the hovered row, one of its
 * ancestors or the whole tree is held; others pass at once. No editor types.
 */
import type { TreeNode } from './treeNodes';

export interface HoverHoldOptions {
  /** How long a hovered row is kept as it is (default 4 s: long enough to read a tooltip). */
  holdMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export const DEFAULT_HOVER_HOLD_MS = 4000;

export class HoverHold {
  /** Ids of the hovered row and its ancestors, while held. */
  private held: ReadonlySet<string> | undefined;
  private timer: unknown;
  /** Held refreshes in the order they came; `undefined` is the whole tree. */
  private readonly pending: Array<TreeNode | undefined> = [];
  private readonly holdMs: number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(
    private readonly fire: (node: TreeNode | undefined) => void,
    /** The node and its ancestors, nearest first. */
    private readonly lineage: (node: TreeNode) => TreeNode[],
    options: HoverHoldOptions = {},
  ) {
    this.holdMs = options.holdMs ?? DEFAULT_HOVER_HOLD_MS;
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  /** The editor opened the tooltip of `node`'s row. */
  hovered(node: TreeNode): void {
    this.release();
    this.held = new Set(this.lineage(node).map((n) => n.id));
    this.timer = this.setTimer(() => this.release(), this.holdMs);
  }

  /** A row (or, with `undefined`, the whole tree) changed: fired now unless it would replace the hovered row. */
  changed(node: TreeNode | undefined): void {
    if (this.held && (node === undefined || this.held.has(node.id))) {
      if (!this.pending.includes(node)) {
        this.pending.push(node);
      }
      return;
    }
    this.fire(node);
  }

  /** Ends the hold and fires what it held back. */
  release(): void {
    if (this.timer !== undefined) {
      this.clearTimer(this.timer);
      this.timer = undefined;
    }
    this.held = undefined;
    const pending = this.pending.splice(0);
    // The whole tree covers every row: fire it alone.
    for (const node of pending.includes(undefined) ? [undefined] : pending) {
      this.fire(node);
    }
  }

  dispose(): void {
    if (this.timer !== undefined) {
      this.clearTimer(this.timer);
      this.timer = undefined;
    }
    this.held = undefined;
    this.pending.length = 0;
  }
}
