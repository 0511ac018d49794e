/**
 * java.util.PriorityQueue with a comparator: the same binary heap, sift-up on add and sift-down on poll, so that
 * elements comparing equal leave the queue in exactly the order Java's queue hands them out. Kafka's streams
 * assignor lets that order decide ties between equally loaded processes and members.
 */
export class JavaPriorityQueue<E> {
  private readonly heap: E[] = [];

  constructor(private readonly compare: (a: E, b: E) => number) {}

  get size(): number {
    return this.heap.length;
  }

  isEmpty(): boolean {
    return this.heap.length === 0;
  }

  /** PriorityQueue.add / offer (siftUpUsingComparator). */
  add(element: E): void {
    const heap = this.heap;
    let k = heap.length;
    heap.push(element);
    while (k > 0) {
      const parent = (k - 1) >>> 1;
      const above = heap[parent];
      if (this.compare(element, above) >= 0) {
        break;
      }
      heap[k] = above;
      k = parent;
    }
    heap[k] = element;
  }

  /** AbstractQueue.addAll, which PriorityQueue inherits: one add per element, in iteration order. */
  addAll(elements: Iterable<E>): void {
    for (const element of elements) {
      this.add(element);
    }
  }

  /** PriorityQueue.poll (siftDownUsingComparator); undefined when empty, as Java's null. */
  poll(): E | undefined {
    const heap = this.heap;
    if (heap.length === 0) {
      return undefined;
    }
    const result = heap[0];
    const last = heap.pop() as E;
    const n = heap.length;
    if (n > 0) {
      let k = 0;
      const half = n >>> 1;
      while (k < half) {
        let child = 2 * k + 1;
        let smaller = heap[child];
        const right = child + 1;
        if (right < n && this.compare(smaller, heap[right]) > 0) {
          child = right;
          smaller = heap[child];
        }
        if (this.compare(last, smaller) <= 0) {
          break;
        }
        heap[k] = smaller;
        k = child;
      }
      heap[k] = last;
    }
    return result;
  }
}
