/**
 * The clients' classic assignors, as the group leader runs them: org.apache.kafka.clients.consumer's
 * RangeAssignor, RoundRobinAssignor, StickyAssignor and CooperativeStickyAssignor (with internals'
 * AbstractStickyAssignor). `assign(strategy, input)` here is a fixed contract.
 */
import type { AssignInput, AssignorName, AssignResult } from './types';
import { assignRange } from './range';
import { assignRoundRobin } from './roundRobin';
import { assignSticky } from './sticky';
import { validateAssignInput } from './validateInput';

export type { AssignInput, AssignorMember, AssignorName, AssignResult } from './types';
export { supportedRebalanceProtocols } from './rebalanceProtocols';
export type { RebalanceProtocol } from './rebalanceProtocols';

/**
 * Runs one of Kafka's four classic assignors as the group leader would. For cooperative-sticky the result is the
 * assignment of this one round: partitions that change owner are withheld until the follow-up rebalance.
 * Pass `input.members` in JoinGroup response order: the leader fills a Java HashMap in that order, and for the
 * sticky assignors that map's iteration order settles ties (who keeps maxQuota, which claim wins among three).
 * Members with `generation` undefined count as generation -1, as Kafka's DEFAULT_GENERATION. Each call is
 * independent; Kafka's sticky assignor instance also remembers the highest generation it has ever seen, which
 * matters only if members report lower generations than an earlier rebalance did, and is not modelled.
 */
export function assign(strategy: AssignorName, input: AssignInput): AssignResult {
  validateAssignInput(input);
  switch (strategy) {
    case 'range':
      return assignRange(input);
    case 'roundrobin':
      return assignRoundRobin(input);
    case 'sticky':
      return assignSticky(input, false);
    case 'cooperative-sticky':
      return assignSticky(input, true);
    default:
      throw new Error(`Unknown assignor "${String(strategy)}"; expected range, roundrobin, sticky or cooperative-sticky`);
  }
}
