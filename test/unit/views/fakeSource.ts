/**
 * In-memory ClusterSource and SimulatorControl for the view and command tests: they hold exactly the data
 * a test puts in and record the calls made, nothing simulated.
 */
import type { ClusterSource, Unsubscribe } from '../../../src/model/clusterSource';
import type { ClusterInfo, GroupDetail, GroupSummary, Member, PartitionOffsets } from '../../../src/model/types';
import type {
  ConsumerSpec,
  ProducerSpec,
  SimulatedConsumerInfo,
  SimulatorControl,
} from '../../../src/simulator/common/control';

export function member(memberId: string, overrides: Partial<Member> = {}): Member {
  return {
    memberId,
    groupInstanceId: null,
    clientId: `client-${memberId}`,
    clientHost: '/127.0.0.1',
    subscription: ['orders'],
    assignment: [],
    ...overrides,
  };
}

export function offsets(topic: string, partition: number, committed: number | null, end: number | null, owner?: string): PartitionOffsets {
  return {
    topic,
    partition,
    committedOffset: committed,
    logStartOffset: 0,
    logEndOffset: end,
    lag: committed != null && end != null ? end - committed : null,
    ownerMemberId: owner ?? null,
  };
}

export function groupDetail(groupId: string, overrides: Partial<GroupDetail> = {}): GroupDetail {
  const members = overrides.members ?? [];
  const partitionOffsets = overrides.offsets ?? [];
  const lags = partitionOffsets.map((o) => o.lag).filter((l): l is number => l != null);
  return {
    groupId,
    state: members.length ? 'Stable' : 'Empty',
    protocolType: 'consumer',
    groupType: 'classic',
    assignor: members.length ? 'range' : '',
    generation: 1,
    coordinator: { nodeId: 1, host: 'broker-1', port: 9092 },
    memberCount: members.length,
    totalLag: lags.length ? lags.reduce((a, b) => a + b, 0) : null,
    leaderId: members[0]?.memberId ?? null,
    members,
    offsets: partitionOffsets,
    ...overrides,
  };
}

export function summaryOf(detail: GroupDetail): GroupSummary {
  const { leaderId: _leader, members: _members, offsets: _offsets, ...summary } = detail;
  return summary;
}

export class FakeSource implements ClusterSource {
  readonly kind: ClusterSource['kind'];
  readonly groups = new Map<string, GroupDetail>();
  /** When set, listGroups rejects with it. */
  listError: Error | undefined;
  readonly describeErrors = new Map<string, Error>();
  readonly calls: string[] = [];
  disposed = false;
  private readonly listeners = new Set<() => void>();
  /** When set, listGroups waits for this promise: lets a test observe the "loading" state. */
  gate: Promise<void> | undefined;

  constructor(
    readonly id: string,
    readonly label: string,
    kind: ClusterSource['kind'] = 'simulator',
  ) {
    this.kind = kind;
  }

  put(detail: GroupDetail): this {
    this.groups.set(detail.groupId, detail);
    return this;
  }

  async describeCluster(): Promise<ClusterInfo> {
    this.calls.push('describeCluster');
    return { clusterId: `${this.id}-cluster`, controllerId: 1, brokers: [{ nodeId: 1, host: 'broker-1', port: 9092 }] };
  }

  async listGroups(): Promise<GroupSummary[]> {
    this.calls.push('listGroups');
    if (this.gate) {
      await this.gate;
    }
    if (this.listError) {
      throw this.listError;
    }
    return [...this.groups.values()].map(summaryOf);
  }

  async describeGroup(groupId: string): Promise<GroupDetail> {
    this.calls.push(`describeGroup:${groupId}`);
    const error = this.describeErrors.get(groupId);
    if (error) {
      throw error;
    }
    const detail = this.groups.get(groupId);
    if (!detail) {
      throw new Error(`Group ${groupId} does not exist`);
    }
    return detail;
  }

  onDidChange(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  emitChange(): void {
    for (const listener of this.listeners) {
      listener();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

export class FakeControl implements SimulatorControl {
  readonly consumers: SimulatedConsumerInfo[] = [];
  readonly topics: Array<{ name: string; partitions: number }> = [];
  readonly calls: string[] = [];
  readonly addedSpecs: ConsumerSpec[] = [];
  readonly producerSpecs: ProducerSpec[] = [];
  private nextHandle = 1;

  addConsumer(spec: ConsumerSpec): SimulatedConsumerInfo {
    this.addedSpecs.push(spec);
    const handle = `c${this.nextHandle++}`;
    const info: SimulatedConsumerInfo = {
      handle,
      groupId: spec.groupId,
      clientId: spec.clientId ?? `consumer-${handle}`,
      groupInstanceId: spec.groupInstanceId ?? null,
      memberId: null,
      status: 'running',
    };
    this.consumers.push(info);
    this.calls.push(`addConsumer:${spec.groupId}`);
    return info;
  }

  stopConsumer(handle: string): void {
    this.calls.push(`stop:${handle}`);
  }

  crashConsumer(handle: string): void {
    this.calls.push(`crash:${handle}`);
  }

  pausePolling(handle: string, durationMs: number): void {
    this.calls.push(`pause:${handle}:${durationMs}`);
  }

  restartConsumer(handle: string): void {
    this.calls.push(`restart:${handle}`);
  }

  startProducer(spec: ProducerSpec): string {
    this.producerSpecs.push(spec);
    return `p${this.producerSpecs.length}`;
  }

  stopProducer(handle: string): void {
    this.calls.push(`stopProducer:${handle}`);
  }

  listConsumers(groupId?: string): SimulatedConsumerInfo[] {
    return this.consumers.filter((c) => groupId === undefined || c.groupId === groupId);
  }

  listTopics(): Array<{ name: string; partitions: number }> {
    return [...this.topics];
  }

  createTopic(name: string, partitions: number): void {
    this.topics.push({ name, partitions });
    this.calls.push(`createTopic:${name}:${partitions}`);
  }
}
