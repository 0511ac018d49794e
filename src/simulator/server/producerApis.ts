/**
 * InitProducerId for idempotent producers (Java's default, kafkajs `idempotent: true`). Produce
 * appends every batch, so ids only need to be unique; transactional ids are refused until the
 * transaction APIs exist.
 */
import { ByteReader, ByteWriter } from '../../kafka/protocol/wire';
import { expectEnd, type ApiDefinition, type RequestContext } from './context';
import { INVALID_REQUEST, NO_ERROR } from './errorCodes';

function initProducerId(r: ByteReader, ctx: RequestContext): Buffer {
  const transactionalId = r.nullableString();
  r.int32(); // transaction timeout
  expectEnd(r, 'InitProducerId');
  const w = new ByteWriter().int32(0);
  if (transactionalId !== null) {
    ctx.server.log(`InitProducerId: transactional id "${transactionalId}" refused: the server does not offer transactions yet`);
    return w.int16(INVALID_REQUEST).int64(-1).int16(-1).toBuffer();
  }
  return w.int16(NO_ERROR).int64(ctx.server.allocateProducerId()).int16(0).toBuffer();
}

export const PRODUCER_APIS: readonly ApiDefinition[] = [{ key: 22, name: 'InitProducerId', minVersion: 0, maxVersion: 1, handle: initProducerId }];
