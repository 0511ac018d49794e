/** Simulated consumers in a small cluster, for the consumer's tests. */
import type { RebalanceEvent } from '../../../src/model/types';
import type { ConsumerSpec } from '../../../src/simulator/common/control';
import { Simulation } from '../../../src/simulator/simulation';

/** One topic "orders" of 6 partitions, the event log, and consumers added to group "g". */
export function setup() {
  const sim = new Simulation({ seed: 3 });
  sim.createTopic('orders', 6);
  const events: RebalanceEvent[] = [];
  sim.events.subscribe((e) => events.push(e));
  const of = (kind: RebalanceEvent['kind']) => events.filter((e) => e.kind === kind);
  const generation = () => sim.coordinator.group('g')?.generationId ?? 0;
  const add = (extra: Partial<ConsumerSpec> = {}, handle?: string) => sim.addConsumer({ groupId: 'g', topics: ['orders'], ...extra }, handle);
  return { sim, events, of, generation, add };
}

/** Partition in-0 with a committed transaction (0-4, marker 5), an aborted one (6-8, marker 9) and an open one (10-11). */
export function transactionalLog() {
  const sim = new Simulation({ seed: 3 });
  sim.createTopic('in', 1);
  const producer = sim.initTransactions('tx');
  producer.beginTransaction();
  producer.send('in', 5); // 0-4, COMMIT marker at 5
  producer.commitTransaction();
  producer.beginTransaction();
  producer.send('in', 3); // 6-8 aborted, ABORT marker at 9
  producer.abortTransaction();
  producer.beginTransaction();
  producer.send('in', 2); // 10-11, still open
  const add = (groupId: string, isolationLevel: 'read_committed' | 'read_uncommitted') =>
    sim.addConsumer({ groupId, topics: ['in'], autoOffsetReset: 'earliest', isolationLevel }, groupId);
  const position = (handle: string) => sim.consumer(handle).positions[0]?.position;
  return { sim, producer, add, position };
}
