/**
 * Seeded random inputs for the streams-group StickyTaskAssignor cross-check: subtopologies with task counts, some
 * stateful; members spread over processes; num.standby.replicas 0..2; and a current state that is empty, the
 * assignor's own result for an earlier membership (members leaving, joining, restarting with offsets only), or
 * random claims (overlapping actives, standbys, warm-ups and reported offsets).
 */
import { assignStickyTasks } from '../../../src/simulator/coordinator/streams/assignor/index';
import type {
  StreamsGroupAssignment, StreamsMemberSpec, SubtopologyDescription, SubtopologyTasks, TaskOffset,
} from '../../../src/simulator/coordinator/streams/assignor/types';
import type { SeededRandom } from '../../../src/simulator/common/random';

export type StreamsCurrentState = 'none' | 'previous' | 'random';

export interface StreamsAssignorCase {
  members: StreamsMemberSpec[];
  configs: { numStandbyReplicas: number };
  subtopologies: SubtopologyDescription[];
}

export interface StreamsCaseOptions {
  maxSubtopologies: number;
  maxTasks: number;
  maxProcesses: number;
  maxMembers: number;
  current: StreamsCurrentState;
}

/** The canonical text StreamsAssignorHarness prints: members and subtopologies sorted, empty subtopologies left out. */
export function canonicalStreamsJson(result: StreamsGroupAssignment): string {
  const tasksJson = (tasks: Map<string, number[]>): string => `{${[...tasks.keys()].sort()
    .filter((id) => (tasks.get(id) as number[]).length > 0)
    .map((id) => `${JSON.stringify(id)}:[${(tasks.get(id) as number[]).join(',')}]`).join(',')}}`;
  return `{${[...result.keys()].sort().map((memberId) => {
    const assignment = result.get(memberId);
    return assignment === undefined ? '' : `${JSON.stringify(memberId)}:{"active":${tasksJson(assignment.activeTasks)},"standby":${tasksJson(assignment.standbyTasks)}}`;
  }).join(',')}}`;
}

function toTasks(tasks: Map<string, number[]>): SubtopologyTasks[] {
  return [...tasks].map(([subtopologyId, partitions]) => ({ subtopologyId, partitions: [...partitions] }));
}

