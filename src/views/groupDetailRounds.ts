/**
 * The two-phase load of a cluster with many groups (issue 19): ListGroups gives every row at once
 * (listGroupsOnly), then the details (members, offsets, lag, lag in time) come in batches, first for the
 * groups the user looks at: the groups opened in the tree, the rows at the top of the list as filtered
 * and sorted, then every group the filter lets through, then the rest. At most two batches of a
 * cluster are in flight (the source cuts each into requests per coordinator with its own bounded
 * concurrency; two overlap one batch's round trips with the other's), so a refresh of 20,000 groups
 * never floods the brokers. A group keeps the figures of its
 * last details until new ones come: a background refresh never turns a row back to "details pending".
 */
import type { GroupDetail, GroupSummary } from '../model/types';

export interface DetailBatchLimits {
  /** Rows taken as visible at the top of the list: the first batch, with the opened groups. */
  visibleRows: number;
  /** Groups per later batch (per loadGroupDetails call). */
  batchSize: number;
  /** Batches loading at once. */
  inFlight: number;
}

/** About a screen of rows; then batches big enough to fill requests per coordinator, small enough to show progress. */
export const DEFAULT_DETAIL_BATCH_LIMITS: Readonly<DetailBatchLimits> = { visibleRows: 100, batchSize: 5000, inFlight: 2 };

export interface DetailPlanInput {
  /** Every listed group. */
  groups: readonly GroupSummary[];
  /** What the tree lists, filtered and sorted, in its order. */
  shown: readonly GroupSummary[];
  /** Groups whose rows are expanded. */
  opened: ReadonlySet<string>;
}

/**
 * The groups to load details for, in the order they are fetched, cut into batches: the first holds the
 * opened groups and the visible rows, then the rest of the shown rows, then every other group.
 */
export function detailBatches({ groups, shown, opened }: DetailPlanInput, limits: DetailBatchLimits = DEFAULT_DETAIL_BATCH_LIMITS): string[][] {
  const listed = new Set(groups.map((g) => g.groupId));
  const taken = new Set<string>();
  const take = (ids: Iterable<string>): string[] => {
    const added: string[] = [];
    for (const id of ids) {
      if (listed.has(id) && !taken.has(id)) {
        taken.add(id);
        added.push(id);
      }
    }
    return added;
  };
  const first = take([...opened, ...shown.slice(0, limits.visibleRows).map((g) => g.groupId)]);
  const rest = take([...shown.map((g) => g.groupId), ...groups.map((g) => g.groupId)]);
  const batches: string[][] = first.length > 0 ? [first] : [];
  for (let i = 0; i < rest.length; i += limits.batchSize) {
    batches.push(rest.slice(i, i + limits.batchSize));
  }
  return batches;
}

/**
 * Runs `load` over the batches in their order, at most `inFlight` at once; a `false` from one stops
 * the batches not started yet.
 */
export async function runBatches(batches: readonly string[][], inFlight: number, load: (ids: string[]) => Promise<boolean>): Promise<void> {
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (!stopped && next < batches.length) {
      if (!(await load(batches[next++]))) {
        stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, inFlight), batches.length) }, worker));
}

/**
 * A new listing over the rows shown: a group whose details were loaded keeps them (its state and type
 * from the listing, which is newer), so a refresh does not blank its lag; a new group shows as listed.
 */
export function mergeListing(previous: readonly GroupSummary[], listed: readonly GroupSummary[]): GroupSummary[] {
  const before = new Map(previous.map((g) => [g.groupId, g]));
  return listed.map((group) => {
    const known = before.get(group.groupId);
    if (!known || known.detailsPending || known.groupType !== group.groupType) {
      return group;
    }
    return known.state === group.state ? known : { ...known, state: group.state };
  });
}

/** The rows with the batch's summaries in place of theirs; the others as they were. */
export function withDetails(groups: readonly GroupSummary[], summaries: readonly GroupSummary[]): GroupSummary[] {
  const byId = new Map(summaries.map((s) => [s.groupId, s]));
  return groups.map((g) => byId.get(g.groupId) ?? g);
}

/** The summary part of a detail: what the tree keeps of a group (members and offsets stay with the source). */
export function summaryOfDetail(detail: GroupDetail): GroupSummary {
  const { members: _members, offsets: _offsets, leaderId: _leaderId, isolationLevel: _isolationLevel, consumerGroup: _c, shareGroup: _s, streamsGroup: _t, ...summary } = detail;
  return summary;
}
