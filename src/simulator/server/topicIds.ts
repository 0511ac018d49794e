/** Topic ids on the wire (Fetch v13+, Produce v13+, OffsetCommit/OffsetFetch v10+, Metadata v10+) and the cluster's topics. */
import type { SimCluster } from '../log/cluster';

/** The name `topicName` gives an id the cluster does not know: no real topic can be named "" (Kafka refuses it). */
export const UNKNOWN_TOPIC = '';

/** Kafka's Uuid.ZERO_UUID, what a topic without an id (or an unknown one) is answered with. */
export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

export function topicName(cluster: SimCluster, topicId: string | undefined): string {
  return (topicId === undefined ? undefined : cluster.topicById(topicId)?.name) ?? UNKNOWN_TOPIC;
}
