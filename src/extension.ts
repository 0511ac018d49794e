/** Wires the sources, the consumer-group view and the commands; nothing else lives here. */
import * as vscode from 'vscode';
import { CONTEXT_KEYS } from './constants';
import { registerConnectionCommands } from './commands/connectionCommands';
import { registerExposeCommands } from './commands/exposeCommands';
import { SimulatorExposures } from './commands/simulatorExposures';
import { registerGroupAdminCommands } from './commands/groupAdminCommands';
import { registerTransactionCommands } from './commands/transactionCommands';
import { registerSimulatorCommands } from './commands/simulatorCommands';
import { registerViewCommands } from './commands/viewCommands';
import { pickLoadedGroup, registerGroupQueryCommands } from './commands/groupQueryCommands';
import { registerCopyCommands } from './commands/copyCommands';
import { ConnectionStore } from './sources/connectionStore';
import { createGroupsView } from './views/groupsView';
import { manageKafkaSources } from './sources/kafkaSources';
import { manageSimulatorSource } from './sources/simulatorSetting';
import { SourceRegistry } from './sources/sourceRegistry';
import { registerResetCommands } from './reset/resetCommands';
import { registerTimelineCommands } from './webview/registerTimeline';
import { registerDashboardCommand } from './dashboard/registerDashboard';
import { AgentTools } from './agent/agentTools';
import { AgentWrites } from './agent/agentWrites';
import { readOnlyToolSpecs, writeToolSpecs } from './agent/toolCatalog';
import { registerLanguageModelTools } from './chat/languageModelTools';

let registry: SourceRegistry | undefined;

/** What activate() returns: the seam the extension-host tests read the tree through. */
export interface KafkaGroupLensApi {
  groupsTree: vscode.TreeDataProvider<unknown>;
  /** Loads of a cluster's groups finished so far: user-requested (full) and background. */
  treeLoadCounts(sourceId: string): { full: number; background: number };
}

export function activate(context: vscode.ExtensionContext): KafkaGroupLensApi {
  const log = vscode.window.createOutputChannel('Kafka Group Lens', { log: true });
  context.subscriptions.push(log);

  const sources = new SourceRegistry();
  registry = sources;
  // One record of where simulators are exposed: the expose commands write it, Copy as CLI reads it.
  const exposures = new SimulatorExposures();
  const connections = new ConnectionStore(context.secrets);
  const view = createGroupsView(sources, log, undefined, context.workspaceState);
  // The agent's cluster tools are offered (their `when` clause) only while there is a cluster to ask.
  const updateHasClusters = (): void => void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasClusters, sources.list().length > 0);
  context.subscriptions.push({ dispose: sources.onDidChangeSources(updateHasClusters) });
  updateHasClusters();
  context.subscriptions.push(
    view,
    manageSimulatorSource(sources, log),
    manageKafkaSources(sources, connections, log),
    ...registerViewCommands(view, log),
    ...registerGroupQueryCommands(view, log),
    ...registerCopyCommands(sources, log),
    ...registerSimulatorCommands({ registry: sources, view, log }),
    ...registerConnectionCommands(connections, log),
    ...registerExposeCommands(sources, log, exposures),
    ...registerResetCommands({ registry: sources, view, log, context, exposures, pickGroup: (title) => pickLoadedGroup(view, title) }),
    ...registerGroupAdminCommands({ registry: sources, view, log, context }),
    ...registerTransactionCommands({ registry: sources, view, log }),
    registerDashboardCommand(
      context.extensionUri,
      {
        source: (id) => sources.get(id)?.source,
        waitFor: async (id, timeoutMs) => (await sources.waitFor(id, timeoutMs))?.source,
        series: (id, groupId) => view.health.series(id, groupId),
      },
      log,
    ),
  );
  // The editor's AI agent reads the same sources and tree figures (contributes.languageModelTools).
  const agentTools = new AgentTools({ sources: () => sources.list(), loadedGroups: () => view.loadedGroups() });
  // Its writes keep their undo records where "Undo Last Offset Change" reads them, as the tree's commands do.
  const agentWrites = new AgentWrites({ tools: agentTools, undoStore: context.workspaceState, refresh: (sourceId) => view.refreshSource(sourceId) });
  context.subscriptions.push(
    { dispose: () => agentTools.dispose() },
    ...registerLanguageModelTools([...readOnlyToolSpecs(agentTools), ...writeToolSpecs(agentWrites)], log),
  );
  registerTimelineCommands(
    context,
    {
      get: (clusterId) => sources.get(clusterId)?.source,
      waitFor: async (clusterId, timeoutMs) => (await sources.waitFor(clusterId, timeoutMs))?.source,
      onDidChangeSources: (listener) => sources.onDidChangeSources(listener),
      pickGroup: (title) => pickLoadedGroup(view, title),
    },
    log,
  );
  return { groupsTree: view.provider, treeLoadCounts: (sourceId) => view.loadCounts(sourceId) };
}

export async function deactivate(): Promise<void> {
  const sources = registry;
  registry = undefined;
  await sources?.disposeAll();
}
