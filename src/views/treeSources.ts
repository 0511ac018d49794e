/**
 * What the tree reads of the registered cluster sources. `src/sources/` builds and registers them (its
 * SourceRegistry satisfies this); the tree only lists and describes them, so it knows no concrete source.
 */
import type { ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { SimulatedConsumerInfo } from '../model/simulatedConsumer';
import type { TransactionAdmin } from '../model/transactions';

export interface TreeSource {
  readonly source: ClusterSource;
  /** Present only for the simulator: the consumers it runs, shown next to the members they became. */
  readonly control?: { listConsumers(groupId?: string): SimulatedConsumerInfo[] };
  /** Present where the cluster's transactions can be listed: the tree then shows a Transactions row. */
  readonly transactions?: TransactionAdmin;
}

export interface TreeSources {
  /** Fires when a source is added or removed (not when a source's data changes). */
  onDidChangeSources(listener: () => void): Unsubscribe;
  get(id: string): TreeSource | undefined;
  /** In display order. */
  list(): TreeSource[];
}
