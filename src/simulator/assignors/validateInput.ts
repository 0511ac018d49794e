import type { AssignInput, AssignorMember } from './types';

/**
 * Checks each claimed partition against its topic's partition count and finds partitions a member claims twice.
 * Partitions of known topics are stamped with the member's number in one array per topic (no per-partition
 * strings, which matters at a million partitions); unknown topics use a set. Owned lists run topic by topic, so
 * the last topic's lookup is kept.
 */
class ClaimChecker {
  private readonly counts: Map<string, number>;
  private readonly stamps = new Map<string, Int32Array>();
  private lastTopic: string | undefined;
  private lastStamp: Int32Array | undefined;

  constructor(partitionsPerTopic: Record<string, number>) {
    this.counts = new Map(Object.entries(partitionsPerTopic));
  }

  check(member: AssignorMember, memberNumber: number): void {
    const unknownTopicClaims = new Set<string>();
    for (const tp of member.owned ?? []) {
      if (typeof tp.topic !== 'string' || !Number.isInteger(tp.partition) || tp.partition < 0) {
        throw new Error(`Member "${member.memberId}" claims an invalid partition ${JSON.stringify(tp)}`);
      }
      if (tp.topic !== this.lastTopic) {
        this.lastTopic = tp.topic;
        this.lastStamp = this.stampsFor(tp.topic);
      }
      const stamp = this.lastStamp;
      let seen: boolean;
      if (stamp === undefined) {
        const key = `${tp.topic}\u0000${tp.partition}`;
        seen = unknownTopicClaims.has(key);
        unknownTopicClaims.add(key);
      } else {
        if (tp.partition >= stamp.length) {
          throw new Error(`Member "${member.memberId}" claims partition ${tp.topic}-${tp.partition}, ` +
            `but topic "${tp.topic}" has ${stamp.length} partitions`);
        }
        seen = stamp[tp.partition] === memberNumber;
        stamp[tp.partition] = memberNumber;
      }
      if (seen) {
        throw new Error(`Member "${member.memberId}" claims partition ${tp.topic}-${tp.partition} twice`);
      }
    }
  }

  private stampsFor(topic: string): Int32Array | undefined {
    const count = this.counts.get(topic);
    if (count === undefined) {
      return undefined;
    }
    let stamp = this.stamps.get(topic);
    if (stamp === undefined) {
      stamp = new Int32Array(count);
      this.stamps.set(topic, stamp);
    }
    return stamp;
  }
}

function validateMember(member: AssignorMember, memberNumber: number, claims: ClaimChecker): void {
  if (!Array.isArray(member.topics)) {
    throw new Error(`Member "${member.memberId}" has no topics list`);
  }
  if (new Set(member.topics).size !== member.topics.length) {
    throw new Error(`Member "${member.memberId}" lists a topic twice in ${JSON.stringify(member.topics)}`);
  }
  if (member.generation !== undefined && !Number.isInteger(member.generation)) {
    throw new Error(`Member "${member.memberId}" has a non-integer generation ${String(member.generation)}`);
  }
  claims.check(member, memberNumber);
}

/** Rejects inputs a Kafka group leader could never receive, with a message that names the offending value. */
export function validateAssignInput(input: AssignInput): void {
  for (const [topic, count] of Object.entries(input.partitionsPerTopic)) {
    if (!Number.isInteger(count) || count < 0) {
      throw new Error(`Topic "${topic}" has an invalid partition count ${String(count)}; expected a non-negative integer`);
    }
  }
  const seen = new Set<string>();
  const claims = new ClaimChecker(input.partitionsPerTopic);
  input.members.forEach((member, index) => {
    if (typeof member.memberId !== 'string' || member.memberId === '') {
      throw new Error('Every member needs a non-empty memberId');
    }
    if (seen.has(member.memberId)) {
      throw new Error(`Member id "${member.memberId}" appears more than once`);
    }
    seen.add(member.memberId);
    validateMember(member, index + 1, claims);
  });
}
