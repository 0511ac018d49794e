/**
 * The acknowledgements of a ShareFetch or ShareAcknowledge, per partition, as KafkaApis reads and checks them
 * before the share partitions see them: an unknown topic id answers UNKNOWN_TOPIC_ID, a partition whose
 * batches are malformed (first after last, out of order, no types, a per-offset type list of the wrong length,
 * an unknown type, RENEW outside a renew request) answers INVALID_REQUEST, and a partition the topic does not
 * have answers UNKNOWN_TOPIC_OR_PARTITION. What survives goes to SharePartitionManager.acknowledge.
 */
import { errorCodeOf, kafkaError } from '../../protocol/errorCodes';
import { AcknowledgeType } from '../share/recordState';
import type { ShareAcknowledgementBatch } from '../share/shareAcknowledgements';
import type { SharePartitionManager } from '../share/sharePartitionManager';
import type { RequestContext } from './context';

/** One partition's acknowledgements as the request carries them. */
export interface RequestedAcknowledgements {
  topicId: string;
  partition: number;
  batches: readonly { firstOffset: bigint; lastOffset: bigint; acknowledgeTypes: readonly number[] }[];
}

/** The outcome for one partition. */
export interface AcknowledgementOutcome {
  topicId: string;
  partition: number;
  errorCode: number;
  errorMessage: string | null;
}

/** Errors.X with its default message, as ShareAcknowledgeResponse.partitionResponse answers it. */
export function partitionError(name: string): { errorCode: number; errorMessage: string | null } {
  const errorCode = errorCodeOf(name);
  return { errorCode, errorMessage: kafkaError(errorCode)?.message ?? null };
}

/** KafkaApis.validateAcknowledgementBatches for one partition: whether its batches can go to the share partition. */
export function validAcknowledgementBatches(batches: RequestedAcknowledgements['batches'], supportsRenew: boolean, isRenewAck: boolean): boolean {
  const maxType = supportsRenew ? AcknowledgeType.RENEW : AcknowledgeType.REJECT;
  let prevEndOffset = -1n;
  for (const batch of batches) {
    const types = batch.acknowledgeTypes;
    if (batch.firstOffset > batch.lastOffset || batch.firstOffset < prevEndOffset || types.length === 0) {
      return false;
    }
    if (types.length > 1 && batch.lastOffset - batch.firstOffset !== BigInt(types.length - 1)) {
      return false;
    }
    if (types.some((type) => type < 0 || type > maxType) || (types.includes(AcknowledgeType.RENEW) && !isRenewAck)) {
      return false;
    }
    prevEndOffset = batch.lastOffset;
  }
  return true;
}

/** Offsets past 2^53 cannot name a record the simulator holds: such a batch is malformed too. */
function toShareBatches(batches: RequestedAcknowledgements['batches']): ShareAcknowledgementBatch[] | null {
  const result: ShareAcknowledgementBatch[] = [];
  for (const batch of batches) {
    const first = Number(batch.firstOffset);
    const last = Number(batch.lastOffset);
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < 0) {
      return null;
    }
    result.push({ firstOffset: first, lastOffset: last, acknowledgeTypes: batch.acknowledgeTypes });
  }
  return result;
}

/** KafkaApis.handleAcknowledgements: each partition's acknowledgements checked, then applied. */
export function handleAcknowledgements(ctx: RequestContext, manager: SharePartitionManager, groupId: string, memberId: string, requested: readonly RequestedAcknowledgements[], supportsRenew: boolean, isRenewAck: boolean): AcknowledgementOutcome[] {
  const cluster = ctx.server.simulation.cluster;
  return requested.map(({ topicId, partition, batches }): AcknowledgementOutcome => {
    const topic = cluster.topicById(topicId);
    if (topic === undefined) {
      return { topicId, partition, ...partitionError('UNKNOWN_TOPIC_ID') };
    }
    const shareBatches = validAcknowledgementBatches(batches, supportsRenew, isRenewAck) ? toShareBatches(batches) : null;
    if (shareBatches === null) {
      ctx.server.log(`share group ${groupId}: ${memberId}'s acknowledgements of ${topic.name}-${partition} are malformed`);
      return { topicId, partition, ...partitionError('INVALID_REQUEST') };
    }
    if (partition < 0 || partition >= topic.partitions.length) {
      return { topicId, partition, ...partitionError('UNKNOWN_TOPIC_OR_PARTITION') };
    }
    if (shareBatches.length === 0) {
      return { topicId, partition, errorCode: 0, errorMessage: null };
    }
    const result = manager.acknowledge(groupId, memberId, topicId, partition, shareBatches);
    if (result.errorCode !== 0) {
      ctx.server.log(`share group ${groupId}: ${memberId}'s acknowledgements of ${topic.name}-${partition} refused: ${result.errorMessage ?? ''}`);
    }
    return { topicId, partition, ...result };
  });
}
