/**
 * How many members of a classic group support each protocol (ClassicGroup.supportedProtocols), and
 * the vote that selects the group's protocol from those every member supports.
 */
import type { ClassicGroupMember } from './classicGroupMember';
import type { JoinGroupProtocol } from '../../../common/requests';

export class ProtocolSupport {
  /** Protocol name → number of members listing it, in first-listed order (it breaks vote ties). */
  private readonly counts = new Map<string, number>();

  count(protocols: JoinGroupProtocol[], delta: number): void {
    for (const p of protocols) {
      const count = (this.counts.get(p.name) ?? 0) + delta;
      if (count === 0) {
        this.counts.delete(p.name);
      } else {
        this.counts.set(p.name, count);
      }
    }
  }

  /** Whether one of these protocols is supported by all `memberCount` members. */
  supportsAny(protocols: JoinGroupProtocol[], memberCount: number): boolean {
    return protocols.some((p) => (this.counts.get(p.name) ?? 0) === memberCount);
  }

  candidates(memberCount: number): Set<string> {
    const candidates = new Set<string>();
    for (const [name, count] of this.counts) {
      if (count === memberCount) {
        candidates.add(name);
      }
    }
    return candidates;
  }

  /** Each member votes for its first candidate; the most votes wins, ties go to the protocol voted for first. */
  select(members: Iterable<ClassicGroupMember>, memberCount: number): string {
    const candidates = this.candidates(memberCount);
    const votes = new Map<string, number>();
    for (const member of members) {
      const choice = member.vote(candidates);
      votes.set(choice, (votes.get(choice) ?? 0) + 1);
    }
    let winner = '';
    let best = -1;
    for (const [name, count] of votes) {
      if (count > best) {
        winner = name;
        best = count;
      }
    }
    return winner;
  }
}
