// Types for broker.js, so TypeScript tests and benchmarks can start a broker through the same harness.
import type { ChildProcess } from 'child_process';

export interface BrokerHandle {
  dir: string;
  lib: string;
  logFile: string;
  /** PLAINTEXT listener, host:port. */
  bootstrap: string;
  /** SASL_PLAINTEXT listener (SCRAM-SHA-256/512 and PLAIN), host:port. */
  saslBootstrap: string;
  user: string;
  password: string;
  process: ChildProcess | null;
}

export const KAFKA_VERSION: string;
export function freePorts(count: number): Promise<number[]>;
export function randomClusterId(randomBytes?: (size: number) => Buffer): string;
export function ensureKafkaLib(version?: string): string;
export function startBroker(options?: { startTimeoutMs?: number; version?: string }): Promise<BrokerHandle>;
export function stopBroker(handle: BrokerHandle): Promise<void>;
export function stopBrokerSync(handle: BrokerHandle): void;
export function logTail(logFile: string): string;
