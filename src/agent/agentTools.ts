/**
 * The read-only tools the editor's AI agent calls (list, describe, rebalance history, lag explanation, reset
 * plan, simulation), over the registered sources and the figures the tree shows. Each answer is bounded text;
 * bad input throws an Error that says what to send instead. No `vscode` import: the chat adapter is src/chat/.
 */
import type { ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { GroupDetail, GroupSummary, RebalanceEvent } from '../model/types';
import type { ResetPreview } from '../offsets/resetPreview';
import { errorMessage } from '../protocol/errors';
import { resetRoute, type ResetRoute } from '../reset/resetRoute';
import { runScenario, ScenarioValidationError } from '../simulator/scenario';
import type { RegisteredSource } from '../sources/sourceRegistry';
import { DEFAULT_GROUP_SORT, defaultSortFor, GROUP_SORT_KEYS, parseGroupFilter, queryGroups, type GroupSortKey } from '../views/groupQuery';
import { formatHistory, formatLagExplanation, type TimeWindow } from './historyText';
import { formatResetPreview, formatScenarioResult, resetRequestOf, type ResetToolInput } from './planText';
import { clampLimit, formatGroupDetail, formatGroupList, TOOL_LIMITS, type ClusterGroups } from './toolText';

/** A cluster's groups as the tree holds them (GroupsView.loadedGroups): the figures the rows show, with health. */
export interface TreeClusterGroups {
  sourceId: string;
  label: string;
  groups: readonly GroupSummary[];
}

export interface AgentToolDeps {
  /** The registered sources in display order (SourceRegistry.list). */
  sources(): readonly RegisteredSource[];
  /** The tree's loaded clusters; a cluster missing here is not loaded yet. */
  loadedGroups(): readonly TreeClusterGroups[];
  /** Why a cluster's groups could not be loaded, when its last load failed (a host without a tree may say). */
  loadFailure?(sourceId: string): string | undefined;
  /** Epoch milliseconds, for "the last N minutes" of a real cluster's history. */
  now?: () => number;
}

export interface ListGroupsInput {
  cluster?: string;
  /** The tree's filter language: `payments-*`, `state:empty`, `has:lag`, `health:stalled`, `type:share`. */
  filter?: string;
  sortBy?: GroupSortKey;
  limit?: number;
}

export interface GroupInput {
  cluster?: string;
  group: string;
}

export interface HistoryInput extends GroupInput {
  /** Only events of the last N minutes (of virtual time for a simulation run in virtual time). */
  lastMinutes?: number;
  /** Window bounds: ISO-8601 datetimes, or seconds of virtual time ("12.5") for a virtual-time simulation. */
  from?: string;
  to?: string;
  limit?: number;
}

export interface SimulateInput {
  /** The scenario (docs/scenarios.md), as an object or as JSON text. */
  scenario: unknown;
  limit?: number;
}

/** Real-cluster history reads kept running for the agent; past this, the one asked about longest ago ends. */
export const MAX_HISTORY_WATCHES = 20;

/** The longest scenario the tool runs: it runs inside the editor, and a month of virtual time takes a while. */
export const MAX_SIMULATED_MS = 3600_000;

const FILTER_HELP = 'Filter words (all must match): a glob or substring of the group id, state:stable,empty, type:classic|consumer|share|streams, health:ok|warning|stalled|stopped|rewind|error, has:lag, no:lag, has:members, no:members';

/** A planned reset with what it was planned on: the write tool executes exactly this. */
export interface PlannedResetTool {
  entry: RegisteredSource & { admin: NonNullable<RegisteredSource['admin']> };
  route: ResetRoute;
  preview: ResetPreview;
  text: string;
}

function requireText(value: unknown, name: string, example: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`"${name}" is required: a string such as ${example}`);
  }
  return value.trim();
}

export class AgentTools {
  /** Rebalance-history watches started for the agent on real clusters, ended by dispose(). */
  private readonly watches = new Map<string, Unsubscribe>();

  constructor(private readonly deps: AgentToolDeps) {}

  /**
   * The cluster named by id or label. With no name: the only cluster, or else the one cluster whose loaded
   * groups hold `groupId` (a model asking about a group seldom knows which cluster has it).
   */
  cluster(name: string | undefined, groupId?: unknown): RegisteredSource {
    const entries = this.deps.sources();
    const known = entries.map((e) => `"${e.source.label}" (id ${e.source.id})`).join(', ');
    if (entries.length === 0) {
      throw new Error('No clusters are configured: enable kafkaGroupLens.simulator.enabled or run "Kafka Group Lens: Add Cluster…"');
    }
    if (name === undefined || name.trim() === '') {
      if (entries.length === 1) {
        return entries[0];
      }
      const holding = typeof groupId === 'string' ? this.clustersHolding(entries, groupId.trim()) : [];
      if (holding.length === 1) {
        return holding[0];
      }
      const which = holding.length > 1 ? `"${String(groupId)}" is in ${holding.map((e) => `"${e.source.label}"`).join(' and ')}` : `There are ${entries.length} clusters`;
      throw new Error(`${which}; name one in "cluster": ${known}`);
    }
    const wanted = name.trim().toLowerCase();
    const found = entries.find((e) => e.source.id.toLowerCase() === wanted) ?? entries.find((e) => e.source.label.toLowerCase() === wanted);
    if (!found) {
      throw new Error(`No cluster "${name}"; the clusters are ${known}`);
    }
    return found;
  }

