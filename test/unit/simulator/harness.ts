/** Drives the simulated coordinator directly, the way a client's requests would. */
import type { RebalanceEvent } from '../../../src/model/types';
import type { KafkaErrorCode } from '../../../src/simulator/common/errors';
import type { JoinGroupProtocol, JoinGroupRequest, JoinGroupResponse, SyncGroupResponse } from '../../../src/simulator/common/requests';
import { Simulation, type SimulationOptions } from '../../../src/simulator/simulation';

export interface Harness {
  sim: Simulation;
  events: RebalanceEvent[];
  /** Events of one kind for one group, in order. */
  of(kind: RebalanceEvent['kind'], groupId?: string): RebalanceEvent[];
  transitions(groupId?: string): string[];
}

export function harness(options: SimulationOptions = {}): Harness {
  const sim = new Simulation({ seed: 7, ...options });
  sim.createTopic('t', 4);
  sim.createTopic('u', 2);
  const events: RebalanceEvent[] = [];
  sim.events.subscribe((e) => events.push(e));
  return {
    sim,
    events,
    of: (kind, groupId = 'g') => events.filter((e) => e.kind === kind && e.groupId === groupId),
    transitions: (groupId = 'g') =>
      events.filter((e) => e.kind === 'state-changed' && e.groupId === groupId).map((e) => `${e.stateBefore}->${e.stateAfter}`),
  };
}

export function protocols(names: string[] = ['range'], topics: string[] = ['t']): JoinGroupProtocol[] {
  return names.map((name) => ({ name, metadata: { topics, ownedPartitions: [], generationId: -1 } }));
}

export function joinRequest(overrides: Partial<JoinGroupRequest> = {}): JoinGroupRequest {
  return {
    groupId: 'g',
    sessionTimeoutMs: 10000,
    rebalanceTimeoutMs: 30000,
    memberId: '',
    groupInstanceId: null,
    protocolType: 'consumer',
    protocols: protocols(),
    clientId: 'client',
    clientHost: '/127.0.0.1',
    ...overrides,
  };
}

/** A slot filled when the response arrives through the event queue. */
export interface Pending<T> {
  response: T | null;
}

export function join(sim: Simulation, overrides: Partial<JoinGroupRequest> = {}): Pending<JoinGroupResponse> {
  const slot: Pending<JoinGroupResponse> = { response: null };
  sim.coordinator.joinGroup(joinRequest(overrides), (r) => {
    slot.response = r;
  });
  return slot;
}

/** Runs the two-step dynamic join (MEMBER_ID_REQUIRED, then the rejoin); returns the parked rejoin and the id. */
export function joinDynamic(sim: Simulation, clientId: string, overrides: Partial<JoinGroupRequest> = {}): { memberId: string; pending: Pending<JoinGroupResponse> } {
  const first = join(sim, { clientId, ...overrides });
  sim.advance(0);
  if (first.response?.errorCode !== 'MEMBER_ID_REQUIRED') {
    throw new Error(`expected MEMBER_ID_REQUIRED, got ${first.response?.errorCode}`);
  }
  const memberId = first.response.memberId;
  return { memberId, pending: join(sim, { clientId, memberId, ...overrides }) };
}

export function sync(sim: Simulation, memberId: string, generationId: number, assignments: Array<{ memberId: string; partitions: Array<{ topic: string; partition: number }> }> = [], groupInstanceId: string | null = null): Pending<SyncGroupResponse> {
  const slot: Pending<SyncGroupResponse> = { response: null };
  sim.coordinator.syncGroup(
    {
      groupId: 'g',
      generationId,
      memberId,
      groupInstanceId,
      protocolType: 'consumer',
      protocolName: null,
      assignments: assignments.map((a) => ({ memberId: a.memberId, assignment: { partitions: a.partitions } })),
    },
    (r) => {
      slot.response = r;
    },
  );
  return slot;
}

export function heartbeat(sim: Simulation, memberId: string, generationId: number, groupInstanceId: string | null = null): Pending<{ errorCode: KafkaErrorCode }> {
  const slot: Pending<{ errorCode: KafkaErrorCode }> = { response: null };
  sim.coordinator.heartbeat({ groupId: 'g', memberId, generationId, groupInstanceId }, (r) => {
    slot.response = r;
  });
  return slot;
}

export function commit(
  sim: Simulation,
  request: { groupId?: string; generationId: number; memberId?: string; groupInstanceId?: string | null; offset?: number; metadata?: string; topic?: string },
): Pending<KafkaErrorCode> {
  const slot: Pending<KafkaErrorCode> = { response: null };
  sim.coordinator.offsetCommit(
    {
      groupId: request.groupId ?? 'g',
      generationId: request.generationId,
      memberId: request.memberId ?? '',
      groupInstanceId: request.groupInstanceId ?? null,
      topics: [{ name: request.topic ?? 't', partitions: [{ partition: 0, offset: request.offset ?? 5, metadata: request.metadata }] }],
    },
    (r) => {
      slot.response = r.topics[0].partitions[0].errorCode;
    },
  );
  return slot;
}

export function state(sim: Simulation, groupId = 'g'): string {
  return sim.coordinator.group(groupId)?.state ?? 'Dead';
}
