/**
 * The test context of the consumer-group engine, after Kafka's GroupMetadataManagerTestContext: a manual
 * clock and CoordinatorTimer (MockCoordinatorTimer), an in-memory topic image, the records and events
 * written, a ConsumerGroupBuilder that seeds a group through records, and a MockPartitionAssignor.
 */
import * as assert from 'node:assert/strict';
import type { RebalanceEvent } from '../../../../../../../src/model/types';
import type { ConsumerGroupHeartbeatRequestData } from '../../../../../../../src/protocol/messages/consumerGroupHeartbeatRequest';
import type { ConsumerGroupHeartbeatResponseData } from '../../../../../../../src/protocol/messages/consumerGroupHeartbeatResponse';
import type { GroupAssignment } from '../../../../../../../src/simulator/coordinator/group/assignor/index';
import { parseUuid } from '../../../../../../../src/simulator/coordinator/group/assignor/uuid';
import {
  ConsumerGroupHeartbeatHandler, InMemoryTopicImage, MemberState, type ConsumerGroupConfig, type ConsumerGroupRecord,
  type CoordinatorTimer, type PartitionAssignor, type TopicInfo,
} from '../../../../../../../src/simulator/coordinator/group/modern/consumer/index';
import * as recordsOf from '../../../../../../../src/simulator/coordinator/group/modern/consumer/records';
import type { ConsumerGroupMember } from '../../../../../../../src/simulator/coordinator/group/modern/consumer/consumerGroupMember';
import { newConsumerGroupMember } from '../../../../../../../src/simulator/coordinator/group/modern/consumer/consumerGroupMember';

export const fooTopicId = parseUuid('Zm9vLXRvcGljLWlkLTAwMQ').text;
export const barTopicId = parseUuid('YmFyLXRvcGljLWlkLTAwMg').text;
export const zarTopicId = parseUuid('emFyLXRvcGljLWlkLTAwMw').text;

export const DEFAULT_CLIENT_ID = 'client';
export const DEFAULT_CLIENT_HOST = '/127.0.0.1';

/** MockCoordinatorTimer: tasks by key, run in deadline order when the clock advances. */
export class ManualTimer implements CoordinatorTimer {
  now = 0;
  private readonly tasks = new Map<string, { deadline: number; task: () => void; seq: number }>();
  private seq = 0;

  schedule(key: string, delayMs: number, task: () => void): void {
    this.tasks.set(key, { deadline: this.now + delayMs, task, seq: this.seq++ });
  }

  cancel(key: string): void {
    this.tasks.delete(key);
  }

  isScheduled(key: string): boolean {
    return this.tasks.has(key);
  }

  deadline(key: string): number | undefined {
    return this.tasks.get(key)?.deadline;
  }

  /** Advances the clock, running every task that falls due (and any they schedule inside the window). */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.tasks].filter(([, t]) => t.deadline <= until).sort(([, a], [, b]) => a.deadline - b.deadline || a.seq - b.seq)[0];
      if (due === undefined) {
        break;
      }
      this.tasks.delete(due[0]);
      this.now = Math.max(this.now, due[1].deadline);
      due[1].task();
    }
    this.now = until;
  }
}

/** MockPartitionAssignor: returns the prepared assignment (topic id → partitions per member). */
export class MockPartitionAssignor {
  private prepared: GroupAssignment = new Map();

  prepare(assignment: Record<string, Array<[string, number[]]>>): void {
    this.prepared = new Map(Object.entries(assignment).map(([memberId, topics]) => [memberId, new Map(topics)]));
  }

  readonly assign: PartitionAssignor = (_name, groupSpec) =>
    new Map(groupSpec.members.map((member) => [member.memberId, this.prepared.get(member.memberId) ?? new Map()]));
}

export interface EngineContext {
  handler: ConsumerGroupHeartbeatHandler;
  timer: ManualTimer;
  image: InMemoryTopicImage;
  /** Record batches in the order they were written. */
  written: ConsumerGroupRecord[][];
  events: RebalanceEvent[];
  /** Sends one heartbeat (v1) and returns the response and the records it wrote. */
  heartbeat(request: Partial<ConsumerGroupHeartbeatRequestData> & { groupId: string; memberId: string }): { response: ConsumerGroupHeartbeatResponseData; records: ConsumerGroupRecord[] };
}

export function engineContext(options: { topics?: TopicInfo[]; config?: Partial<ConsumerGroupConfig>; assignor?: PartitionAssignor; seed?: ConsumerGroupRecord[] } = {}): EngineContext {
  const timer = new ManualTimer();
  const image = new InMemoryTopicImage(options.topics ?? []);
  const written: ConsumerGroupRecord[][] = [];
  const events: RebalanceEvent[] = [];
  let nextId = 0;
  const handler = new ConsumerGroupHeartbeatHandler({
    now: () => timer.now,
    timer,
    metadataImage: image,
    records: (records) => written.push([...records]),
    events: (event) => events.push(event),
    config: { assignmentIntervalMs: 0, ...options.config },
    assignor: options.assignor,
    newMemberId: () => `generated-${nextId++}`,
  });
  for (const record of options.seed ?? []) {
    handler.replay(record);
  }
  return {
    handler, timer, image, written, events,
    heartbeat(request) {
      const before = written.length;
      const response = handler.consumerGroupHeartbeat({ apiVersion: 1, clientId: DEFAULT_CLIENT_ID, clientHost: DEFAULT_CLIENT_HOST }, heartbeatRequest(request));
      return { response, records: written.slice(before).flat() };
    },
  };
}

