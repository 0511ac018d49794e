/**
 * ConsumerProtocol metadata and assignments between the wire (bytes) and the engine (decoded).
 * User data travels through the engine as a latin1 string, which maps every byte to one char
 * and back, so a real client's opaque bytes return unchanged.
 */
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from '../../protocol/consumerProtocol';
import type { ConsumerAssignment, ConsumerSubscription } from '../common/requests';

function userDataToEngine(bytes: Uint8Array | null): string | undefined {
  return bytes === null ? undefined : Buffer.from(bytes).toString('latin1');
}

function userDataToWire(userData: string | undefined): Uint8Array | null {
  return userData === undefined ? null : Buffer.from(userData, 'latin1');
}

export function subscriptionFromWire(bytes: Uint8Array): ConsumerSubscription {
  const decoded = decodeSubscription(bytes);
  const subscription: ConsumerSubscription = { topics: decoded.topics, ownedPartitions: decoded.ownedPartitions, generationId: decoded.generationId };
  const userData = userDataToEngine(decoded.userData);
  if (userData !== undefined) {
    subscription.userData = userData;
  }
  return subscription;
}

export function assignmentFromWire(bytes: Uint8Array): ConsumerAssignment {
  const decoded = decodeAssignment(bytes);
  const assignment: ConsumerAssignment = { partitions: decoded.partitions };
  const userData = userDataToEngine(decoded.userData);
  if (userData !== undefined) {
    assignment.userData = userData;
  }
  return assignment;
}

/** Version 1 (with owned partitions), or 2 when the owned partitions carry a generation. */
export function subscriptionToWire(subscription: ConsumerSubscription): Buffer {
  const version = subscription.generationId >= 0 ? 2 : 1;
  return asBuffer(encodeSubscription(
    { topics: subscription.topics, userData: userDataToWire(subscription.userData), ownedPartitions: subscription.ownedPartitions, generationId: version >= 2 ? subscription.generationId : -1, rackId: null },
    version,
  ));
}

/** Version 0: partitions and user data, which every client reads (an absent user data is written empty, as before). */
export function assignmentToWire(assignment: ConsumerAssignment): Buffer {
  return asBuffer(encodeAssignment({ partitions: assignment.partitions, userData: userDataToWire(assignment.userData) ?? new Uint8Array(0) }, 0));
}

/** The same bytes as a Buffer (no copy), which is what callers outside the protocol layer mostly handle. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
