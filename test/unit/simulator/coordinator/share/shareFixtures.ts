/** What the share-engine tests share: heartbeat requests and a handler on a virtual clock, its records kept. */
import type { ShareGroupHeartbeatRequestData } from '../../../../../src/protocol/messages/shareGroupHeartbeatRequest';
import type { ShareGroupHeartbeatResponseData } from '../../../../../src/protocol/messages/shareGroupHeartbeatResponse';
import { VirtualClock } from '../../../../../src/simulator/common/clock';
import { VirtualClockTimer } from '../../../../../src/simulator/coordinator/group/consumerGroupSeams';
import { InMemoryTopicImage } from '../../../../../src/simulator/coordinator/group/modern/topicImage';
import type { OperationCause } from '../../../../../src/timeline/consumerGroupEvents';
import type { ShareGroupRecord } from '../../../../../src/simulator/coordinator/share/records';
import type { ShareGroupConfig } from '../../../../../src/simulator/coordinator/share/shareGroupConfig';
import { ShareGroupHeartbeatHandler } from '../../../../../src/simulator/coordinator/share/shareGroupHeartbeatHandler';

export const context = { clientId: 'consumer-queue-1', clientHost: '/127.0.0.1' };
export const ORDERS_TOPIC_ID = 'ordersTopicId00000000A';

export function request(memberId: string, memberEpoch: number, extra: Partial<ShareGroupHeartbeatRequestData> = {}): ShareGroupHeartbeatRequestData {
  return { groupId: 'queue', memberId, memberEpoch, rackId: null, subscribedTopicNames: memberEpoch === 0 ? ['orders'] : null, ...extra };
}

export function setup(config?: Partial<ShareGroupConfig>) {
  const clock = new VirtualClock();
  const image = new InMemoryTopicImage([{ topicId: ORDERS_TOPIC_ID, name: 'orders', numPartitions: 4 }]);
  const written: ShareGroupRecord[] = [];
  const batches: Array<{ records: readonly ShareGroupRecord[]; cause: OperationCause }> = [];
  const handler = new ShareGroupHeartbeatHandler({
    now: () => clock.now, timer: new VirtualClockTimer(clock), metadataImage: image, config,
    records: (_groupId, records, cause) => {
      written.push(...records);
      batches.push({ records, cause });
    },
  });
  return { clock, image, written, batches, handler };
}

/** The partitions of `orders` in a heartbeat's assignment. */
export function partitionsOf(response: ShareGroupHeartbeatResponseData): number[] {
  return (response.assignment?.topicPartitions ?? []).flatMap((t) => t.partitions).sort((a, b) => a - b);
}
