/**
 * UniformHeterogeneousAssignmentBuilder.MemberAssignmentBalancer (Kafka 4.4): walks one topic's subscribers from
 * the least loaded up and from the most loaded down, by their current target assignment sizes, which the
 * builder updates as it moves partitions. `sizes` is shared with the builder (indexed by member index).
 */
export class MemberAssignmentBalancer {
  private readonly sortedMembers: number[] = [];
  private leastLoadedRangeEnd = 0;
  private leastLoadedRangePartitionCount = -1;
  private nextLeastLoaded = 0;
  private mostLoadedRangeStart = 0;
  private mostLoadedRangeEnd = 0;
  private mostLoadedRangePartitionCount = 1;
  private nextMostLoaded = -1;

  constructor(private readonly sizes: Int32Array) {}

  /** Starts on a topic's subscribers; returns the spread between the most and least loaded of them. */
  initialize(members: readonly number[]): number {
    if (members.length === 0) {
      throw new Error('Cannot balance an empty subscriber list.');
    }
    const sizes = this.sizes;
    this.sortedMembers.length = 0;
    this.sortedMembers.push(...members);
    this.sortedMembers.sort((a, b) => sizes[a] - sizes[b] || a - b);
    const last = this.sortedMembers.length - 1;
    this.leastLoadedRangeEnd = 0;
    this.leastLoadedRangePartitionCount = sizes[this.sortedMembers[0]] - 1;
    this.nextLeastLoaded = 0;
    this.mostLoadedRangeStart = this.sortedMembers.length;
    this.mostLoadedRangeEnd = this.sortedMembers.length;
    this.mostLoadedRangePartitionCount = sizes[this.sortedMembers[last]] + 1;
    this.nextMostLoaded = last;
    return sizes[this.sortedMembers[last]] - sizes[this.sortedMembers[0]];
  }

  /** The next member to give a partition to, cycling through those with the fewest partitions. */
  nextLeastLoadedMember(): number {
    if (this.nextLeastLoaded >= this.leastLoadedRangeEnd) {
      this.leastLoadedRangePartitionCount++;
      while (this.leastLoadedRangeEnd < this.sortedMembers.length &&
        this.sizes[this.sortedMembers[this.leastLoadedRangeEnd]] === this.leastLoadedRangePartitionCount) {
        this.leastLoadedRangeEnd++;
      }
      this.nextLeastLoaded = 0;
    }
    return this.sortedMembers[this.nextLeastLoaded++];
  }

  /** The next member to take a partition from, cycling through those with the most partitions; -1 when none is left. */
  nextMostLoadedMember(): number {
    if (this.nextMostLoaded < this.mostLoadedRangeStart) {
      if (this.mostLoadedRangeEnd <= this.mostLoadedRangeStart && this.mostLoadedRangeStart > 0) {
        this.mostLoadedRangePartitionCount = this.sizes[this.sortedMembers[this.mostLoadedRangeStart - 1]];
      } else {
        this.mostLoadedRangePartitionCount--;
      }
      while (this.mostLoadedRangeStart > 0 &&
        this.sizes[this.sortedMembers[this.mostLoadedRangeStart - 1]] === this.mostLoadedRangePartitionCount) {
        this.mostLoadedRangeStart--;
      }
      this.nextMostLoaded = this.mostLoadedRangeEnd - 1;
    }
    if (this.nextMostLoaded < 0) {
      return -1;
    }
    return this.sortedMembers[this.nextMostLoaded--];
  }

  /** Drops the member nextMostLoadedMember() just returned (it has no partition of this topic to give). */
  excludeMostLoadedMember(): void {
    const excluded = this.sortedMembers[this.nextMostLoaded + 1];
    this.sortedMembers[this.nextMostLoaded + 1] = this.sortedMembers[this.mostLoadedRangeEnd - 1];
    this.sortedMembers[this.mostLoadedRangeEnd - 1] = excluded;
    this.mostLoadedRangeEnd--;
  }

  isBalanced(): boolean {
    return this.mostLoadedRangePartitionCount - this.leastLoadedRangePartitionCount <= 1;
  }
}
