/**
 * The view's filter and sort: which groups a cluster row lists, in which order, and the view message that says a
 * filter is on. Kept per workspace (a Memento-like store) as the filter's text and the sort, so a reload shows the
 * same rows. No `vscode` import: the commands prompt, this holds the choice.
 */
import type { Unsubscribe } from '../model/clusterSource';
import type { GroupSummary } from '../model/types';
import {
  DEFAULT_GROUP_SORT, EMPTY_GROUP_FILTER, filterMessage, formatGroupFilter, isFilterActive, parseGroupFilter, parseGroupSort, queryGroups,
  type GroupFilter, type GroupSort,
} from './groupQuery';

/** The part of VS Code's Memento (workspaceState) this needs. */
export interface ArrangementStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const ARRANGEMENT_KEYS = { filter: 'kafkaGroupLens.groupFilter', sort: 'kafkaGroupLens.groupSort' } as const;

export class GroupArrangement {
  private currentFilter: GroupFilter;
  private currentSort: GroupSort;
  private readonly listeners = new Set<() => void>();

  /** A stored filter that no longer parses (the language changed) is dropped, with `onDropped` saying why. */
  constructor(private readonly store: ArrangementStore, onDropped?: (message: string) => void) {
    const text = store.get<unknown>(ARRANGEMENT_KEYS.filter);
    const parsed = typeof text === 'string' ? parseGroupFilter(text) : undefined;
    if (parsed && !parsed.ok) {
      onDropped?.(`The saved group filter "${String(text)}" was dropped: ${parsed.error}`);
    }
    this.currentFilter = parsed?.ok ? parsed.filter : { ...EMPTY_GROUP_FILTER };
    this.currentSort = parseGroupSort(store.get<unknown>(ARRANGEMENT_KEYS.sort));
  }

  get filter(): Readonly<GroupFilter> {
    return this.currentFilter;
  }

  get sort(): Readonly<GroupSort> {
    return this.currentSort;
  }

  get filterActive(): boolean {
    return isFilterActive(this.currentFilter);
  }

  /** What the cluster row lists: the groups the filter keeps, in the chosen order. */
  arrange(groups: readonly GroupSummary[]): GroupSummary[] {
    return queryGroups(groups, this.currentFilter, this.currentSort);
  }

  /** The view's message over all loaded clusters' groups; undefined when no filter is on. */
  message(groupLists: ReadonlyArray<readonly GroupSummary[]>): string | undefined {
    if (!this.filterActive) {
      return undefined;
    }
    let shown = 0;
    let total = 0;
    for (const groups of groupLists) {
      total += groups.length;
      shown += this.arrange(groups).length;
    }
    return filterMessage(this.currentFilter, shown, total);
  }

  async setFilter(filter: Readonly<GroupFilter>): Promise<void> {
    this.currentFilter = { ...filter };
    await this.store.update(ARRANGEMENT_KEYS.filter, this.filterActive ? formatGroupFilter(filter) : undefined);
    this.fire();
  }

  clearFilter(): Promise<void> {
    return this.setFilter(EMPTY_GROUP_FILTER);
  }

  async setSort(sort: Readonly<GroupSort>): Promise<void> {
    this.currentSort = { ...sort };
    const isDefault = sort.key === DEFAULT_GROUP_SORT.key && sort.descending === DEFAULT_GROUP_SORT.descending;
    await this.store.update(ARRANGEMENT_KEYS.sort, isDefault ? undefined : this.currentSort);
    this.fire();
  }

  onDidChange(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      listener();
    }
  }
}
