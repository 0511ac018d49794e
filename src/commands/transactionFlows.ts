/**
 * The question sequences of Find Hanging Transactions and Abort Transaction, over a TransactionAdmin and
 * the plain prompts, so they run (and are tested) without the editor. The searches and the marker are
 * src/transactions'; this file asks what to search or abort, previews it and confirms.
 */
import type { TransactionAdmin } from '../model/transactions';
import { executeAbort, planAbort, type AbortTarget } from '../transactions/abortTransaction';
import { DEFAULT_MAX_TRANSACTION_TIMEOUT_MS, findHangingTransactions, type FindHangingScope, type HangingTransaction } from '../transactions/findHanging';
import { abortConfirmation } from '../transactions/transactionText';
import type { AdminPrompts } from './adminPrompts';
import { numberRule, validateKafkaName } from './inputValidation';

const partitionRule = numberRule({ name: 'Partition', min: 0, max: 2_147_483_647, integer: true });
const offsetRule = numberRule({ name: 'Start offset', min: 0, max: Number.MAX_SAFE_INTEGER, integer: true });
const brokerRule = numberRule({ name: 'Broker id', min: 0, max: 2_147_483_647, integer: true });
const timeoutMinutesRule = numberRule({ name: 'Maximum transaction timeout', min: 0, max: 10_080, integer: true, unit: 'min' });

/**
 * What the row named so far; the flow asks the rest. A transaction row names its producer and the
 * partitions its coordinator holds: the user picks one, and the producer's open transaction there is the one.
 */
export type AbortTargetHint = Partial<AbortTarget> & { producerId?: number; choices?: ReadonlyArray<{ topic: string; partition: number }> };

export interface AbortOutcome {
  target: AbortTarget;
  producerId: number;
  transactionalId?: string;
}

async function askTopic(prompts: AdminPrompts, admin: TransactionAdmin, title: string): Promise<string | undefined> {
  const topics = [...new Set((await admin.topicPartitions()).map((p) => p.topic))].sort();
  if (topics.length > 0 && topics.length <= 500) {
    return prompts.pickOne(topics.map((t) => ({ label: t, value: t })), { title, placeholder: 'Topic' });
  }
  return prompts.input({ title, prompt: 'Topic name', validate: (text) => validateKafkaName('Topic', text) });
}

/** The partition to abort on: the row's, one of a transaction row's partitions, or asked. */
async function askPartition(prompts: AdminPrompts, admin: TransactionAdmin, hint: AbortTargetHint, title: string): Promise<{ topic: string; partition: number } | undefined> {
  if (hint.topic !== undefined && hint.partition !== undefined) {
    return { topic: hint.topic, partition: hint.partition };
  }
  if (hint.topic === undefined && hint.choices !== undefined && hint.choices.length > 0) {
    return prompts.pickOne(hint.choices.map((c) => ({ label: `${c.topic}-${c.partition}`, value: c })), { title, placeholder: 'The partition whose part of the transaction to abort' });
  }
  const topic = hint.topic ?? (await askTopic(prompts, admin, title));
  if (topic === undefined) {
    return undefined;
  }
  const text = await prompts.input({ title, prompt: `Partition of ${topic}`, value: '0', validate: partitionRule.validate });
  return text === undefined ? undefined : { topic, partition: partitionRule.parse(text) };
}

