import { strict as assert } from 'node:assert';
import { Heartbeat } from '../../../../../../src/simulator/clients/consumer/internals/heartbeat';

const CONFIG = { sessionTimeoutMs: 10000, heartbeatIntervalMs: 3000, maxPollIntervalMs: 20000 };

describe('Heartbeat (the consumer\'s heartbeat timers)', () => {
  it('is due one interval after it was sent, with nothing in flight until then', () => {
    const heartbeat = new Heartbeat(CONFIG, 1000);
    assert.equal(heartbeat.shouldHeartbeat(3999), false);
    assert.equal(heartbeat.timeToNextHeartbeat(2500), 1500);
    assert.equal(heartbeat.shouldHeartbeat(4000), true);
    heartbeat.sentHeartbeat(4000);
    assert.equal(heartbeat.hasInflight(), true);
    assert.equal(heartbeat.nextHeartbeatTime(), 7000);
    assert.equal(heartbeat.timeToNextHeartbeat(8000), 0, 'overdue is zero, never negative');
    heartbeat.receiveHeartbeat(4010);
    assert.equal(heartbeat.hasInflight(), false);
  });

  it('expires the poll timer max.poll.interval.ms after the last poll()', () => {
    const heartbeat = new Heartbeat(CONFIG, 0);
    heartbeat.poll(5000);
    assert.equal(heartbeat.lastPollTime(), 5000);
    assert.equal(heartbeat.pollDeadline(), 25000);
    assert.equal(heartbeat.pollTimeoutExpired(24999), false);
    assert.equal(heartbeat.pollTimeoutExpired(25000), true);
  });

  it('expires the session session.timeout.ms after the last answered heartbeat', () => {
    const heartbeat = new Heartbeat(CONFIG, 0);
    assert.equal(heartbeat.sessionTimeoutExpired(9999), false);
    heartbeat.receiveHeartbeat(9000);
    assert.equal(heartbeat.sessionTimeoutExpired(18999), false);
    assert.equal(heartbeat.sessionTimeoutExpired(19000), true);
  });

  it('starts every timer over on resetTimeouts, and only the heartbeat timer on resetHeartbeatTimer', () => {
    const heartbeat = new Heartbeat(CONFIG, 0);
    heartbeat.resetHeartbeatTimer(50000);
    assert.equal(heartbeat.nextHeartbeatTime(), 53000);
    assert.equal(heartbeat.pollTimeoutExpired(50000), true, 'the poll timer was left alone');
    heartbeat.resetTimeouts(50000);
    assert.equal(heartbeat.pollTimeoutExpired(50000), false);
    assert.equal(heartbeat.sessionTimeoutExpired(59999), false);
    assert.equal(heartbeat.nextHeartbeatTime(), 53000);
  });
});
