/** The built-in scenarios, by the name the editor's setting and `npm run simulator -- --scenario` use. */
import type { Scenario } from './scenarioSchema';
import { DEMO_SCENARIO } from './demo';
import { EXACTLY_ONCE_SCENARIO } from './exactlyOnce';
import { PROTOCOLS_SCENARIO } from './protocols';
import { STREAMS_SCENARIO } from './streams';
import { TRANSACTIONS_SCENARIO } from './transactions';

export const BUILT_IN_SCENARIOS = {
  demo: DEMO_SCENARIO,
  'exactly-once': EXACTLY_ONCE_SCENARIO,
  protocols: PROTOCOLS_SCENARIO,
  streams: STREAMS_SCENARIO,
  transactions: TRANSACTIONS_SCENARIO,
} as const satisfies Record<string, Scenario>;

export type BuiltInScenarioName = keyof typeof BUILT_IN_SCENARIOS;

export const BUILT_IN_SCENARIO_NAMES = Object.keys(BUILT_IN_SCENARIOS) as BuiltInScenarioName[];

export function isBuiltInScenarioName(name: unknown): name is BuiltInScenarioName {
  return typeof name === 'string' && Object.hasOwn(BUILT_IN_SCENARIOS, name);
}