  private clustersHolding(entries: readonly RegisteredSource[], groupId: string): RegisteredSource[] {
    const loaded = this.deps.loadedGroups();
    return entries.filter((e) => loaded.find((c) => c.sourceId === e.source.id)?.groups.some((g) => g.groupId === groupId));
  }

  private treeSummary(sourceId: string, groupId: string): GroupSummary | undefined {
    return this.deps.loadedGroups().find((c) => c.sourceId === sourceId)?.groups.find((g) => g.groupId === groupId);
  }

  /** The group's detail with the tree's health and lag in time; an error when the cluster has no such group. */
  private async groupDetail(entry: RegisteredSource, groupId: string): Promise<GroupDetail> {
    const source = entry.source;
    const detail = source.loadGroupDetails ? ((await source.loadGroupDetails([groupId]))[0] ?? (await source.describeGroup(groupId))) : await source.describeGroup(groupId);
    const summary = this.treeSummary(source.id, groupId);
    if (!summary && (detail.state === 'Dead' || detail.state === 'Unknown') && detail.members.length === 0 && detail.offsets.length === 0) {
      throw new Error(`Cluster "${source.label}" has no group "${groupId}"; call listGroups (with a filter such as "${groupId.slice(0, 4)}*") to find its exact id`);
    }
    return {
      ...detail,
      ...(summary?.health ? { health: summary.health } : {}),
      ...(detail.maxLagInTimeMs === undefined && summary?.maxLagInTimeMs !== undefined ? { maxLagInTimeMs: summary.maxLagInTimeMs } : {}),
    };
  }

  listGroups(input: ListGroupsInput): string {
    const parsed = parseGroupFilter(input.filter ?? '');
    if (!parsed.ok) {
      throw new Error(`Bad "filter": ${parsed.error}. ${FILTER_HELP}`);
    }
    if (input.sortBy !== undefined && !GROUP_SORT_KEYS.includes(input.sortBy)) {
      throw new Error(`Bad "sortBy" "${String(input.sortBy)}": use one of ${GROUP_SORT_KEYS.join(', ')}`);
    }
    const sort = input.sortBy ? defaultSortFor(input.sortBy) : DEFAULT_GROUP_SORT;
    const entries = input.cluster === undefined ? this.deps.sources() : [this.cluster(input.cluster)];
    const loaded = this.deps.loadedGroups();
    const clusters: ClusterGroups[] = entries.map(({ source }) => {
      const groups = loaded.find((c) => c.sourceId === source.id)?.groups;
      const failure = groups ? undefined : this.deps.loadFailure?.(source.id);
      return { sourceId: source.id, label: source.label, kind: source.kind, ...(groups ? { groups, matching: queryGroups(groups, parsed.filter, sort) } : {}), ...(failure ? { failure } : {}) };
    });
    return formatGroupList(clusters, input.filter ?? '', clampLimit(input.limit, TOOL_LIMITS.groupsDefault, TOOL_LIMITS.groupsMax));
  }

  async describeGroup(input: GroupInput): Promise<string> {
    const entry = this.cluster(input.cluster, input.group);
    return formatGroupDetail(await this.groupDetail(entry, requireText(input.group, 'group', '"orders-processor"')), entry.source.label);
  }

  /** The group's kept events; on a real cluster the first call starts reading its history from __consumer_offsets. */
  private events(source: ClusterSource, groupId: string): { events: RebalanceEvent[]; note?: string } {
    if (!source.rebalanceEvents) {
      return { events: [], note: `Cluster "${source.label}" keeps no rebalance history.` };
    }
    const key = `${source.id}\n${groupId}`;
    let note: string | undefined;
    if (source.watchRebalances && !this.watches.has(key)) {
      const [oldest] = this.watches;
      if (oldest && this.watches.size >= MAX_HISTORY_WATCHES) {
        oldest[1]();
        this.watches.delete(oldest[0]);
      }
      this.watches.set(key, source.watchRebalances(groupId, () => undefined));
      note = 'Reading of this group\'s history from __consumer_offsets started just now; ask again in a few seconds for events before this call.';
    }
    return { events: source.rebalanceEvents(groupId), ...(note ? { note } : {}) };
  }

