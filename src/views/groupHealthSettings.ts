/** Reads the health thresholds and the samples' memory budget from the settings; a bad value falls back to its default. */
import * as vscode from 'vscode';
import { DEFAULT_LAG_EVALUATION_OPTIONS } from '../health/lagEvaluation';
import type { GroupHealthSettings } from './groupHealthTracker';
import { SETTINGS } from '../constants';

const MINUTE = 60_000;

function readNumber(key: string, fallback: number, minimum: number, warn: (message: string) => void): number {
  const value = vscode.workspace.getConfiguration().get<unknown>(key, fallback);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum) {
    warn(`${key} must be a number of at least ${minimum}; using ${fallback}`);
    return fallback;
  }
  return value;
}

export function readGroupHealthSettings(warn: (message: string) => void): GroupHealthSettings {
  const windowMinutes = readNumber(SETTINGS.healthWindowMinutes, DEFAULT_LAG_EVALUATION_OPTIONS.windowMs / MINUTE, 1, warn);
  const stoppedMinutes = readNumber(SETTINGS.healthStoppedAfterMinutes, DEFAULT_LAG_EVALUATION_OPTIONS.stoppedAfterMs / MINUTE, 1, warn);
  const warningSeconds = readNumber(SETTINGS.healthLagInTimeWarningSeconds, 0, 0, warn);
  const memoryMiB = readNumber(SETTINGS.healthSampleMemoryMiB, 64, 1, warn);
  return {
    evaluation: {
      ...DEFAULT_LAG_EVALUATION_OPTIONS,
      windowMs: windowMinutes * MINUTE,
      stoppedAfterMs: stoppedMinutes * MINUTE,
      lagInTimeWarningMs: warningSeconds > 0 ? warningSeconds * 1000 : null,
    },
    maxBytes: Math.round(memoryMiB * 1024 * 1024),
  };
}

/** True when a configuration change touches one of the health settings. */
export function affectsGroupHealth(event: vscode.ConfigurationChangeEvent): boolean {
  return [SETTINGS.healthWindowMinutes, SETTINGS.healthStoppedAfterMinutes, SETTINGS.healthLagInTimeWarningSeconds, SETTINGS.healthSampleMemoryMiB]
    .some((key) => event.affectsConfiguration(key));
}
