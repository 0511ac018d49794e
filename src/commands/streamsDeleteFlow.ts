/**
 * "Delete Group…" on a KIP-1071 streams group, with the semantics of Kafka 4.4's `kafka-streams-groups.sh --delete`
 * (StreamsGroupCommand.deleteGroups): only an Empty streams group goes; its internal topics (repartition and
 * changelog, see offsets/streamsInternalTopics) are deleted too only when asked, as --delete-all-internal-topics
 * does (the tool's --delete alone keeps them, so "Group only" is the first choice), and only after the group
 * itself was deleted. The preview names the group, its committed offsets and every
 * internal topic (with those the tool would keep); after the confirmation the group's state and topics are read
 * again, and when they changed nothing is deleted.
 */
import type { GroupAdmin } from '../model/groupAdmin';
import type { GroupDetail } from '../model/types';
import { streamsInternalTopics, type StreamsInternalTopics } from '../offsets/streamsInternalTopics';
import type { AdminPrompts } from './adminPrompts';
import { nonEmptyGroupReason, type AdminOutcome } from './groupAdminFlows';

/** The two ways the tool deletes a streams group. */
type StreamsDeletion = 'group' | 'group-and-internal-topics';

async function describeStreamsGroup(describe: () => Promise<GroupDetail>, groupId: string): Promise<GroupDetail> {
  const detail = await describe();
  if (detail.groupType !== 'streams') {
    throw new Error(`'${groupId}' is not a streams group (it is a ${detail.groupType} group)`);
  }
  return detail;
}

function sameTopics(a: StreamsInternalTopics, b: StreamsInternalTopics): boolean {
  return a.deletable.join('\n') === b.deletable.join('\n') && a.notInferred.join('\n') === b.notInferred.join('\n');
}

/** The CLI line the choice stands for, without connection options. */
export function streamsDeleteCliOptions(groupId: string, deletion: StreamsDeletion): string {
  return `kafka-streams-groups.sh --delete --group ${groupId}${deletion === 'group-and-internal-topics' ? ' --delete-all-internal-topics' : ''}`;
}

export async function deleteStreamsGroupFlow(
  prompts: AdminPrompts,
  admin: GroupAdmin,
  groupId: string,
  memberCount: number,
  describe: () => Promise<GroupDetail>,
): Promise<AdminOutcome | undefined> {
  const refuseUnlessEmpty = async (count: number) => {
    const reason = nonEmptyGroupReason(groupId, await admin.groupState(groupId), count);
    if (reason) {
      throw new Error(reason);
    }
  };
  await refuseUnlessEmpty(memberCount);
  const topics = streamsInternalTopics(groupId, (await describeStreamsGroup(describe, groupId)).streamsGroup);
  const committed = await admin.committedOffsets(groupId);

  let deletion: StreamsDeletion = 'group';
  if (topics.deletable.length > 0) {
    const chosen = await prompts.pickOne<StreamsDeletion>(
      // The tool's default first: --delete alone keeps the internal topics.
      [
        { label: 'Group only', description: '--delete', detail: 'The internal topics stay; a new application with this id would reuse them.', value: 'group' },
        {
          label: `Group and its ${topics.deletable.length} internal topic(s)`,
          description: '--delete --delete-all-internal-topics',
          detail: topics.deletable.join(', '),
          value: 'group-and-internal-topics',
        },
      ],
      { title: `Delete Streams Group ${groupId}`, placeholder: 'What to delete' },
    );
    if (chosen === undefined) {
      return undefined;
    }
    deletion = chosen;
  }
  const deletesTopics = deletion === 'group-and-internal-topics';
  const details = [`Its ${committed.length} committed offset(s) are deleted with it.`];
  if (deletesTopics) {
    details.push(`Internal topics deleted after the group: ${topics.deletable.join(', ')}.`);
  } else if (topics.deletable.length > 0) {
    details.push(`Internal topics kept: ${topics.deletable.join(', ')}.`);
  }
  if (topics.notInferred.length > 0) {
    details.push(`Not named as the group's own internal topics, so never deleted with it: ${topics.notInferred.join(', ')}.`);
  }
  details.push(`As \`${streamsDeleteCliOptions(groupId, deletion)}\`. This cannot be undone.`);
  const confirmed = await prompts.confirm({
    message: `Delete streams group '${groupId}'${deletesTopics ? ` and its ${topics.deletable.length} internal topic(s)` : ''}?`,
    detail: details.join(' '),
    action: deletesTopics ? 'Delete Group and Topics' : 'Delete Group',
  });
  if (!confirmed) {
    return undefined;
  }

  // Re-check what was shown: a member may have joined, or a new topology named other topics.
  await refuseUnlessEmpty(0);
  const topicsNow = streamsInternalTopics(groupId, (await describeStreamsGroup(describe, groupId)).streamsGroup);
  if (!sameTopics(topics, topicsNow)) {
    throw new Error(
      `The internal topics of '${groupId}' changed since you were asked (now: ${topicsNow.deletable.join(', ') || 'none'}); nothing was deleted. Run Delete Group again.`,
    );
  }

  const results = await admin.deleteGroups([groupId]);
  const result = results.find((r) => r.groupId === groupId) ?? { groupId, error: 'The coordinator did not answer for this group' };
  if (result.error !== undefined) {
    const kept = deletesTopics ? ` Its internal topics were not deleted.` : '';
    return { ok: false, summary: `Streams group '${groupId}' was not deleted: ${result.error}.${kept}`, lines: [`${groupId}: ${result.error}`] };
  }
  const lines = [`${groupId}: deleted`];
  if (!deletesTopics) {
    return { ok: true, summary: `Deleted streams group '${groupId}'`, lines };
  }
  if (!admin.streams) {
    return { ok: false, summary: `Deleted streams group '${groupId}', but this cluster cannot delete topics: its internal topics remain`, lines };
  }
  const topicResults = await admin.streams.deleteTopics(topics.deletable);
  lines.push(...topicResults.map((t) => `${t.topic}: ${t.error ?? 'deleted'}`));
  const failed = topicResults.filter((t) => t.error !== undefined);
  return failed.length === 0
    ? { ok: true, summary: `Deleted streams group '${groupId}' and its ${topicResults.length} internal topic(s)`, lines }
    : {
        ok: false,
        summary: `Deleted streams group '${groupId}'; ${failed.length} of ${topicResults.length} internal topic(s) were not deleted: ${failed.map((t) => `${t.topic} (${t.error})`).join(', ')}`,
        lines,
      };
}
