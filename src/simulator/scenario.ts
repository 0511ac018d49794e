/**
 * The scenario contract at its fixed path: `runScenario(scenario)` and the scenario types, as tests
 * and tools import them. The code lives in scenarios/runScenario.ts.
 */
export * from './scenarios/runScenario';
