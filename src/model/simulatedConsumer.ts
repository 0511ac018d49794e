/**
 * A consumer the simulator runs, as the tree shows it next to the member it became: plain data, so the views
 * read it without importing the simulator (which implements it, see `SimulatorControl.listConsumers`).
 */

export type SimulatedConsumerStatus = 'running' | 'paused' | 'stopped' | 'crashed';

export interface SimulatedConsumerInfo {
  /** Handle used by the control calls; stable across restarts. */
  handle: string;
  groupId: string;
  clientId: string;
  groupInstanceId: string | null;
  /** Member id the coordinator gave it, or null before it joined / after it left. */
  memberId: string | null;
  status: SimulatedConsumerStatus;
  /** Why a fatal error stopped it (e.g. FENCED_INSTANCE_ID), when one did. */
  error?: string;
}
