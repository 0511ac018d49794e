/**
 * The Transactions rows: the cluster's transactional ids with their state, as kafka-transactions.sh list
 * and describe show them; an open transaction says how long it has been open against its timeout and
 * which partitions it holds. The children are read here too: every listing, and DescribeTransactions for
 * the open ones, bounded so a cluster with thousands of transactional ids costs two requests per broker.
 */
import type { TransactionAdmin, TransactionDescription, TransactionListing, TransactionStateName } from '../model/transactions';
import { errorMessage } from '../protocol/errors';
import { elapsedText } from '../transactions/transactionText';
import { markdownFields } from './markdown';
import { formatCount, plural, type NodeDescriptor } from './rowFormat';
import { nodeIds, type MessageNode, type TransactionNode, type TransactionsNode, type TreeNode } from './treeNodes';

/** Rows shown under Transactions; the rest are counted in a message row. */
export const MAX_TRANSACTION_ROWS = 500;
/** Open transactions described (DescribeTransactions) per read. */
export const MAX_DESCRIBED_TRANSACTIONS = 100;

const OPEN_STATES: ReadonlySet<TransactionStateName> = new Set(['Ongoing', 'PrepareCommit', 'PrepareAbort', 'PrepareEpochFence']);

export function isOpen(state: TransactionStateName): boolean {
  return OPEN_STATES.has(state);
}

function message(parentId: string, slot: string, severity: MessageNode['severity'], text: string): MessageNode {
  return { kind: 'message', id: nodeIds.message(parentId, slot), severity, text };
}

/** Open transactions first, the longest open first; then the others by transactional id. */
function byAttention(a: TransactionNode, b: TransactionNode): number {
  const openA = isOpen(a.listing.state);
  const openB = isOpen(b.listing.state);
  if (openA !== openB) {
    return openA ? -1 : 1;
  }
  const startA = a.description?.transactionStartTimeMs ?? Infinity;
  const startB = b.description?.transactionStartTimeMs ?? Infinity;
  if (openA && startA !== startB) {
    return startA - startB;
  }
  return a.listing.transactionalId < b.listing.transactionalId ? -1 : a.listing.transactionalId > b.listing.transactionalId ? 1 : 0;
}

export async function transactionChildren(node: TransactionsNode, admin: TransactionAdmin): Promise<TreeNode[]> {
  let listings: TransactionListing[];
  try {
    listings = await admin.listTransactions();
  } catch (e) {
    return [message(node.id, 'error', 'error', `Failed to list transactions: ${errorMessage(e)}`)];
  }
  if (listings.length === 0) {
    return [message(node.id, 'empty', 'info', 'No transactional ids')];
  }
  const open = listings.filter((l) => isOpen(l.state));
  const described = new Map<string, { description?: TransactionDescription; error?: string }>();
  const toDescribe = open.slice(0, MAX_DESCRIBED_TRANSACTIONS).map((l) => l.transactionalId);
  if (toDescribe.length > 0) {
    try {
      for (const result of await admin.describeTransactions(toDescribe)) {
        described.set(result.transactionalId, result);
      }
    } catch (e) {
      for (const id of toDescribe) {
        described.set(id, { error: errorMessage(e) });
      }
    }
  }
  const readAt = admin.now();
  const rows = listings
    .map((listing): TransactionNode => {
      const found = described.get(listing.transactionalId);
      return {
        kind: 'transaction',
        id: nodeIds.transaction(node.sourceId, listing.transactionalId),
        sourceId: node.sourceId,
        listing,
        readAt,
        ...(found?.description ? { description: found.description } : {}),
        ...(found?.error !== undefined ? { describeError: found.error } : {}),
      };
    })
    .sort(byAttention);
  const shown: TreeNode[] = rows.slice(0, MAX_TRANSACTION_ROWS);
  if (rows.length > MAX_TRANSACTION_ROWS) {
    shown.push(message(node.id, 'more', 'info', `${formatCount(rows.length - MAX_TRANSACTION_ROWS)} more transactional ids not shown (kafka-transactions.sh list shows them all)`));
  }
  return shown;
}

export function describeTransactions(): NodeDescriptor {
  return {
    label: 'Transactions',
    tooltip: markdownFields('Transactions', [
      ['What', 'the transactional ids of this cluster and their state, as kafka-transactions.sh list and describe show them'],
      ['Order', 'open transactions first, the longest open first'],
    ]),
    contextValue: 'kgl:transactions',
    icon: { id: 'arrow-swap' },
    collapsible: 'collapsed',
  };
}

const STATE_ICONS: Partial<Record<TransactionStateName, string>> = {
  Ongoing: 'record',
  PrepareCommit: 'sync',
  PrepareAbort: 'sync',
  PrepareEpochFence: 'sync',
  CompleteCommit: 'pass',
  CompleteAbort: 'circle-slash',
  Empty: 'circle-outline',
};

function partitionsText(d: TransactionDescription): string {
  return d.topicPartitions.map((tp) => `${tp.topic}-${tp.partition}`).join(', ');
}

export function describeTransaction(node: TransactionNode): NodeDescriptor {
  const { listing, description: d } = node;
  const open = isOpen(listing.state);
  const openFor = d && open && d.transactionStartTimeMs >= 0 ? node.readAt - d.transactionStartTimeMs : null;
  const pastTimeout = openFor !== null && d !== undefined && openFor > d.transactionTimeoutMs;
  const parts: string[] = [listing.state];
  if (openFor !== null && d) {
    parts.push(`open ${elapsedText(openFor)}, timeout ${elapsedText(d.transactionTimeoutMs)}`);
  }
  if (d && open) {
    parts.push(d.topicPartitions.length > 3 ? plural(d.topicPartitions.length, 'partition') : partitionsText(d) || 'no partitions');
  }
  parts.push(`producer ${listing.producerId}${d ? `, epoch ${d.producerEpoch}` : ''}`);
  const fields: Array<[string, string]> = [
    ['CoordinatorId', String(d?.coordinatorId ?? listing.coordinatorId)],
    ['ProducerId', String(listing.producerId)],
    ['TransactionState', listing.state],
  ];
  if (d) {
    fields.push(['ProducerEpoch', String(d.producerEpoch)], ['TransactionTimeoutMs', String(d.transactionTimeoutMs)]);
    fields.push(['CurrentTransactionStartTimeMs', d.transactionStartTimeMs >= 0 ? `${d.transactionStartTimeMs} (${new Date(d.transactionStartTimeMs).toISOString()})` : 'None']);
    if (openFor !== null) {
      fields.push(['TransactionDurationMs', `${openFor}${pastTimeout ? ' (past its timeout: the coordinator aborts it at its next check)' : ''}`]);
    }
    fields.push(['TopicPartitions', partitionsText(d) || 'none']);
  } else if (node.describeError !== undefined) {
    fields.push(['Described', `no: ${node.describeError}`]);
  }
  return {
    label: listing.transactionalId,
    description: parts.join(' · '),
    tooltip: markdownFields(listing.transactionalId, fields),
    contextValue: `kgl:transaction:${open ? 'open' : 'ended'}`,
    icon: { id: STATE_ICONS[listing.state] ?? 'question', ...(pastTimeout ? { color: 'charts.yellow' } : open ? { color: 'charts.orange' } : {}) },
    collapsible: 'none',
  };
}
