/** Command-line options of the standalone simulator server: `--port 9092 --scenario demo --speed 1`. */

export interface ServerArgs {
  /** Port of broker 1; broker n listens on port + n - 1. */
  port: number;
  /** "demo", or the path of a scenario JSON file. */
  scenario: string;
  speed: number;
}

export const USAGE = 'usage: simulator [--port <port, default 9092>] [--scenario demo|exactly-once|protocols|transactions|<file.json>] [--speed <virtual ms per wall ms, default 1>]';

function requireValue(argv: readonly string[], index: number, flag: string): string {
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) {
    throw new Error(`${flag} needs a value\n${USAGE}`);
  }
  return value;
}

export function parseServerArgs(argv: readonly string[]): ServerArgs {
  const args: ServerArgs = { port: 9092, scenario: 'demo', speed: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = requireValue(argv, i, flag);
    switch (flag) {
      case '--port': {
        const port = Number(value);
        if (!Number.isInteger(port) || port < 1 || port > 65535) {
          throw new Error(`--port must be an integer from 1 to 65535, got "${value}"`);
        }
        args.port = port;
        break;
      }
      case '--scenario':
        args.scenario = value;
        break;
      case '--speed': {
        const speed = Number(value);
        if (!Number.isFinite(speed) || speed <= 0) {
          throw new Error(`--speed must be a positive number, got "${value}"`);
        }
        args.speed = speed;
        break;
      }
      default:
        throw new Error(`Unknown option "${flag}"\n${USAGE}`);
    }
  }
  return args;
}
