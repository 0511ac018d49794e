/**
 * ConsumerProtocol metadata and assignments between the wire (bytes) and the engine (decoded).
 * User data travels through the engine as a latin1 string, which maps every byte to one char
 * and back, so a real client's opaque bytes return unchanged.
 */
import { ByteWriter } from '../../kafka/protocol/wire';
import { decodeAssignment, decodeSubscription } from '../../kafka/protocol/consumerProtocol';
import type { TopicPartition } from '../../model/types';
import type { ConsumerAssignment, ConsumerSubscription } from '../protocol';

function userDataToEngine(bytes: Buffer | null): string | undefined {
  return bytes === null ? undefined : bytes.toString('latin1');
}

function userDataToWire(userData: string | undefined): Buffer | null {
  return userData === undefined ? null : Buffer.from(userData, 'latin1');
}

export function subscriptionFromWire(bytes: Buffer): ConsumerSubscription {
  const decoded = decodeSubscription(bytes);
  const subscription: ConsumerSubscription = { topics: decoded.topics, ownedPartitions: decoded.ownedPartitions, generationId: decoded.generationId };
  const userData = userDataToEngine(decoded.userData);
  if (userData !== undefined) {
    subscription.userData = userData;
  }
  return subscription;
}

export function assignmentFromWire(bytes: Buffer): ConsumerAssignment {
  const decoded = decodeAssignment(bytes);
  const assignment: ConsumerAssignment = { partitions: decoded.partitions };
  const userData = userDataToEngine(decoded.userData);
  if (userData !== undefined) {
    assignment.userData = userData;
  }
  return assignment;
}

/** Topics in first-seen order, each with its partitions. */
function groupByTopic(partitions: readonly TopicPartition[]): Array<[string, number[]]> {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions) {
    const list = byTopic.get(topic);
    if (list) {
      list.push(partition);
    } else {
      byTopic.set(topic, [partition]);
    }
  }
  return [...byTopic.entries()];
}

function writeTopicPartitions(w: ByteWriter, partitions: readonly TopicPartition[]): void {
  w.array(groupByTopic(partitions), (tw, [topic, list]) => {
    tw.string(topic).array(list, (pw, p) => pw.int32(p));
  });
}

/** Version 1 (with owned partitions), or 2 when the owned partitions carry a generation. */
export function subscriptionToWire(subscription: ConsumerSubscription): Buffer {
  const version = subscription.generationId >= 0 ? 2 : 1;
  const w = new ByteWriter().int16(version).array(subscription.topics, (tw, t) => tw.string(t));
  w.bytes(userDataToWire(subscription.userData));
  writeTopicPartitions(w, subscription.ownedPartitions);
  if (version >= 2) {
    w.int32(subscription.generationId);
  }
  return w.toBuffer();
}

/** Version 0: partitions and user data, which every client reads. */
export function assignmentToWire(assignment: ConsumerAssignment): Buffer {
  const w = new ByteWriter().int16(0);
  writeTopicPartitions(w, assignment.partitions);
  return w.bytes(userDataToWire(assignment.userData) ?? Buffer.alloc(0)).toBuffer();
}
