/**
 * What the describes of Kafka 4.x's three new group types (KIP-848 consumer, KIP-932 share, KIP-1071
 * streams) have in common: one result shape per group for the load pipeline, each type's own
 * states, per-group errors (a describe the broker refuses is an error on that group, never a
 * "Dead"), and the small conversions their codecs need.
 */
import {
  GROUP_STATES_BY_TYPE,
  type ConsumerGroupInfo,
  type GroupDetail,
  type GroupState,
  type KafkaGroupType,
  type Member,
  type ShareGroupInfo,
  type StreamsGroupInfo,
} from '../model/types';
import { describeError, errorName } from '../protocol/errorCodes';
import { GROUP_ID_NOT_FOUND, UNSUPPORTED_VERSION } from './kafkaErrors';

/** The group types that need their own describe API; classic groups use DescribeGroups. */
export type ModernGroupType = Exclude<KafkaGroupType, 'classic'>;

export { GROUP_ID_NOT_FOUND };

/**
 * A type's describe says the group is not of that type: GROUP_ID_NOT_FOUND, or UNSUPPORTED_VERSION from a
 * broker that serves the API with the type's feature off (share groups on 4.1 until share.version=1),
 * where no group can be of the type.
 */
export function notOfThisType(errorCode: number): boolean {
  return errorCode === GROUP_ID_NOT_FOUND || errorCode === UNSUPPORTED_VERSION;
}

/** One group as its type's describe API gives it, in the model's terms. */
export interface TypedGroupDescription {
  groupId: string;
  groupType: ModernGroupType;
  /** The type's own state; 'Unknown' when the describe failed (see `error`). */
  state: GroupState;
  /** The server assignor ("" when the broker names none). */
  assignor: string;
  /** The group epoch; undefined when the describe failed. */
  groupEpoch?: number;
  members: Member[];
  consumerGroup?: ConsumerGroupInfo;
  shareGroup?: ShareGroupInfo;
  streamsGroup?: StreamsGroupInfo;
  /** Why this group could not be described (or only in part); the others are unaffected. */
  error?: string;
  /**
   * The type's describe says the group is not of this type (notOfThisType). For
   * ConsumerGroupDescribe that means "describe it the classic way", as Kafka's admin client does.
   */
  notThisType?: boolean;
}

/** The type's own detail for GroupDetail: only the fields the description has, so none is set to undefined. */
export function typedDetailFields(typed: TypedGroupDescription): Pick<GroupDetail, 'consumerGroup' | 'shareGroup' | 'streamsGroup'> {
  const { consumerGroup, shareGroup, streamsGroup } = typed;
  return { ...(consumerGroup && { consumerGroup }), ...(shareGroup && { shareGroup }), ...(streamsGroup && { streamsGroup }) };
}

/** The broker's state text as one of the type's states; anything else is 'Unknown', never a guess. */
export function groupStateOf(type: KafkaGroupType, text: string): GroupState {
  const wanted = text.toLowerCase();
  return GROUP_STATES_BY_TYPE[type].find((s) => s.toLowerCase() === wanted) ?? 'Unknown';
}

/** The model's group type for ListGroups v5's type text; null for a type this code does not know. */
export function modernGroupType(listedType: string | null | undefined): ModernGroupType | null {
  switch (listedType?.toLowerCase()) {
    case 'consumer':
      return 'consumer';
    case 'share':
      return 'share';
    case 'streams':
      return 'streams';
    default:
      return null;
  }
}

/** The text for a group's error code: the broker's own message when it sent one. */
export function groupErrorText(errorCode: number, errorMessage: string | null | undefined): string {
  return errorMessage ? `${errorName(errorCode)}: ${errorMessage}` : describeError(errorCode);
}

/** A describe that failed as a whole: every group it was for gets the error, with an unknown state. */
export function failedDescription(groupId: string, groupType: ModernGroupType, error: string): TypedGroupDescription {
  return { groupId, groupType, state: 'Unknown', assignor: '', members: [], error };
}

export { flattenAssignment, partitionsMissingFrom, sortedUnique } from '../model/consumerGroupInfo';

export { exactNumber as offsetNumber } from './requests/apiCall';
