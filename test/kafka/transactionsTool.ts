/** kafka-transactions.sh (org.apache.kafka.tools.TransactionsCommand) from the broker's jars, and its tables read back. */
import * as path from 'node:path';
import { runJavaClass, type BrokerEnv } from './support';

export type Table = Array<Record<string, string>>;

/** Runs the tool asynchronously (the simulator's server answers from this process's event loop); its output lines. */
export function transactionsTool(env: BrokerEnv, bootstrap: string, ...args: string[]): Promise<string[]> {
  return runJavaClass(`${env.lib}${path.sep}*`, 'org.apache.kafka.tools.TransactionsCommand', ['--bootstrap-server', bootstrap, ...args]);
}

/** A table as ToolsUtils.prettyPrintTable prints it: a header line, then rows aligned under it. */
export function printedTable(lines: readonly string[], firstColumn: string): Table {
  const start = lines.findIndex((line) => line.startsWith(`${firstColumn} `) || line.startsWith(`${firstColumn}\t`));
  if (start < 0) {
    return [];
  }
  const header = lines[start];
  const columns = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], start: m.index ?? 0 }));
  return lines
    .slice(start + 1)
    .filter((line) => line.trim() !== '')
    .map((line) => Object.fromEntries(columns.map((c, i) => [c.name, line.slice(c.start, i + 1 < columns.length ? columns[i + 1].start : undefined).trim()])));
}
