// Kept only for src/simulator/server, which still imports it; the client uses src/protocol. It goes when the
// simulator's server moves onto the generated layer (issue 16, server side).
/**
 * Decoders for the classic consumer protocol's member metadata (ConsumerProtocolSubscription) and
 * member assignment (ConsumerProtocolAssignment), versions 0 to 3, as Java's ConsumerProtocol writes
 * them. Like Java, a newer version is read with the newest layout known, and fields a shorter
 * message lacks keep their defaults.
 */
import type { TopicPartition } from '../../model/types';
import { ByteReader, ProtocolDecodeError } from './wire';

export interface ConsumerSubscription {
  version: number;
  topics: string[];
  userData: Buffer | null;
  /** v1+: partitions the member owned before this rebalance (cooperative protocol). */
  ownedPartitions: TopicPartition[];
  /** v2+: generation the owned partitions belong to; -1 when absent. */
  generationId: number;
  /** v3+: client.rack; null when absent. */
  rackId: string | null;
}

export interface ConsumerAssignment {
  version: number;
  partitions: TopicPartition[];
  userData: Buffer | null;
}

function readTopicPartitions(r: ByteReader): TopicPartition[] {
  return r
    .array((t) => {
      const topic = t.string();
      return t.array((p) => p.int32()).map((partition) => ({ topic, partition }));
    })
    .flat();
}

function checkVersion(version: number, what: string): void {
  if (version < 0) {
    throw new ProtocolDecodeError(`${what}: negative version ${version}`);
  }
}

export function decodeSubscription(bytes: Buffer): ConsumerSubscription {
  const r = new ByteReader(bytes, 'consumer subscription');
  const version = r.int16();
  checkVersion(version, 'consumer subscription');
  const topics = r.array((t) => t.string());
  const userData = r.nullableBytes();
  const subscription: ConsumerSubscription = { version, topics, userData, ownedPartitions: [], generationId: -1, rackId: null };
  if (version >= 1 && r.remaining > 0) {
    subscription.ownedPartitions = readTopicPartitions(r);
  }
  if (version >= 2 && r.remaining > 0) {
    subscription.generationId = r.int32();
  }
  if (version >= 3 && r.remaining > 0) {
    subscription.rackId = r.nullableString();
  }
  return subscription;
}

/** An empty buffer (what a non-Stable group reports) decodes to version -1 with no partitions. */
export function decodeAssignment(bytes: Buffer): ConsumerAssignment {
  if (bytes.length === 0) {
    return { version: -1, partitions: [], userData: null };
  }
  const r = new ByteReader(bytes, 'consumer assignment');
  const version = r.int16();
  checkVersion(version, 'consumer assignment');
  const partitions = readTopicPartitions(r);
  const userData = r.remaining > 0 ? r.nullableBytes() : null;
  return { version, partitions, userData };
}
