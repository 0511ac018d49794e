/** Command-line options of the MCP server (`npm run mcp -- --config clusters.json`); secrets never come from here. */
import { BUILT_IN_SCENARIO_NAMES, isBuiltInScenarioName, type BuiltInScenarioName } from '../simulator/editor/simSource';
import type { LogLevel } from './stderrLog';

export interface McpArgs {
  /** The clusters JSON file (the kafkaGroupLens.clusters shape); without it the built-in simulator runs. */
  config?: string;
  /** Run the simulator as well as the configured clusters. */
  simulator: boolean;
  scenario: BuiltInScenarioName;
  /** Virtual ms per wall ms of the paced simulator. */
  speed: number;
  /** Run the simulator in virtual time to this many seconds and hold it there: a cluster that stays put. */
  frozenAtSeconds?: number;
  /** Seconds between reloads of every cluster's groups (the view's kafkaGroupLens.refreshIntervalSeconds); 0 turns polling off. */
  refreshSeconds: number;
  logLevel: LogLevel;
}

export const USAGE = `usage: mcp [--config <clusters.json>] [--simulator] [--scenario ${BUILT_IN_SCENARIO_NAMES.join('|')}] [--speed <n>] [--frozen-at <seconds>] [--refresh-seconds <n, default 5>] [--log-level debug|info|warn|error]
Without --config the built-in simulator runs; with it, the file's clusters (add --simulator for both).
Secrets come only from the environment variables the file names (sasl.passwordEnv, sasl.tokenEnv, tls.keyPassphraseEnv).`;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function numberAt(flag: string, value: string, minimum: number, inclusive: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (inclusive ? n < minimum : n <= minimum)) {
    throw new Error(`${flag} must be a number ${inclusive ? 'of at least' : 'above'} ${minimum}, got "${value}"\n${USAGE}`);
  }
  return n;
}

export function parseMcpArgs(argv: readonly string[]): McpArgs {
  const args: McpArgs = { simulator: false, scenario: 'demo', speed: 1, refreshSeconds: 5, logLevel: 'info' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--simulator') {
      args.simulator = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) {
      throw new Error(`${flag.startsWith('--') ? `${flag} needs a value` : `Unexpected "${flag}"`}\n${USAGE}`);
    }
    i++;
    switch (flag) {
      case '--config':
        args.config = value;
        break;
      case '--scenario':
        if (!isBuiltInScenarioName(value)) {
          throw new Error(`--scenario must be one of ${BUILT_IN_SCENARIO_NAMES.join(', ')}, got "${value}"`);
        }
        args.scenario = value;
        break;
      case '--speed':
        args.speed = numberAt(flag, value, 0, false);
        break;
      case '--frozen-at':
        args.frozenAtSeconds = numberAt(flag, value, 0, true);
        break;
      case '--refresh-seconds':
        args.refreshSeconds = numberAt(flag, value, 0, true);
        break;
      case '--log-level':
        if (!LOG_LEVELS.includes(value as LogLevel)) {
          throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
        }
        args.logLevel = value as LogLevel;
        break;
      default:
        throw new Error(`Unknown option "${flag}"\n${USAGE}`);
    }
  }
  if (args.config === undefined) {
    args.simulator = true;
  }
  return args;
}