export function heartbeatRequest(request: Partial<ConsumerGroupHeartbeatRequestData> & { groupId: string; memberId: string }): ConsumerGroupHeartbeatRequestData {
  return {
    memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: -1, subscribedTopicNames: null,
    subscribedTopicRegex: null, serverAssignor: null, topicPartitions: null, ...request,
  };
}

/** mkAssignment: topic id → partitions, with every partition at `epoch`. */
export function partitionsAt(epoch: number, ...topics: Array<[string, number[]]>): Map<string, Map<number, number>> {
  return new Map(topics.map(([topicId, partitions]) => [topicId, new Map(partitions.map((partition) => [partition, epoch]))]));
}

export interface SeedMember {
  memberId: string;
  memberEpoch: number;
  previousMemberEpoch: number;
  subscribedTopicNames: string[];
  assigned: Array<[string, number[]]>;
  instanceId?: string;
  serverAssignorName?: string;
  rebalanceTimeoutMs?: number;
}

/** ConsumerGroupBuilder: the records that make a group with these stable members, each target equal to its assignment. */
export function seedGroup(groupId: string, groupEpoch: number, members: SeedMember[], metadataHash = 0n): ConsumerGroupRecord[] {
  const records: ConsumerGroupRecord[] = [];
  for (const seed of members) {
    const member: ConsumerGroupMember = {
      ...newConsumerGroupMember(seed.memberId),
      memberEpoch: seed.memberEpoch,
      previousMemberEpoch: seed.previousMemberEpoch,
      state: MemberState.STABLE,
      instanceId: seed.instanceId ?? null,
      clientId: DEFAULT_CLIENT_ID,
      clientHost: DEFAULT_CLIENT_HOST,
      rebalanceTimeoutMs: seed.rebalanceTimeoutMs ?? 5000,
      subscribedTopicNames: [...seed.subscribedTopicNames].sort(),
      serverAssignorName: seed.serverAssignorName ?? null,
      assignedPartitions: partitionsAt(seed.memberEpoch, ...seed.assigned),
    };
    records.push(recordsOf.newConsumerGroupMemberSubscriptionRecord(groupId, member));
    records.push(recordsOf.newConsumerGroupCurrentAssignmentRecord(groupId, member));
    records.push(recordsOf.newConsumerGroupTargetAssignmentRecord(groupId, seed.memberId, new Map(seed.assigned.map(([topicId, partitions]) => [topicId, new Set(partitions)]))));
  }
  records.push(recordsOf.newConsumerGroupEpochRecord(groupId, groupEpoch, metadataHash));
  records.push(recordsOf.newConsumerGroupTargetAssignmentEpochRecord(groupId, groupEpoch, 0));
  return records;
}

/** The response's assignment as sorted [topicId, partitions] pairs (null when absent). */
export function responseAssignment(response: ConsumerGroupHeartbeatResponseData): Array<[string, number[]]> | null {
  return response.assignment === null ? null
    : response.assignment.topicPartitions.map(({ topicId, partitions }): [string, number[]] => [topicId, partitions]).sort(([a], [b]) => a.localeCompare(b));
}

export function sortedTopics(topics: Array<[string, number[]]>): Array<[string, number[]]> {
  return [...topics].sort(([a], [b]) => a.localeCompare(b));
}

/** The last ConsumerGroupCurrentMemberAssignment record in a batch, as plain fields. */
export function lastCurrentAssignment(records: ConsumerGroupRecord[]): { memberId: string; memberEpoch: number; previousMemberEpoch: number; state: number; assigned: Array<[string, number[]]>; pending: Array<[string, number[]]> } {
  const record = [...records].reverse().find((r) => r.type === 'ConsumerGroupCurrentMemberAssignment' && r.value !== null);
  assert.ok(record !== undefined && record.type === 'ConsumerGroupCurrentMemberAssignment' && record.value !== null, 'no current assignment record');
  const asPairs = (topics: Array<{ topicId: string; partitions: number[] }>): Array<[string, number[]]> => sortedTopics(topics.map(({ topicId, partitions }) => [topicId, partitions]));
  return {
    memberId: record.key.memberId,
    memberEpoch: record.value.memberEpoch,
    previousMemberEpoch: record.value.previousMemberEpoch,
    state: record.value.state,
    assigned: asPairs(record.value.assignedPartitions),
    pending: asPairs(record.value.partitionsPendingRevocation),
  };
}

export function recordTypes(records: ConsumerGroupRecord[]): string[] {
  return records.map((record) => `${record.type}${record.value === null ? ' tombstone' : ''}`);
}
