/**
 * Standalone simulator server: `npm run simulator -- --port 9092 --scenario demo`. Runs the
 * scenario paced to the wall clock with one loopback listener per simulated broker, until stopped.
 */
import { readFileSync } from 'node:fs';
import { buildScenario } from '../scenarios/runScenario';
import { BUILT_IN_SCENARIO_NAMES, BUILT_IN_SCENARIOS, isBuiltInScenarioName } from '../scenarios/builtIn';
import { parseServerArgs, type ServerArgs } from './cliArgs';
import { SimKafkaServer } from './kafkaServer';
import { errorMessage } from '../../protocol/errors';

function loadScenario(name: string): unknown {
  if (isBuiltInScenarioName(name)) {
    return BUILT_IN_SCENARIOS[name];
  }
  try {
    return JSON.parse(readFileSync(name, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`Cannot read scenario "${name}" (expected ${BUILT_IN_SCENARIO_NAMES.map((n) => `"${n}"`).join(', ')} or a JSON file): ${errorMessage(error)}`);
  }
}

async function main(args: ServerArgs): Promise<void> {
  const { simulation, scenario } = buildScenario(loadScenario(args.scenario), { startTime: Date.now() });
  const server = new SimKafkaServer(simulation, { basePort: args.port, speed: args.speed });
  const endpoints = await server.start();
  process.stdout.write(`Simulated cluster "${simulation.cluster.clusterId}" running scenario "${scenario.name ?? args.scenario}" at speed ${args.speed}\n`);
  for (const e of endpoints) {
    process.stdout.write(`  broker ${e.nodeId}: ${e.host}:${e.port}\n`);
  }
  process.stdout.write(`bootstrap servers: ${server.bootstrapServers.join(',')}\n`);
  const stop = (): void => {
    void server.close().then(() => {
      simulation.dispose();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

try {
  main(parseServerArgs(process.argv.slice(2))).catch((error: unknown) => {
    process.stderr.write(`${errorMessage(error)}\n`);
    process.exit(1);
  });
} catch (error) {
  process.stderr.write(`${errorMessage(error)}\n`);
  process.exit(1);
}
