/**
 * The agent tools as a standalone MCP server over stdio, for agents outside the editor:
 * `npm run mcp` (the built-in simulator) or `npm run mcp -- --config clusters.json` (real clusters).
 * stdout carries the protocol only; the log goes to stderr. Ends when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import manifest from '../../package.json';
import { AgentTools } from '../agent/agentTools';
import { AgentWrites } from '../agent/agentWrites';
import { readOnlyToolSpecs, writeToolSpecs } from '../agent/toolCatalog';
import { readCommittedLookup } from '../kafka/isolationLevels';
import type { UndoStore } from '../offsets/undo';
import { errorMessage } from '../protocol/errors';
import { createKafkaEntry, createSimulatorEntry, UnusableSource } from '../sources/sourceEntries';
import { SourceRegistry } from '../sources/sourceRegistry';
import { parseMcpArgs, type McpArgs } from './cliArgs';
import { readClusterConfig } from './clusterConfig';
import { McpGroups } from './mcpGroups';
import { createMcpServer } from './mcpServer';
import { StderrLog } from './stderrLog';
import { MCP_TOOLS } from './toolDeclarations';

/** How long a call waits for the clusters' first loads before answering from what has loaded. */
const FIRST_LOAD_WAIT_MS = 15_000;

/** The writes' undo records, for this process's life: the server has no "Undo Last Offset Change". */
class MemoryUndoStore implements UndoStore {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

function registerSources(args: McpArgs, registry: SourceRegistry, log: StderrLog): void {
  if (args.simulator) {
    const frozen = args.frozenAtSeconds !== undefined;
    const entry = createSimulatorEntry({ paced: !frozen, speed: args.speed, scenario: args.scenario });
    if (args.frozenAtSeconds !== undefined) {
      entry.source.advance(args.frozenAtSeconds * 1000);
    }
    registry.add(entry);
    log.info(`Simulator "${entry.source.label}" ${frozen ? `held at ${args.frozenAtSeconds} s of virtual time` : `running at speed ${args.speed}`}`);
  }
  if (args.config === undefined) {
    return;
  }
  const { clusters, problems } = readClusterConfig(args.config, process.env);
  for (const problem of problems) {
    log.warn(`${args.config}: ignored: ${problem}`);
  }
  for (const cluster of clusters) {
    const { config } = cluster;
    if (registry.get(config.id)) {
      log.warn(`${args.config}: cluster id "${config.id}" is taken; rename it`);
      continue;
    }
    if ('unusable' in cluster) {
      log.error(`Cluster "${config.name}" cannot be used: ${cluster.unusable}`);
      registry.add({ source: new UnusableSource(config, cluster.unusable, 'authentication') });
      continue;
    }
    try {
      registry.add(createKafkaEntry(config, cluster.secrets, { logger: log, isolationLevelFor: readCommittedLookup([]) }));
      log.info(`Cluster "${config.name}" added (${config.bootstrapServers.join(',')})`);
    } catch (e) {
      log.error(`Cluster "${config.name}" cannot be used: ${errorMessage(e)}`);
      registry.add({ source: new UnusableSource(config, errorMessage(e)) });
    }
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const args = parseMcpArgs(argv);
  const log = new StderrLog(args.logLevel);
  // Nothing a client or a cluster sends may end the server through a stray rejection: it is logged.
  process.on('unhandledRejection', (reason) => log.error(`Unhandled rejection: ${errorMessage(reason)}`));
  const registry = new SourceRegistry();
  registerSources(args, registry, log);
  const groups = new McpGroups(registry, log, args.refreshSeconds);
  const tools = new AgentTools({ sources: () => registry.list(), loadedGroups: () => groups.loadedGroups(), loadFailure: (id) => groups.loadFailure(id) });
  const writes = new AgentWrites({ tools, undoStore: new MemoryUndoStore(), refresh: (sourceId) => groups.refreshSource(sourceId) });
  const server = createMcpServer({
    declarations: MCP_TOOLS,
    specs: [...readOnlyToolSpecs(tools), ...writeToolSpecs(writes)],
    log,
    ready: () => groups.settled(FIRST_LOAD_WAIT_MS),
    version: manifest.version,
  });
  let stopping = false;
  const stop = (why: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    log.info(`Stopping (${why})`);
    tools.dispose();
    groups.dispose();
    void registry.disposeAll().finally(() => process.exit(0));
  };
  server.onerror = (error) => log.warn(`Protocol: ${errorMessage(error)}`);
  server.onclose = () => stop('the client closed the connection');
  process.stdin.once('end', () => stop('stdin ended'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await server.connect(new StdioServerTransport());
  log.info(`Kafka Group Lens MCP server ready: ${MCP_TOOLS.length} tools on stdio`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`kafka-group-lens mcp: ${errorMessage(e)}\n`);
  process.exit(2);
});