  private window(input: HistoryInput, timeBase: 'epoch' | 'virtual', events: readonly RebalanceEvent[]): TimeWindow {
    const bound = (text: string | undefined, name: string): number | undefined => {
      if (text === undefined || text.trim() === '') {
        return undefined;
      }
      const value = timeBase === 'virtual' ? Number(text.replace(/^\+/, '').replace(/\s*s$/, '')) * 1000 : Date.parse(text);
      if (!Number.isFinite(value)) {
        throw new Error(timeBase === 'virtual'
          ? `Bad "${name}" "${text}": this simulation runs in virtual time; give seconds since its start, e.g. "12.5"`
          : `Bad "${name}" "${text}": give an ISO-8601 datetime such as "2026-12-06T09:00:00Z"`);
      }
      return value;
    };
    const window: TimeWindow = {};
    const from = bound(input.from, 'from');
    const to = bound(input.to, 'to');
    if (input.lastMinutes !== undefined) {
      if (typeof input.lastMinutes !== 'number' || !(input.lastMinutes > 0)) {
        throw new Error('"lastMinutes" must be a positive number of minutes');
      }
      // Virtual time has no wall clock: "now" is the newest event.
      const now = timeBase === 'virtual' ? (events[events.length - 1]?.time ?? 0) : (this.deps.now ?? Date.now)();
      window.fromMs = now - input.lastMinutes * 60_000;
    }
    if (from !== undefined) {
      window.fromMs = Math.max(from, window.fromMs ?? from);
    }
    if (to !== undefined) {
      window.toMs = to;
    }
    return window;
  }

  rebalanceHistory(input: HistoryInput): string {
    const entry = this.cluster(input.cluster, input.group);
    const groupId = requireText(input.group, 'group', '"orders-processor"');
    const timeBase = entry.source.timeBase ?? 'epoch';
    const { events, note } = this.events(entry.source, groupId);
    const text = formatHistory(groupId, events, this.window(input, timeBase, events), clampLimit(input.limit, TOOL_LIMITS.eventsDefault, TOOL_LIMITS.eventsMax), timeBase);
    return note ? `${text}\n${note}` : text;
  }

  async explainLag(input: GroupInput): Promise<string> {
    const entry = this.cluster(input.cluster, input.group);
    const detail = await this.groupDetail(entry, requireText(input.group, 'group', '"orders-processor"'));
    return formatLagExplanation(detail, detail.health, this.events(entry.source, detail.groupId).events, entry.source.timeBase ?? 'epoch');
  }

  /** The reset preview's own plan (the panel's code path), with the route its execution must take. */
  async planResetFor(input: ResetToolInput): Promise<PlannedResetTool> {
    const entry = this.cluster(input.cluster, input.group);
    const admin = entry.admin;
    if (!admin) {
      throw new Error(`Cluster "${entry.source.label}" cannot administer groups, so its offsets cannot be reset`);
    }
    const request = resetRequestOf({ ...input, group: requireText(input.group, 'group', '"billing-archive"') });
    const detail = await this.groupDetail(entry, request.groupId);
    const route = resetRoute(detail, admin, request.groupId);
    if (route.scenarios && !route.scenarios.includes(request.scenario.kind)) {
      throw new Error(`A ${route.kind} group's reset has no --${request.scenario.kind}; use one of ${route.scenarios.join(', ')}`);
    }
    const preview = await route.preview(request);
    return { entry: { ...entry, admin }, route, preview, text: formatResetPreview(preview, entry.source.label) };
  }

  async planReset(input: ResetToolInput): Promise<string> {
    return (await this.planResetFor(input)).text;
  }

  simulate(input: SimulateInput): string {
    let scenario: unknown = input.scenario;
    if (typeof scenario === 'string') {
      try {
        scenario = JSON.parse(scenario);
      } catch (e) {
        throw new Error(`"scenario" is not valid JSON (${errorMessage(e)}); send the scenario object of docs/scenarios.md`);
      }
    }
    if (typeof scenario !== 'object' || scenario === null) {
      throw new Error('"scenario" is required: an object with topics, consumers, actions and durationMs (docs/scenarios.md)');
    }
    const durationMs = (scenario as { durationMs?: unknown }).durationMs;
    if (typeof durationMs === 'number' && durationMs > MAX_SIMULATED_MS) {
      throw new Error(`"durationMs" ${durationMs} is more than this tool runs (${MAX_SIMULATED_MS} ms, one hour of virtual time); shorten the scenario`);
    }
    try {
      return formatScenarioResult(runScenario(scenario), clampLimit(input.limit, TOOL_LIMITS.eventsDefault, TOOL_LIMITS.eventsMax));
    } catch (e) {
      if (e instanceof ScenarioValidationError) {
        throw new Error(`${e.message}\nFix those fields (docs/scenarios.md describes the format) and call again`);
      }
      throw e;
    }
  }

  dispose(): void {
    for (const stop of this.watches.values()) {
      stop();
    }
    this.watches.clear();
  }
}
