import type { AssignInput, AssignResult } from './types';
import { buildConstrained, type StickyBuild } from './constrainedAssignment';
import { buildGeneral, type MemberRanks } from './generalAssignment';
import { javaHashMapKeyOrder } from '../common/javaHashOrder';
import { compareJavaStrings } from './memberOrder';
import { PartitionSpace } from './partitionSpace';
import { resolveClaims } from './stickyClaims';

function memberRanks(memberIds: readonly string[]): MemberRanks {
  const memberOfRank = Int32Array.from(memberIds.keys()).sort((a, b) => compareJavaStrings(memberIds[a], memberIds[b]));
  const rankOf = new Int32Array(memberIds.length);
  memberOfRank.forEach((m, rank) => {
    rankOf[m] = rank;
  });
  return { rankOf, memberOfRank };
}

/**
 * CooperativeStickyAssignor.computePartitionsTransferringOwnership, for the general case: partitions newly given to
 * a member that some member (by its own claim, whatever the generation) reported owning and no longer gets.
 */
function transfersFromClaims(input: AssignInput, space: PartitionSpace, assignment: number[][]): Map<number, number> {
  const addedTo = new Int32Array(space.size).fill(-1);
  const revoked = new Uint8Array(space.size);
  const inAssignment = new Uint8Array(space.size);
  input.members.forEach((member, m) => {
    const ownedIds = new Set((member.owned ?? []).map((tp) => space.idOf(tp)).filter((id) => id >= 0));
    assignment[m].forEach((id) => {
      inAssignment[id] = 1;
      if (!ownedIds.has(id)) {
        addedTo[id] = m;
      }
    });
    ownedIds.forEach((id) => {
      if (inAssignment[id] === 0) {
        revoked[id] = 1;
      }
    });
    assignment[m].forEach((id) => {
      inAssignment[id] = 0;
    });
  });
  const transferring = new Map<number, number>();
  addedTo.forEach((m, id) => {
    if (m >= 0 && revoked[id] === 1) {
      transferring.set(id, m);
    }
  });
  return transferring;
}

/** Removes partitions changing owner from their new owner: the cooperative protocol first revokes them. */
function withholdTransfers(assignment: number[][], transferring: Map<number, number>, size: number): void {
  const withheld = new Uint8Array(size);
  const affected = new Set<number>();
  transferring.forEach((m, id) => {
    withheld[id] = 1;
    affected.add(m);
  });
  affected.forEach((m) => {
    assignment[m] = assignment[m].filter((id) => withheld[id] === 0);
  });
}

/**
 * Kafka's StickyAssignor (eager) or CooperativeStickyAssignor, as the group leader runs it. Rack-aware
 * assignment is left out because no racks are modelled. The result lists each member's partitions sorted by
 * topic then partition.
 */
export function assignSticky(input: AssignInput, cooperative: boolean): AssignResult {
  const result: AssignResult = {};
  const members = input.members;
  if (members.length === 0) {
    return result;
  }
  const topics = new Set<string>();
  for (const member of members) {
    for (const topic of member.topics) {
      topics.add(topic);
    }
  }
  const space = new PartitionSpace(input.partitionsPerTopic, topics);
  const memberIds = members.map((member) => member.memberId);
  const visitOrder = javaHashMapKeyOrder(memberIds);
  const claims = resolveClaims(members, visitOrder, space);
  const build: StickyBuild = claims.allSubscriptionsEqual
    ? buildConstrained(space, memberIds, visitOrder, claims)
    : buildGeneral(space, members, visitOrder, claims, memberRanks(memberIds));
  const assignment = build.assignment;
  if (cooperative) {
    withholdTransfers(assignment, build.transferring ?? transfersFromClaims(input, space, assignment), space.size);
  }
  members.forEach((member, m) => {
    const ids = Int32Array.from(assignment[m]).sort();
    const list = new Array<{ topic: string; partition: number }>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      list[i] = space.toTopicPartition(ids[i]);
    }
    result[member.memberId] = list;
  });
  return result;
}
