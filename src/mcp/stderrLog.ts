/**
 * The MCP server's log: stdout carries the protocol, so every line goes to stderr, where MCP clients show or
 * keep a server's output. Satisfies kafkajs's logger (KafkaLogger), whose lines come with secrets removed.
 */
import type { KafkaLogger } from '../kafka/connection';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export class StderrLog implements KafkaLogger {
  constructor(private readonly level: LogLevel = 'info', private readonly write: (line: string) => void = (line) => void process.stderr.write(line)) {}

  private log(level: LogLevel, message: string): void {
    if (ORDER[level] >= ORDER[this.level]) {
      this.write(`${new Date().toISOString()} [${level}] ${message}\n`);
    }
  }

  debug(message: string): void {
    this.log('debug', message);
  }

  info(message: string): void {
    this.log('info', message);
  }

  warn(message: string): void {
    this.log('warn', message);
  }

  error(message: string): void {
    this.log('error', message);
  }
}
