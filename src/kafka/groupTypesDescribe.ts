/**
 * The describe of consumer, share and streams groups on one coordinator: one request per type for
 * all of that coordinator's groups of the type, then, for share groups, their offsets and configs.
 * A type's request failing (not authorized, API not served because the feature is off, a bad answer)
 * puts that error on each of its groups and leaves the others; only a connection failure, which
 * fails the whole load anyway, is thrown.
 */
import { CONSUMER_GROUP_DESCRIBE, describeConsumerGroups } from './consumerGroupDescribe';
import { failedDescription, type ModernGroupType, type TypedGroupDescription } from './groupTypes';
import { pickVersion, type KafkajsBroker } from './kafkajsBridge';
import { SHARE_GROUP_DESCRIBE, addShareOffsetsAndConfigs, describeShareGroups } from './shareGroups';
import { STREAMS_GROUP_DESCRIBE, describeStreamsGroups } from './streamsGroups';

export interface TypedDescribeOptions {
  /** Human text for a failure. */
  errorText(e: unknown): string;
  /** Whether the failure is the connection's (rethrown) rather than this request's. */
  isConnectionFailure(e: unknown): boolean;
}

const DESCRIBERS: Record<ModernGroupType, (broker: KafkajsBroker, groupIds: readonly string[]) => Promise<TypedGroupDescription[]>> = {
  consumer: describeConsumerGroups,
  share: describeShareGroups,
  streams: describeStreamsGroups,
};

const TYPE_NAMES: Record<ModernGroupType, string> = { consumer: 'ConsumerGroupDescribe', share: 'ShareGroupDescribe', streams: 'StreamsGroupDescribe' };

/** Describes each group with its type's API on `broker` (the groups' coordinator); one answer per group, in order. */
export async function describeTypedGroups(
  broker: KafkajsBroker,
  groups: ReadonlyArray<{ groupId: string; groupType: ModernGroupType }>,
  options: TypedDescribeOptions,
): Promise<TypedGroupDescription[]> {
  const types = [...new Set(groups.map((g) => g.groupType))];
  const answered = new Map<string, TypedGroupDescription>();
  await Promise.all(
    types.map(async (type) => {
      const ids = groups.filter((g) => g.groupType === type).map((g) => g.groupId);
      try {
        const described = await DESCRIBERS[type](broker, ids);
        if (type === 'share') {
          await addShareOffsetsAndConfigs(broker, described);
        }
        for (const d of described) {
          answered.set(d.groupId, d);
        }
      } catch (e) {
        if (options.isConnectionFailure(e)) {
          throw e;
        }
        const error = `${TYPE_NAMES[type]}: ${options.errorText(e)}`;
        for (const groupId of ids) {
          answered.set(groupId, failedDescription(groupId, type, error));
        }
      }
    }),
  );
  return groups.map((g) => answered.get(g.groupId) ?? failedDescription(g.groupId, g.groupType, 'The coordinator did not describe this group'));
}

/** The order in which a group of unknown type is tried: KIP-848 groups are the common case. */
const UNLISTED_ORDER: readonly ModernGroupType[] = ['consumer', 'share', 'streams'];

const API_KEYS: Record<ModernGroupType, number> = {
  consumer: CONSUMER_GROUP_DESCRIBE.request.apiKey ?? -1,
  share: SHARE_GROUP_DESCRIBE.request.apiKey ?? -1,
  streams: STREAMS_GROUP_DESCRIBE.request.apiKey ?? -1,
};

/**
 * Groups whose type no ListGroups v5 named (one group described on its own, or an older listing)
 * and that DescribeGroups called Dead with no members, which is what it says of every non-classic
 * group: tried as consumer, then share, then streams groups, each with the type's describe where the
 * broker serves it, until one knows them. What none knows comes back with `notThisType` (a classic
 * group that really is Dead, or gone).
 */
export async function describeUnlistedGroups(broker: KafkajsBroker, groupIds: readonly string[], options: TypedDescribeOptions): Promise<TypedGroupDescription[]> {
  const found = new Map<string, TypedGroupDescription>();
  let left = [...groupIds];
  for (const groupType of UNLISTED_ORDER) {
    if (left.length === 0 || pickVersion(broker, API_KEYS[groupType], 0, Number.MAX_SAFE_INTEGER) === null) {
      continue;
    }
    const described = await describeTypedGroups(broker, left.map((groupId) => ({ groupId, groupType })), options);
    for (const d of described) {
      found.set(d.groupId, d);
    }
    left = described.filter((d) => d.notThisType).map((d) => d.groupId);
  }
  return groupIds.map((groupId) => found.get(groupId) ?? { ...failedDescription(groupId, 'consumer', 'not a consumer, share or streams group'), notThisType: true });
}
