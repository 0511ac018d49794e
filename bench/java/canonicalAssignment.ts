import type { GroupAssignment } from '../../src/simulator/coordinator/group/assignor/types';

/**
 * The canonical text ServerAssignorHarness prints for a GroupAssignment: members and topic ids sorted (Java's
 * String order, which is JS's default sort), partitions ascending, empty topics and members left out.
 */
export function canonicalJson(result: GroupAssignment): string {
  const members: string[] = [];
  for (const memberId of [...result.keys()].sort()) {
    const topics = result.get(memberId) as Map<string, number[]>;
    const entries = [...topics.keys()].sort()
      .filter((topicId) => (topics.get(topicId) as number[]).length > 0)
      .map((topicId) => `${JSON.stringify(topicId)}:[${(topics.get(topicId) as number[]).join(',')}]`);
    if (entries.length > 0) {
      members.push(`${JSON.stringify(memberId)}:{${entries.join(',')}}`);
    }
  }
  return `{${members.join(',')}}`;
}
