import type { RebalanceEvent } from '../../model/types';

export const DEFAULT_EVENTS_PER_GROUP = 5000;

/** Fixed-capacity ring buffer: the oldest entries are overwritten. */
class Ring<T> {
  private readonly items: T[] = [];
  private start = 0;

  constructor(private readonly capacity: number) {}

  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  toArray(): T[] {
    return this.start === 0 ? this.items.slice() : [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }
}

export type EventListener = (event: RebalanceEvent) => void;

/** The engine's rebalance event log: bounded per group, with listeners that see every event. */
export class EventLog {
  private readonly byGroup = new Map<string, Ring<RebalanceEvent>>();
  private readonly listeners = new Set<EventListener>();
  private total = 0;

  constructor(private readonly capacityPerGroup = DEFAULT_EVENTS_PER_GROUP) {
    if (!Number.isInteger(capacityPerGroup) || capacityPerGroup < 1) {
      throw new Error(`Event capacity per group must be a positive integer, got ${capacityPerGroup}`);
    }
  }

  /** Events emitted since the start, including those that rolled out of the buffers. */
  get totalCount(): number {
    return this.total;
  }

  emit(event: RebalanceEvent): void {
    let ring = this.byGroup.get(event.groupId);
    if (!ring) {
      ring = new Ring(this.capacityPerGroup);
      this.byGroup.set(event.groupId, ring);
    }
    ring.push(event);
    this.total++;
    for (const listener of this.listeners) {
      listener(event);
    }
  }

  /** Retained events of one group, oldest first. */
  forGroup(groupId: string): RebalanceEvent[] {
    return this.byGroup.get(groupId)?.toArray() ?? [];
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
