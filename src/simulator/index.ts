/**
 * The Kafka simulator: a deterministic, virtual-time Kafka cluster with simulated clients, laid out in
 * rooms named after Kafka's own modules. Each folder's index.ts says what it models and which Kafka
 * package it follows; scripts/checkImports.js holds their order (a room imports only rooms below it):
 *
 *   common/                         org.apache.kafka.common: clock, seeded random, errors, requests, event log
 *   log/                            the storage: partition logs, transaction index, stored coordinator records, the cluster
 *   assignors/                      the clients' classic assignors (clients.consumer.*Assignor); `assign` is a contract
 *   coordinator/, clients/          the group coordinator; the consumer and producer clients (never import each other)
 *   simulation.ts, live.ts          the `Simulation` facade wiring them, and its wall-clock driver
 *   admin/                          the simulation as Kafka's Admin client sees it (describe, list, delete, offsets)
 *   scenarios/, scenario.ts         JSON scenarios; scenario.ts is the fixed `runScenario` contract
 *   editor/, server/                the editor's cluster source; the Kafka wire-protocol server
 */
export { Simulation } from './simulation';
export { LiveSimulation } from './live';
export { runScenario } from './scenario';
