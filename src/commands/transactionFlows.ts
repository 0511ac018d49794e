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

/** What the user named so far; the flow asks the rest. */
export type AbortTargetHint = Partial<AbortTarget>;

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

/**
 * Abort Transaction…: the partition and the transaction's start offset (asked when not known from the
 * row), the plan with kafka-transactions.sh abort's lookup, a confirmation that names the cost, then the
 * marker after a re-check. Undefined when the user cancelled; throws what failed.
 */
export async function abortTransactionFlow(prompts: AdminPrompts, admin: TransactionAdmin, hint: AbortTargetHint = {}): Promise<AbortOutcome | undefined> {
  const title = 'Abort Transaction';
  const topic = hint.topic ?? (await askTopic(prompts, admin, title));
  if (topic === undefined) {
    return undefined;
  }
  let partition = hint.partition;
  if (partition === undefined) {
    const text = await prompts.input({ title, prompt: `Partition of ${topic}`, value: '0', validate: partitionRule.validate });
    if (text === undefined) {
      return undefined;
    }
    partition = partitionRule.parse(text);
  }
  let startOffset = hint.startOffset;
  if (startOffset === undefined) {
    const [described] = await admin.describeProducers([{ topic, partition }]);
    const open = (described?.producers ?? []).filter((p) => p.currentTxnStartOffset >= 0);
    const picked =
      open.length > 0
        ? await prompts.pickOne(
            open.map((p) => ({ label: `Offset ${p.currentTxnStartOffset}`, description: `producer ${p.producerId}, epoch ${p.producerEpoch}`, value: p.currentTxnStartOffset })),
            { title, placeholder: `The open transactions on ${topic}-${partition}, by start offset` },
          )
        : await prompts.input({ title, prompt: `Start offset of the transaction to abort on ${topic}-${partition}`, validate: offsetRule.validate }).then((t) => (t === undefined ? undefined : offsetRule.parse(t)));
    if (picked === undefined) {
      return undefined;
    }
    startOffset = picked;
  }
  const target = { topic, partition, startOffset };
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
