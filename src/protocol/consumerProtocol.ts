// The classic consumer protocol's member metadata (subscription) and member assignment, as Kafka's hand-written
// ConsumerProtocol.java frames the generated ConsumerProtocolSubscription and ConsumerProtocolAssignment: an int16
// version, then the message at that version (a newer version is read with the newest layout known).
import { ByteReader } from './byteReader';
import { ByteWriter } from './byteWriter';
import { ProtocolError, errorMessage } from './errors';
import { ConsumerProtocolAssignment, type ConsumerProtocolAssignmentData } from './messages/consumerProtocolAssignment';
import { ConsumerProtocolSubscription } from './messages/consumerProtocolSubscription';
import type { MessageCodec } from './runtime';

export interface TopicPartitionRef {
  topic: string;
  partition: number;
}

export interface ConsumerSubscription {
  /** The version the member wrote (may be newer than the layouts known here). */
  version: number;
  topics: string[];
  userData: Uint8Array | null;
  /** v1+: partitions the member owned before this rebalance (cooperative protocol). */
  ownedPartitions: TopicPartitionRef[];
  /** v2+: generation the owned partitions belong to; -1 when absent. */
  generationId: number;
  /** v3+: client.rack; null when absent. */
  rackId: string | null;
}

export interface ConsumerAssignment {
  /** -1 for the empty assignment a group that is not Stable reports. */
  version: number;
  partitions: TopicPartitionRef[];
  userData: Uint8Array | null;
}

function flatten(topics: ReadonlyArray<{ topic: string; partitions: number[] }>): TopicPartitionRef[] {
  return topics.flatMap(({ topic, partitions }) => partitions.map((partition) => ({ topic, partition })));
}

/** Groups partitions by topic, topics in first-seen order (as Java's ConsumerProtocol does with its map). */
function byTopic(partitions: readonly TopicPartitionRef[]): Array<{ topic: string; partitions: number[] }> {
  const topics = new Map<string, number[]>();
  for (const { topic, partition } of partitions) {
    const list = topics.get(topic) ?? [];
    list.push(partition);
    topics.set(topic, list);
  }
  return [...topics].map(([topic, list]) => ({ topic, partitions: list }));
}

/**
 * Reads the version prefix and the message. Some clients write a version but leave out the fields it added at the
 * end (the bytes end early); those are read at the newest lower version whose layout the bytes fit, their
 * missing fields keeping their defaults, as the hand-written decoders did before.
 */
function decodeVersioned<T>(codec: MessageCodec<T>, bytes: Uint8Array, what: string): { version: number; message: T } {
  const reader = new ByteReader(bytes);
  const version = reader.int16();
  if (version < codec.validVersions.lo) {
    throw new ProtocolError(`${what}: unsupported version ${version}`);
  }
  let layout = Math.min(version, codec.validVersions.hi);
  for (;;) {
    const attempt = new ByteReader(bytes, 2);
    try {
      return { version, message: codec.read(attempt, layout) };
    } catch (error) {
      if (!(error instanceof ProtocolError) || layout === codec.validVersions.lo) {
        throw new ProtocolError(`${what} v${version}: ${errorMessage(error)}`);
      }
      layout--;
    }
  }
}

function encodeVersioned<T>(codec: MessageCodec<T>, version: number, message: T): Uint8Array {
  const writer = new ByteWriter();
  writer.int16(version);
  codec.write(writer, version, message);
  return writer.finish();
}

export function decodeSubscription(bytes: Uint8Array): ConsumerSubscription {
  const { version, message } = decodeVersioned(ConsumerProtocolSubscription, bytes, 'consumer subscription');
  return {
    version,
    topics: message.topics,
    userData: message.userData,
    ownedPartitions: flatten(message.ownedPartitions ?? []),
    generationId: message.generationId ?? -1,
    rackId: message.rackId ?? null,
  };
}

/** The subscription at `version` (3, the newest, by default); fields the version lacks must be at their defaults. */
export function encodeSubscription(subscription: Omit<ConsumerSubscription, 'version'>, version = 3): Uint8Array {
  return encodeVersioned(ConsumerProtocolSubscription, version, {
    topics: subscription.topics,
    userData: subscription.userData,
    ownedPartitions: byTopic(subscription.ownedPartitions),
    generationId: subscription.generationId,
    rackId: subscription.rackId,
  });
}

/** An empty buffer (what a group that is not Stable reports) decodes to version -1 with no partitions. */
export function decodeAssignment(bytes: Uint8Array): ConsumerAssignment {
  if (bytes.length === 0) {
    return { version: -1, partitions: [], userData: null };
  }
  let decoded: { version: number; message: ConsumerProtocolAssignmentData };
  try {
    decoded = decodeVersioned(ConsumerProtocolAssignment, bytes, 'consumer assignment');
  } catch (error) {
    // Some clients end an assignment right after its partitions; the tool has always shown those
    // partitions (null user data) rather than a decode error, so read them as if a null followed.
    const withNullUserData = new Uint8Array(bytes.length + 4);
    withNullUserData.set(bytes);
    withNullUserData.fill(0xff, bytes.length);
    try {
      decoded = decodeVersioned(ConsumerProtocolAssignment, withNullUserData, 'consumer assignment');
    } catch {
      throw error;
    }
  }
  return { version: decoded.version, partitions: flatten(decoded.message.assignedPartitions), userData: decoded.message.userData };
}

export function encodeAssignment(assignment: Omit<ConsumerAssignment, 'version'>, version = 3): Uint8Array {
  return encodeVersioned(ConsumerProtocolAssignment, version, {
    assignedPartitions: byTopic(assignment.partitions),
    userData: assignment.userData,
  });
}
