/**
 * A Streams thread's tasks in the reconciliation the consumer protocol's membership manager runs
 * (StreamsMembershipManager of Kafka 4.4 reconciles the same way): a target of active, standby and
 * warm-up tasks is held as "partitions" keyed by role and subtopology, and an active task s_p stands
 * for partition p of each topic subtopology s reads. Standby and warm-up tasks read nothing here:
 * the simulated thread keeps no state stores to restore.
 */
import type { TopicPartition } from '../../../../model/types';
import type { TaskIds } from '../../../../protocol/messages/streamsGroupHeartbeatRequest';
import type { StreamsSubtopologySpec } from '../../../common/control';
import type { SimCluster } from '../../../log/cluster';
import type { AssignmentResolver, TopicIdPartitions } from './consumerMembershipManager';

export type TaskRole = 'active' | 'standby' | 'warmup';

const SEPARATOR = ':';

function key(role: TaskRole, subtopologyId: string): string {
  return `${role}${SEPARATOR}${subtopologyId}`;
}

function parse(taskKey: string): { role: TaskRole; subtopologyId: string } {
  const at = taskKey.indexOf(SEPARATOR);
  return { role: taskKey.slice(0, at) as TaskRole, subtopologyId: taskKey.slice(at + 1) };
}

/** The three task lists of a heartbeat response as one assignment. */
export function tasksAssignment(tasks: Record<TaskRole, readonly TaskIds[]>): TopicIdPartitions {
  const assignment = new Map<string, readonly number[]>();
  for (const role of ['active', 'standby', 'warmup'] as const) {
    for (const { subtopologyId, partitions } of tasks[role]) {
      assignment.set(key(role, subtopologyId), [...partitions].sort((a, b) => a - b));
    }
  }
  return assignment;
}

/** One role's tasks of an assignment, as a heartbeat request lists them (subtopologies in id order). */
export function tasksOf(assignment: TopicIdPartitions, role: TaskRole): TaskIds[] {
  return [...assignment].filter(([taskKey]) => parse(taskKey).role === role)
    .map(([taskKey, partitions]) => ({ subtopologyId: parse(taskKey).subtopologyId, partitions: [...partitions] }))
    .sort((a, b) => (a.subtopologyId < b.subtopologyId ? -1 : a.subtopologyId > b.subtopologyId ? 1 : 0));
}

/**
 * The tasks of known subtopologies are taken; an active task reads its partition of the subtopology's
 * source and repartition topics that exist (the broker creates the internal ones after the first heartbeat).
 */
export function streamsTaskResolver(cluster: Pick<SimCluster, 'topic'>, subtopologies: readonly StreamsSubtopologySpec[]): AssignmentResolver {
  const byId = new Map(subtopologies.map((s) => [s.id, [...s.sourceTopics, ...(s.repartitionSourceTopics ?? [])]]));
  return (target) => {
    const resolvable = new Map<string, readonly number[]>();
    const partitions: TopicPartition[] = [];
    for (const [taskKey, list] of target) {
      const { role, subtopologyId } = parse(taskKey);
      const topics = byId.get(subtopologyId);
      if (topics === undefined) {
        continue;
      }
      resolvable.set(taskKey, list);
      if (role === 'active') {
        for (const topic of topics) {
          const count = cluster.topic(topic)?.partitions.length ?? 0;
          partitions.push(...list.filter((p) => p < count).map((partition) => ({ topic, partition })));
        }
      }
    }
    return { resolvable, partitions };
  };
}
