/**
 * JoinGroup v8+ and LeaveGroup v5+ carry the client's reason; the server hands it to the engine's
 * coordinator, whose cause strings then read as a broker's log does ("client reason: ..."). Sent
 * through the generated codecs at the versions Kafka 4.4's Java client uses.
 */
import assert from 'node:assert/strict';
import { JoinGroupRequest } from '../../../../src/protocol/messages/joinGroupRequest';
import { JoinGroupResponse } from '../../../../src/protocol/messages/joinGroupResponse';
import { LeaveGroupRequest } from '../../../../src/protocol/messages/leaveGroupRequest';
import { LeaveGroupResponse } from '../../../../src/protocol/messages/leaveGroupResponse';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { subscriptionToWire } from '../../../../src/simulator/server/memberProtocol';
import { codecExchange, coordinatorPort, startServer, waitFor, type ServerUnderTest } from './serverTestKit';

const GROUP = 'with-reasons';

describe('simulator Kafka server: JoinGroup and LeaveGroup reasons', function () {
  this.timeout(30000);
  let env: ServerUnderTest;

  before(async () => {
    env = await startServer();
  });

  after(async () => {
    await env?.stop();
  });

  const join = (memberId: string, reason: string | null) =>
    codecExchange(coordinatorPort(env, GROUP), JoinGroupRequest, JoinGroupResponse, 9, {
      groupId: GROUP,
      sessionTimeoutMs: 10000,
      rebalanceTimeoutMs: 10000,
      memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: subscriptionToWire({ topics: ['orders'], ownedPartitions: [], generationId: -1 }) }],
      reason,
    });

  it('asks a new member for its id (v4+), then puts its rejoin reason into the join cause; a leave carries its reason', async () => {
    const first = await join('', null);
    assert.equal(first.errorCode, errorCodeOf('MEMBER_ID_REQUIRED'));
    assert.ok(first.memberId.length > 0);
    const reason = `need to re-join with the given member-id: ${first.memberId}`;
    const joined = await join(first.memberId, reason);
    assert.equal(joined.errorCode, 0);
    assert.equal(joined.generationId, 1);
    assert.equal(joined.skipAssignment, false);
    const causes = (): string[] => env.sim.events.forGroup(GROUP).map((e) => e.cause ?? '');
    assert.ok(causes().some((c) => c.includes(`client reason: ${reason}`)), causes().join('\n'));

    const left = await codecExchange(coordinatorPort(env, GROUP), LeaveGroupRequest, LeaveGroupResponse, 5, {
      groupId: GROUP,
      members: [{ memberId: first.memberId, groupInstanceId: null, reason: 'the consumer is being closed' }],
    });
    assert.equal(left.errorCode, 0);
    assert.deepEqual(left.members?.map((m) => [m.memberId, m.errorCode]), [[first.memberId, 0]]);
    await waitFor('the leave in the event log', () => env.sim.events.forGroup(GROUP).some((e) => e.kind === 'member-left'));
    const leave = env.sim.events.forGroup(GROUP).find((e) => e.kind === 'member-left');
    assert.equal(leave?.cause, 'the consumer is being closed');
  });
});
