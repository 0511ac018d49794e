import assert from 'node:assert/strict';
import type { TopicPartition } from '../../../../src/model/types';
import { assign } from '../../../../src/simulator/assignors/index';
import type { AssignInput, AssignorName, AssignResult } from '../../../../src/simulator/assignors/types';

/** Checks shared by the assignor tests: ports of Kafka's test oracles (AbstractStickyAssignorTest and friends). */

/** "t1-0" → {topic: "t1", partition: 0} (the topic may itself contain dashes). */
export function tp(name: string): TopicPartition {
  const dash = name.lastIndexOf('-');
  return { topic: name.slice(0, dash), partition: Number(name.slice(dash + 1)) };
}

export function tps(...names: string[]): TopicPartition[] {
  return names.map(tp);
}

/**
 * The input of Kafka's testMultipleConsumersMixedTopics (range and roundrobin, which agree on it):
 * consumer2 alone subscribes to t2.
 */
export function mixedTopicsInput(): AssignInput {
  return {
    partitionsPerTopic: { t1: 3, t2: 2 },
    members: [
      { memberId: 'consumer1', topics: ['t1'] },
      { memberId: 'consumer2', topics: ['t1', 't2'] },
      { memberId: 'consumer3', topics: ['t1'] },
    ],
  };
}

const key = (p: TopicPartition): string => `${p.topic}-${p.partition}`;

/** Each member's partitions as a sorted list of "topic-partition" names: assignments compare as sets. */
export function asSets(result: AssignResult): Record<string, string[]> {
  const sets: Record<string, string[]> = {};
  for (const [member, partitions] of Object.entries(result)) {
    sets[member] = partitions.map(key).sort();
  }
  return sets;
}

export function assertAssignment(result: AssignResult, expected: Record<string, string[]>): void {
  const sortedExpected: Record<string, string[]> = {};
  for (const [member, names] of Object.entries(expected)) {
    sortedExpected[member] = [...names].sort();
  }
  assert.deepEqual(asSets(result), sortedExpected);
}

export function isFullyBalanced(result: AssignResult): boolean {
  const sizes = Object.values(result).map((list) => list.length);
  return sizes.length === 0 || Math.max(...sizes) - Math.min(...sizes) <= 1;
}

/**
 * The validity half of AbstractStickyAssignorTest.verifyValidityAndBalance: every member present, only subscribed
 * topics, no partition twice; with `requireAllAssigned`, every partition of a subscribed topic is assigned (what
 * the eager assignors guarantee).
 */
export function verifyValidity(input: AssignInput, result: AssignResult, requireAllAssigned: boolean): void {
  assert.deepEqual(Object.keys(result).sort(), input.members.map((m) => m.memberId).sort(), 'every member is present');
  const owner = new Map<string, string>();
  for (const member of input.members) {
    const topics = new Set(member.topics);
    for (const p of result[member.memberId]) {
      assert.ok(topics.has(p.topic), `${key(p)} is assigned to ${member.memberId}, which does not subscribe to ${p.topic}`);
      assert.ok(p.partition < (input.partitionsPerTopic[p.topic] ?? 0), `${key(p)} does not exist`);
      assert.ok(!owner.has(key(p)), `${key(p)} is assigned to both ${owner.get(key(p))} and ${member.memberId}`);
      owner.set(key(p), member.memberId);
    }
  }
  if (requireAllAssigned) {
    const subscribed = new Set(input.members.flatMap((m) => m.topics));
    for (const [topic, count] of Object.entries(input.partitionsPerTopic)) {
      for (let partition = 0; subscribed.has(topic) && partition < count; partition++) {
        assert.ok(owner.has(`${topic}-${partition}`), `${topic}-${partition} is subscribed but unassigned`);
      }
    }
  }
}

/** The balance half: when two members' counts differ by more than one, their assignments share no topic. */
export function verifyBalance(input: AssignInput, result: AssignResult): void {
  const members = input.members.map((m) => m.memberId);
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const a = result[members[i]];
      const b = result[members[j]];
      if (Math.abs(a.length - b.length) <= 1) {
        continue;
      }
      const topicsOfB = new Set(b.map((p) => p.topic));
      const shared = a.map((p) => p.topic).filter((topic) => topicsOfB.has(topic));
      assert.deepEqual(shared, [], `${members[i]} (${a.length}) and ${members[j]} (${b.length}) could be balanced through ${shared[0]}`);
    }
  }
}

