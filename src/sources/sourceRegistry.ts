/**
 * The cluster sources the tree shows, in display order. The simulator registers itself here today; real
 * Kafka connections are added the same way, each with no `control`.
 */
import type { ClusterSource, Unsubscribe } from '../model/clusterSource';
import type { GroupAdmin } from '../model/groupAdmin';
import type { TransactionAdmin } from '../model/transactions';
import type { SimulatorControl } from '../simulator/common/control';

export interface RegisteredSource {
  readonly source: ClusterSource;
  /** Present only for the simulator: what its commands may do to the running simulation. */
  readonly control?: SimulatorControl;
  /** Offset and group administration (reset, delete, remove members); absent for a source that cannot reach a cluster. */
  readonly admin?: GroupAdmin;
  /** Transaction administration (list, find hanging, abort); absent for a source that cannot reach a cluster. */
  readonly transactions?: TransactionAdmin;
}

export class SourceRegistry {
  private readonly entries = new Map<string, RegisteredSource>();
  private readonly listeners = new Set<() => void>();

  /** Fires when a source is added or removed (not when a source's data changes). */
  onDidChangeSources(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(entry: RegisteredSource): void {
    const id = entry.source.id;
    if (this.entries.has(id)) {
      throw new Error(`A cluster source with id "${id}" is already registered`);
    }
    this.entries.set(id, entry);
    this.emit();
  }

  /** Unregisters and disposes the source; unknown ids are ignored so a double "off" is harmless. */
  async remove(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) {
      return;
    }
    this.entries.delete(id);
    this.emit();
    await Promise.all([entry.source.dispose(), entry.admin?.dispose?.()]);
  }

  get(id: string): RegisteredSource | undefined {
    return this.entries.get(id);
  }

  /**
   * The entry once it is registered, or undefined after `timeoutMs`: real clusters register
   * asynchronously (their secrets are read first), after the panels VS Code restores on startup ask for them.
   */
  waitFor(id: string, timeoutMs: number): Promise<RegisteredSource | undefined> {
    const present = this.entries.get(id);
    if (present) {
      return Promise.resolve(present);
    }
    return new Promise((resolve) => {
      const finish = (entry: RegisteredSource | undefined): void => {
        clearTimeout(timer);
        unsubscribe();
        resolve(entry);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const unsubscribe = this.onDidChangeSources(() => {
        const entry = this.entries.get(id);
        if (entry) {
          finish(entry);
        }
      });
    });
  }

  /** The entry, or an error naming the missing id (a command can outlive the source it was invoked on). */
  require(id: string): RegisteredSource {
    const entry = this.entries.get(id);
    if (!entry) {
      throw new Error(`Cluster "${id}" is no longer available; refresh the view`);
    }
    return entry;
  }

  list(): RegisteredSource[] {
    return [...this.entries.values()];
  }

  async disposeAll(): Promise<void> {
    const ids = [...this.entries.keys()];
    await Promise.all(ids.map((id) => this.remove(id)));
  }

  private emit(): void {
    for (const listener of [...this.listeners]) {
      listener();
    }
  }
}
