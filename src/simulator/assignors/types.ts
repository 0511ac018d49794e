import type { TopicPartition } from '../../model/types';
import type { AssignorName } from '../common/control';

export type { AssignorName };

/** One group member as the leader's assignor sees it (ConsumerProtocol Subscription + member identity). */
export interface AssignorMember {
  memberId: string;
  groupInstanceId?: string;
  topics: string[];
  /** Partitions the member owned in the previous generation (cooperative-sticky's ownedPartitions, sticky's userData). */
  owned?: TopicPartition[];
  /** Generation in which `owned` was held; -1 when unknown. */
  generation?: number;
}

export interface AssignInput {
  partitionsPerTopic: Record<string, number>;
  members: AssignorMember[];
}

/** memberId → assigned partitions; every member is present, possibly with an empty list. */
export type AssignResult = Record<string, TopicPartition[]>;
