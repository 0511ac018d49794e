/**
 * Reading the Consumer Groups tree as the workbench draws it: which rows are groups, members and partitions,
 * what a group row says (lag, state, members), and waits that expand rows until what a test needs is listed.
 */
import { strict as assert } from 'assert';
import type { TreeRow, WorkbenchDriver } from './workbenchDriver';

export const GROUP_LEVEL = 2;
export const MEMBER_LEVEL = 3;
export const PARTITION_LEVEL = 4;

/** Group rows carry "lag L · State · N members[ · type]"; loading and message rows do not. */
export function memberCount(row: TreeRow): number | undefined {
  const match = /(\d+) members?\b/.exec(row.description);
  return match ? Number(match[1]) : undefined;
}

/** The state a group row shows after its lag. */
export function groupState(row: TreeRow): string | undefined {
  return /^lag [\d,-]+ · (\w+) · /.exec(row.description)?.[1];
}

/** The lag a group row leads with; -1 when unknown. */
export function groupLag(row: TreeRow): number {
  const match = /^lag ([\d,]+)/.exec(row.description);
  return match ? Number(match[1].replace(/,/g, '')) : -1;
}

export function isStableWithMembers(row: TreeRow): boolean {
  return groupState(row) === 'Stable' && (memberCount(row) ?? 0) > 0;
}

export function groupRows(rows: TreeRow[]): TreeRow[] {
  return rows.filter((r) => r.level === GROUP_LEVEL && memberCount(r) !== undefined);
}

export function rowsUnder(rows: TreeRow[], parent: TreeRow, level: number): TreeRow[] {
  const under: TreeRow[] = [];
  for (const row of rows.filter((r) => r.index > parent.index)) {
    if (row.level <= parent.level) {
      break;
    }
    if (row.level === level) {
      under.push(row);
    }
  }
  return under;
}

/** Member rows wear the account (dynamic), pinned (static) or sync (reconciling) icon; their siblings (type info, unassigned partitions, stopped consumers) do not. */
export function isMemberRow(row: TreeRow): boolean {
  return row.level === MEMBER_LEVEL && (row.icon === 'account' || row.icon === 'pinned' || row.icon === 'sync');
}

export function findGroup(rows: TreeRow[], groupId: string): TreeRow | undefined {
  return groupRows(rows).find((r) => r.label === groupId);
}

/** The group's row; waits, since a reload can leave the list briefly without it. */
export function waitForGroup(driver: WorkbenchDriver, groupId: string): Promise<TreeRow> {
  return driver.waitForRows(`group ${groupId}`, (rows) => findGroup(rows, groupId), 30_000);
}

/**
 * The member rows of a group once `ready(members, memberCount)` holds, expanding the group again whenever
 * a reload has collapsed it.
 */
export async function expandedMembers(
  driver: WorkbenchDriver,
  groupId: string,
  ready: (members: TreeRow[], memberCount: number | undefined) => boolean,
  timeoutMs = 60_000,
): Promise<TreeRow[]> {
  let members: TreeRow[] = [];
  await driver.waitUntil(`the members of ${groupId}`, timeoutMs, async () => {
    const rows = await driver.treeRows();
    const group = findGroup(rows, groupId);
    if (!group) {
      return false;
    }
    if (group.expanded === false) {
      await driver.expand(group);
      return false;
    }
    members = rowsUnder(rows, group, MEMBER_LEVEL).filter(isMemberRow);
    return ready(members, memberCount(group));
  });
  return members;
}

/** A partition row in view, expanding a topic row first when the member's partitions are grouped by topic. */
export async function partitionRow(driver: WorkbenchDriver): Promise<TreeRow> {
  let found: TreeRow | undefined;
  await driver.waitUntil('a partition row', 60_000, async () => {
    const rows = await driver.treeRows();
    found = rows.find((r) => r.level >= PARTITION_LEVEL && r.icon === 'symbol-array');
    const topic = rows.find((r) => r.level === PARTITION_LEVEL && r.icon !== 'symbol-array' && r.expanded === false);
    if (!found && topic) {
      await driver.expand(topic);
    }
    return found !== undefined;
  });
  assert.ok(found);
  return found;
}

