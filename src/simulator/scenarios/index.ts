/**
 * JSON scenarios (docs/scenarios.md; no Kafka counterpart): their types, validation and work bound,
 * the built-in ones, and runScenario, which plays one on a Simulation in virtual time. The contract
 * path for runScenario is ../scenario.ts.
 */
export { runScenario } from './runScenario';
export { BUILT_IN_SCENARIOS, BUILT_IN_SCENARIO_NAMES, isBuiltInScenarioName } from './builtIn';