/** The start offset of the transaction to abort: the hint's producer's, one of the open ones picked, or typed. */
async function askStartOffset(prompts: AdminPrompts, admin: TransactionAdmin, where: { topic: string; partition: number }, producerId: number | undefined, title: string): Promise<number | undefined> {
  const name = `${where.topic}-${where.partition}`;
  const [described] = await admin.describeProducers([where]);
  if (described?.error !== undefined) {
    throw new Error(`Failed to describe producers for partition ${name}: ${described.error}`);
  }
  const open = (described?.producers ?? []).filter((p) => p.currentTxnStartOffset >= 0 && (producerId === undefined || p.producerId === producerId));
  if (producerId !== undefined) {
    if (open.length === 0) {
      throw new Error(`Producer ${producerId} has no open transaction on ${name}`);
    }
    return open[0].currentTxnStartOffset;
  }
  if (open.length > 0) {
    return prompts.pickOne(
      open.map((p) => ({ label: `Offset ${p.currentTxnStartOffset}`, description: `producer ${p.producerId}, epoch ${p.producerEpoch}`, value: p.currentTxnStartOffset })),
      { title, placeholder: `The open transactions on ${name}, by start offset` },
    );
  }
  const text = await prompts.input({ title, prompt: `Start offset of the transaction to abort on ${name}`, validate: offsetRule.validate });
  return text === undefined ? undefined : offsetRule.parse(text);
}

/**
 * Abort Transaction…: the partition and the transaction's start offset (asked when not known from the
 * row), the plan with kafka-transactions.sh abort's lookup, a confirmation that names the cost, then the
 * marker after a re-check. Undefined when the user cancelled; throws what failed.
 */
export async function abortTransactionFlow(prompts: AdminPrompts, admin: TransactionAdmin, hint: AbortTargetHint = {}): Promise<AbortOutcome | undefined> {
  const title = 'Abort Transaction';
  const where = await askPartition(prompts, admin, hint, title);
  if (where === undefined) {
    return undefined;
  }
  const startOffset = hint.startOffset ?? (await askStartOffset(prompts, admin, where, hint.producerId, title));
  if (startOffset === undefined) {
    return undefined;
  }
  const target = { ...where, startOffset };
  const plan = await planAbort(admin, target);
  const { message, detail } = abortConfirmation(plan, admin.now());
  if (!(await prompts.confirm({ message, detail, action: 'Abort Transaction' }))) {
    return undefined;
  }
  await executeAbort(admin, plan);
  return { target, producerId: plan.spec.producerId, ...(plan.transactionalId !== undefined ? { transactionalId: plan.transactionalId } : {}) };
}

/** Find Hanging Transactions…: a topic (or one of its partitions) or a broker, the maximum timeout, then the tool's search. */
export async function findHangingFlow(
  prompts: AdminPrompts,
  admin: TransactionAdmin,
  hint: { topic?: string } = {},
  search: (scope: FindHangingScope) => Promise<HangingTransaction[]> = (scope) => findHangingTransactions(admin, scope),
): Promise<{ scope: FindHangingScope; hanging: HangingTransaction[] } | undefined> {
  const title = 'Find Hanging Transactions';
  let scope: FindHangingScope;
  if (hint.topic !== undefined) {
    scope = { topic: hint.topic };
  } else {
    const by = await prompts.pickOne(
      [
        { label: 'A topic', description: '--topic', value: 'topic' as const },
        { label: 'A broker', description: '--broker-id: every partition with a replica there', value: 'broker' as const },
      ],
      { title, placeholder: 'Where to search' },
    );
    if (by === undefined) {
      return undefined;
    }
    if (by === 'topic') {
      const topic = await askTopic(prompts, admin, title);
      if (topic === undefined) {
        return undefined;
      }
      scope = { topic };
    } else {
      const text = await prompts.input({ title, prompt: 'Broker id', validate: brokerRule.validate });
      if (text === undefined) {
        return undefined;
      }
      scope = { brokerId: brokerRule.parse(text) };
    }
  }
  const minutes = await prompts.input({
    title,
    prompt: 'Maximum transaction timeout in minutes (--max-transaction-timeout): open transactions whose producer wrote more recently are not looked at',
    value: String(DEFAULT_MAX_TRANSACTION_TIMEOUT_MS / 60_000),
    validate: timeoutMinutesRule.validate,
  });
  if (minutes === undefined) {
    return undefined;
  }
  scope.maxTransactionTimeoutMs = timeoutMinutesRule.parse(minutes) * 60_000;
  return { scope, hanging: await search(scope) };
}
