import { strict as assert } from 'node:assert';
import { buildScenario, ScenarioValidationError, validateScenario } from '../../../../src/simulator/scenarios/runScenario';

function issuesOf(consumers: unknown[]): string[] {
  try {
    validateScenario({ durationMs: 1000, topics: [{ name: 'orders', partitions: 2 }], consumers });
  } catch (e) {
    if (e instanceof ScenarioValidationError) {
      return e.issues;
    }
    throw e;
  }
  return [];
}

describe('scenario validation of groupProtocol', () => {
  it('accepts classic by default, and consumer-protocol members with a server assignor, or a regex instead of topics', () => {
    assert.deepEqual(issuesOf([
      { id: 'a', groupId: 'g', topics: ['orders'] },
      { id: 'b', groupId: 'g', topics: ['orders'], groupProtocol: 'classic', assignors: ['cooperative-sticky'] },
      { id: 'c', groupId: 'k', topics: ['orders'], groupProtocol: 'consumer', groupRemoteAssignor: 'range' },
      { id: 'd', groupId: 'k', groupProtocol: 'consumer', subscribedTopicRegex: 'ord.*' },
    ]), []);
  });

  it('refuses the classic-only configs with the consumer protocol, as the Java consumer does', () => {
    assert.deepEqual(issuesOf([
      { id: 'a', groupId: 'g', topics: ['orders'], groupProtocol: 'consumer', assignors: ['range'], sessionTimeoutMs: 10000, heartbeatIntervalMs: 1000 },
    ]), [
      'scenario.consumers[0].assignors: partition.assignment.strategy cannot be set when group.protocol=CONSUMER (the coordinator decides it; see groupRemoteAssignor)',
      'scenario.consumers[0].sessionTimeoutMs: session.timeout.ms cannot be set when group.protocol=CONSUMER (the coordinator decides it; see groupRemoteAssignor)',
      'scenario.consumers[0].heartbeatIntervalMs: heartbeat.interval.ms cannot be set when group.protocol=CONSUMER (the coordinator decides it; see groupRemoteAssignor)',
    ]);
  });

  it('refuses an unknown protocol or server assignor, and the consumer-protocol settings on a classic member', () => {
    assert.deepEqual(issuesOf([
      { id: 'a', groupId: 'g', topics: ['orders'], groupProtocol: 'kip848' },
      { id: 'b', groupId: 'g', topics: ['orders'], groupProtocol: 'consumer', groupRemoteAssignor: 'sticky' },
      { id: 'c', groupId: 'g', topics: ['orders'], groupRemoteAssignor: 'uniform', subscribedTopicRegex: 'o.*' },
    ]), [
      'scenario.consumers[0].groupProtocol: expected "classic", "consumer" or "streams", got "kip848"',
      'scenario.consumers[1].groupRemoteAssignor: expected "uniform" or "range", got "sticky"',
      'scenario.consumers[2].groupRemoteAssignor: group.remote.assignor cannot be set when group.protocol=CLASSIC (use assignors)',
      'scenario.consumers[2].subscribedTopicRegex: a regex subscription resolved by the coordinator needs group.protocol=CONSUMER',
    ]);
  });

  it('wants topics or a valid regex, not both and not neither', () => {
    assert.deepEqual(issuesOf([
      { id: 'a', groupId: 'g', groupProtocol: 'consumer' },
      { id: 'b', groupId: 'g', topics: ['orders'], groupProtocol: 'consumer', subscribedTopicRegex: 'o.*' },
      { id: 'c', groupId: 'g', groupProtocol: 'consumer', subscribedTopicRegex: '(?=x)' },
      { id: 'd', groupId: 'g', groupProtocol: 'consumer', subscribedTopicRegex: '' },
    ]), [
      'scenario.consumers[0].topics: expected at least one topic, or a subscribedTopicRegex',
      'scenario.consumers[1].subscribedTopicRegex: a consumer subscribes to topics or to a pattern, not both: leave topics out',
      'scenario.consumers[2].subscribedTopicRegex: SubscribedTopicRegex `(?=x)` is not a valid regular expression: invalid or unsupported Perl syntax: `(?=`.',
      'scenario.consumers[3].subscribedTopicRegex: expected a non-empty regular expression, got ""',
    ]);
  });

  it('takes group.consumer.migration.policy as coordinator.consumerGroupMigrationPolicy, and refuses other values', () => {
    const scenario = { durationMs: 1000, topics: [{ name: 'orders', partitions: 2 }] };
    const { simulation } = buildScenario({ ...scenario, coordinator: { consumerGroupMigrationPolicy: 'disabled' } });
    assert.equal(simulation.coordinator.config.consumerGroupMigrationPolicy, 'disabled');
    simulation.dispose();
    assert.throws(
      () => validateScenario({ ...scenario, coordinator: { consumerGroupMigrationPolicy: 'sideways' } }),
      (e: unknown) =>
        e instanceof ScenarioValidationError &&
        e.issues.join() === 'scenario.coordinator.consumerGroupMigrationPolicy: expected one of "bidirectional", "upgrade", "downgrade", "disabled", got "sideways"',
    );
  });
});