function shuffled<T>(random: SeededRandom, items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = random.nextInt(i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

function randomSubtopologies(random: SeededRandom, options: StreamsCaseOptions): SubtopologyDescription[] {
  const count = 1 + random.nextInt(options.maxSubtopologies);
  // Numeric ids as Kafka Streams names them, shuffled so that "10" sorting before "2" matters.
  return shuffled(random, Array.from({ length: count }, (_, i) => String(i))).map((subtopologyId) => ({
    subtopologyId,
    numTasks: random.nextInt(options.maxTasks + 1),
    stateful: random.next() < 0.6,
  }));
}

function randomMembers(random: SeededRandom, options: StreamsCaseOptions): StreamsMemberSpec[] {
  const processes = Array.from({ length: 1 + random.nextInt(options.maxProcesses) }, () => random.uuid());
  // Now and then an empty group, which Kafka rejects once it has a task to place.
  const count = random.next() < 0.03 ? 0 : 1 + random.nextInt(options.maxMembers);
  return Array.from({ length: count }, () => ({ memberId: random.uuid(), processId: processes[random.nextInt(processes.length)] }));
}

function randomTaskSubset(random: SeededRandom, subtopologies: readonly SubtopologyDescription[], share: number): Map<string, number[]> {
  const result = new Map<string, number[]>();
  for (const { subtopologyId, numTasks } of subtopologies) {
    const partitions = Array.from({ length: numTasks }, (_, p) => p).filter(() => random.next() < share);
    if (partitions.length > 0) {
      result.set(subtopologyId, shuffled(random, partitions));
    }
  }
  return result;
}

function randomOffsets(random: SeededRandom, tasks: Map<string, number[]>): TaskOffset[] {
  return [...tasks].flatMap(([subtopologyId, partitions]) =>
    partitions.map((partition) => ({ subtopologyId, partition, offsetSum: random.nextInt(4) * 1000 })));
}

/** Random claims: actives may overlap between members, standbys and offsets are anywhere. */
function withRandomState(random: SeededRandom, members: StreamsMemberSpec[], subtopologies: SubtopologyDescription[]): StreamsMemberSpec[] {
  const share = 1 / Math.max(1, members.length);
  return members.map((member) => ({
    ...member,
    activeTasks: toTasks(randomTaskSubset(random, subtopologies, share * 1.3)),
    standbyTasks: toTasks(randomTaskSubset(random, subtopologies, share)),
    warmupTasks: toTasks(randomTaskSubset(random, subtopologies, share / 2)),
    taskOffsets: randomOffsets(random, randomTaskSubset(random, subtopologies, share * 1.5)),
  }));
}

/** The assignor's own result for an earlier membership: some members left, some joined, some restarted. */
function withPreviousState(random: SeededRandom, members: StreamsMemberSpec[], subtopologies: SubtopologyDescription[], numStandbyReplicas: number): StreamsMemberSpec[] {
  const earlier = members.filter(() => random.next() < 0.8);
  // At least one earlier member, or the earlier run has nobody to give its tasks to.
  const extra = Array.from({ length: (earlier.length === 0 ? 1 : 0) + random.nextInt(3) }, () => ({ memberId: random.uuid(), processId: random.uuid() }));
  const previous = assignStickyTasks({ members: [...earlier, ...extra], configs: { numStandbyReplicas } }, subtopologies);
  return members.map((member) => {
    const assignment = previous.get(member.memberId);
    if (assignment === undefined) {
      return member;
    }
    if (random.next() < 0.15) {
      // Restarted: a fresh target assignment, only the offsets of its state on disk.
      const onDisk = new Map([...assignment.activeTasks, ...assignment.standbyTasks]);
      return { ...member, memberId: random.uuid(), taskOffsets: randomOffsets(random, onDisk) };
    }
    const standbyTasks = toTasks(assignment.standbyTasks);
    return {
      ...member,
      activeTasks: toTasks(assignment.activeTasks),
      standbyTasks,
      taskOffsets: random.next() < 0.5 ? randomOffsets(random, assignment.standbyTasks) : [],
    };
  });
}

export function randomStreamsCase(random: SeededRandom, options: StreamsCaseOptions): StreamsAssignorCase {
  const subtopologies = randomSubtopologies(random, options);
  const numStandbyReplicas = random.nextInt(3);
  let members = randomMembers(random, options);
  if (options.current === 'random') {
    members = withRandomState(random, members, subtopologies);
  } else if (options.current === 'previous') {
    members = withPreviousState(random, members, subtopologies, numStandbyReplicas);
  }
  return { members, configs: { numStandbyReplicas }, subtopologies };
}

/** A few large groups: many processes with several threads each, many tasks, standbys, a previous assignment. */
export function largeStreamsCases(random: SeededRandom): { title: string; testCase: StreamsAssignorCase }[] {
  const shapes = [
    { processes: 50, threads: 4, subtopologies: 10, tasks: 64, current: 'previous' as const },
    { processes: 100, threads: 2, subtopologies: 20, tasks: 32, current: 'random' as const },
    { processes: 30, threads: 8, subtopologies: 4, tasks: 200, current: 'none' as const },
  ];
  return shapes.map((shape) => {
    const options: StreamsCaseOptions = {
      maxSubtopologies: shape.subtopologies, maxTasks: shape.tasks, maxProcesses: shape.processes, maxMembers: 1, current: shape.current,
    };
    const subtopologies = Array.from({ length: shape.subtopologies }, (_, i) => ({ subtopologyId: String(i), numTasks: shape.tasks, stateful: i % 3 !== 2 }));
    const processIds = Array.from({ length: shape.processes }, () => random.uuid());
    let members: StreamsMemberSpec[] = processIds.flatMap((processId) => Array.from({ length: shape.threads }, () => ({ memberId: random.uuid(), processId })));
    const numStandbyReplicas = 1 + random.nextInt(2);
    if (options.current === 'random') {
      members = withRandomState(random, members, subtopologies);
    } else if (options.current === 'previous') {
      members = withPreviousState(random, members, subtopologies, numStandbyReplicas);
    }
    return {
      title: `${shape.processes} processes x ${shape.threads} threads, ${shape.subtopologies} subtopologies x ${shape.tasks} tasks, ` +
        `${numStandbyReplicas} standby, current: ${shape.current}`,
      testCase: { members, configs: { numStandbyReplicas }, subtopologies },
    };
  });
}
