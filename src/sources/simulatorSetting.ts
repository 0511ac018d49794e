/**
 * Keeps the built-in simulator in the source registry in step with its settings:
 * `kafkaGroupLens.simulator.enabled` starts or stops it live, `kafkaGroupLens.simulator.speed` restarts it
 * at the new pace and `kafkaGroupLens.simulator.scenario` restarts it with another built-in scenario.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS, SETTINGS } from '../constants';
import { BUILT_IN_SCENARIO_NAMES, isBuiltInScenarioName, type BuiltInScenarioName, type SimSource } from '../simulator/editor/simSource';
import { createSimulatorEntry } from './sourceEntries';
import { readCommittedLookup, type IsolationLevelLookup } from '../kafka/isolationLevels';
import type { SourceRegistry } from './sourceRegistry';
import { errorMessage } from '../protocol/errors';

const SIMULATOR_SETTINGS = [SETTINGS.simulatorEnabled, SETTINGS.simulatorSpeed, SETTINGS.simulatorScenario, SETTINGS.readCommittedGroups];

/** kafkaGroupLens.readCommittedGroups for the simulator's groups, simulated or real clients alike (a bad value is reported by kafkaSources). */
function readCommittedGroups(): IsolationLevelLookup {
  try {
    return readCommittedLookup(vscode.workspace.getConfiguration().get<unknown>(SETTINGS.readCommittedGroups, []));
  } catch {
    return readCommittedLookup([]);
  }
}

interface SimulatorSettings {
  enabled: boolean;
  speed: number;
  scenario: BuiltInScenarioName;
}

function readSettings(log: vscode.LogOutputChannel): SimulatorSettings {
  const config = vscode.workspace.getConfiguration();
  const enabled = config.get<boolean>(SETTINGS.simulatorEnabled, true) === true;
  let speed = config.get<number>(SETTINGS.simulatorSpeed, 1);
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0) {
    log.warn(`${SETTINGS.simulatorSpeed} must be a positive number; using 1`);
    speed = 1;
  }
  const scenarioSetting = config.get<unknown>(SETTINGS.simulatorScenario, 'demo');
  let scenario: BuiltInScenarioName = 'demo';
  if (isBuiltInScenarioName(scenarioSetting)) {
    scenario = scenarioSetting;
  } else {
    log.warn(`${SETTINGS.simulatorScenario} must be one of ${BUILT_IN_SCENARIO_NAMES.join(', ')}, got ${JSON.stringify(scenarioSetting)}; using demo`);
  }
  return { enabled, speed, scenario };
}

export function manageSimulatorSource(registry: SourceRegistry, log: vscode.LogOutputChannel): vscode.Disposable {
  let running: { source: SimSource; speed: number; scenario: BuiltInScenarioName } | undefined;
  // Changes are applied one after another so a quick off/on cannot start two simulators.
  let queue: Promise<void> = Promise.resolve();

  const stop = async (): Promise<void> => {
    if (!running) {
      return;
    }
    const { source } = running;
    running = undefined;
    await registry.remove(source.id);
    log.info('Simulator stopped');
  };

  const apply = async (): Promise<void> => {
    const settings = readSettings(log);
    if (!settings.enabled) {
      await stop();
    } else if (!running || running.speed !== settings.speed || running.scenario !== settings.scenario) {
      if (running) {
        log.info(`Restarting the simulator (${settings.scenario} scenario) at speed ${settings.speed}; the cluster starts over`);
      }
      await stop();
      const entry = createSimulatorEntry({ paced: true, speed: settings.speed, scenario: settings.scenario });
      const source = entry.source;
      registry.add(entry);
      running = { source, speed: settings.speed, scenario: settings.scenario };
      log.info(`Simulator started: ${settings.scenario} cluster "${source.label}" at speed ${settings.speed}`);
    }
    running?.source.setIsolationLevelLookup(readCommittedGroups());
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.simulatorActive, running !== undefined);
  };

  const schedule = (): void => {
    queue = queue.then(apply).catch((e: unknown) => {
      log.error(`Applying the simulator settings failed: ${errorMessage(e)}`);
      void vscode.window.showErrorMessage(`Kafka Group Lens: could not start the simulator: ${errorMessage(e)}`);
    });
  };

  schedule();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (SIMULATOR_SETTINGS.some((setting) => e.affectsConfiguration(setting))) {
      schedule();
    }
  });
  return {
    dispose: () => {
      listener.dispose();
      // The registry disposes the source itself at deactivation; here only the listener goes.
    },
  };
}
