/**
 * "Copy as CLI command": the kafka-consumer-groups.sh line equivalent to an action in the extension,
 * quoted for a POSIX shell.
 */
import type { ResetRequest, ResetScenario, TopicSelection } from './resetRequest';
import { formatTopicArg } from './resetRequest';

export interface CliCommandOptions {
  /** bootstrap.servers: one "host:port" string (comma separated) or a list. */
  bootstrapServers: string | readonly string[];
  /** Path of a --command-config properties file (SASL, TLS), if the cluster needs one. */
  commandConfigPath?: string;
  /** The script to call; kafka-consumer-groups.sh by default (kafka-consumer-groups on some distributions). */
  command?: string;
}

export interface ResetCommandOptions extends CliCommandOptions {
  mode: 'dry-run' | 'execute';
  /** Adds --export, which prints the plan as CSV. */
  export?: boolean;
  /** Where the CSV of a from-file scenario is saved; required for that scenario. */
  fromFilePath?: string;
  /** The scope options: --all-topics / --topic, or kafka-streams-groups.sh's --all-input-topics / --input-topic. */
  scopeFlags?: { all: string; topic: string };
}

const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A POSIX shell word for `value`: bare when it is made only of safe characters, else single-quoted. */
export function shellQuote(value: string): string {
  if (SHELL_SAFE.test(value)) {
    return value;
  }
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function commonArgs(groupId: string, options: CliCommandOptions): string[] {
  const servers = typeof options.bootstrapServers === 'string' ? options.bootstrapServers : options.bootstrapServers.join(',');
  if (servers.trim() === '') {
    throw new Error('The CLI command needs bootstrap servers');
  }
  const args = [options.command ?? 'kafka-consumer-groups.sh', '--bootstrap-server', servers];
  if (options.commandConfigPath !== undefined) {
    args.push('--command-config', options.commandConfigPath);
  }
  args.push('--group', groupId);
  return args;
}

function scenarioArgs(scenario: ResetScenario, fromFilePath: string | undefined): string[] {
  switch (scenario.kind) {
    case 'to-earliest':
    case 'to-latest':
    case 'to-current':
      return [`--${scenario.kind}`];
    case 'to-offset':
      return ['--to-offset', String(scenario.offset)];
    case 'shift-by':
      return ['--shift-by', String(scenario.shift)];
    case 'to-datetime':
      return ['--to-datetime', scenario.datetime];
    case 'by-duration':
      return ['--by-duration', scenario.duration];
    case 'from-file':
      if (fromFilePath === undefined || fromFilePath === '') {
        throw new Error('A from-file reset needs the path of its CSV file for the CLI command');
      }
      return ['--from-file', fromFilePath];
  }
}

function topicArgs(topics: readonly TopicSelection[], flag = '--topic'): string[] {
  return topics.flatMap((selection) => [flag, formatTopicArg(selection)]);
}

function join(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}

/** `kafka-consumer-groups.sh --bootstrap-server … --group g --reset-offsets --to-… <scope> --dry-run|--execute`. */
export function resetOffsetsCommand(request: ResetRequest, options: ResetCommandOptions): string {
  const args = [...commonArgs(request.groupId, options), '--reset-offsets', ...scenarioArgs(request.scenario, options.fromFilePath)];
  // The file is the scope of a from-file reset; the CLI needs no --topic / --all-topics then.
  if (request.scenario.kind !== 'from-file') {
    const flags = options.scopeFlags ?? { all: '--all-topics', topic: '--topic' };
    args.push(...(request.scope.kind === 'all-topics' ? [flags.all] : topicArgs(request.scope.topics, flags.topic)));
  }
  args.push(`--${options.mode}`);
  if (options.export) {
    args.push('--export');
  }
  return join(args);
}

/** `kafka-consumer-groups.sh … --delete --group g`. */
export function deleteGroupCommand(groupId: string, options: CliCommandOptions): string {
  return join([...commonArgs(groupId, options), '--delete']);
}

/** `kafka-consumer-groups.sh … --delete-offsets --group g --topic t[:p,…]…`. */
export function deleteOffsetsCommand(groupId: string, topics: readonly TopicSelection[], options: CliCommandOptions): string {
  if (topics.length === 0) {
    throw new Error('--delete-offsets needs at least one --topic');
  }
  return join([...commonArgs(groupId, options), '--delete-offsets', ...topicArgs(topics)]);
}