/** AbstractStickyAssignorTest.verifyValidityAndBalance, plus every subscribed partition assigned. */
export function verifyValidityAndBalance(input: AssignInput, result: AssignResult): void {
  verifyValidity(input, result, true);
  verifyBalance(input, result);
}

/**
 * CooperativeStickyAssignorTest.verifyCooperativeValidity: no partition is given to a new owner in the same round in
 * which another member still reports it. Returns true when partitions are being revoked (a follow-up round is due).
 */
export function verifyCooperativeRound(input: AssignInput, result: AssignResult): boolean {
  const added = new Set<string>();
  const revoked = new Set<string>();
  for (const member of input.members) {
    const owned = new Set((member.owned ?? []).map(key));
    const assigned = new Set(result[member.memberId].map(key));
    assigned.forEach((p) => (owned.has(p) ? undefined : added.add(p)));
    owned.forEach((p) => (assigned.has(p) ? undefined : revoked.add(p)));
  }
  const both = [...added].filter((p) => revoked.has(p));
  assert.deepEqual(both, [], 'partitions assigned to a new owner while still being revoked');
  return revoked.size > 0;
}

/** Follow-up cooperative rounds as CooperativeStickyAssignorTest runs them (members report what they got), at most 4. */
export function settleCooperative(input: AssignInput, firstResult: AssignResult, generation: number): { result: AssignResult; input: AssignInput; rounds: number } {
  let currentInput = input;
  let result = firstResult;
  let rounds = 0;
  while (verifyCooperativeRound(currentInput, result)) {
    currentInput = {
      ...currentInput,
      members: currentInput.members.map((m) => ({ ...m, owned: result[m.memberId], generation })),
    };
    result = assign('cooperative-sticky', currentInput);
    rounds++;
    assert.ok(rounds <= 4, 'cooperative assignment did not settle within 4 follow-up rounds');
  }
  return { result, input: currentInput, rounds };
}

/** Runs a sticky assignor; for cooperative-sticky also the follow-up rounds, returning the settled assignment. */
export function assignSettled(strategy: AssignorName, input: AssignInput, generation = 1): AssignResult {
  const result = assign(strategy, input);
  return strategy === 'cooperative-sticky' ? settleCooperative(input, result, generation).result : result;
}

/**
 * The stickiness check behind AbstractStickyAssignor.isSticky(): among members present in both assignments, no
 * topic has partitions moving from A to B and also from B to A (a 2-cycle of movements).
 */
export function assertNoReverseMovements(before: AssignResult, after: AssignResult): void {
  const previousOwner = new Map<string, string>();
  for (const [member, partitions] of Object.entries(before)) {
    partitions.forEach((p) => previousOwner.set(key(p), member));
  }
  const moves = new Set<string>();
  for (const [member, partitions] of Object.entries(after)) {
    for (const p of partitions) {
      const from = previousOwner.get(key(p));
      if (from !== undefined && from !== member && after[from] !== undefined) {
        moves.add(`${p.topic}\u0000${from}\u0000${member}`);
      }
    }
  }
  for (const move of moves) {
    const [topic, from, to] = move.split('\u0000');
    assert.ok(!moves.has(`${topic}\u0000${to}\u0000${from}`), `partitions of ${topic} move both ways between ${from} and ${to}`);
  }
}

/**
 * With equal subscriptions and no conflicting claims, a member that stays keeps what it had up to its new quota:
 * it either keeps all it had, or everything it gets now is from what it had.
 */
export function assertKeepsOwnedUpToQuota(before: AssignResult, after: AssignResult): void {
  for (const [member, partitions] of Object.entries(after)) {
    const had = new Set((before[member] ?? []).map(key));
    const has = new Set(partitions.map(key));
    const keptAll = [...had].every((p) => has.has(p));
    const onlyOld = [...has].every((p) => had.has(p));
    assert.ok(keptAll || onlyOld, `${member} lost partitions it had while also receiving new ones`);
  }
}
