import { strict as assert } from 'assert';
import { deleteStreamsGroupFlow } from '../../../src/commands/streamsDeleteFlow';
import type { GroupAdmin, GroupDeletion, TopicResult } from '../../../src/model/groupAdmin';
import type { GroupDetail, GroupState, StreamsGroupInfo } from '../../../src/model/types';
import { ScriptedAdminPrompts } from './scriptedAdminPrompts';

const GROUP = 'app';

function topology(changelog: string[]): StreamsGroupInfo['topology'] {
  return {
    epoch: 0,
    subtopologies: [
      { subtopologyId: '0', sourceTopics: ['input'], repartitionSinkTopics: ['app-by-value-repartition'], repartitionSourceTopics: [], stateChangelogTopics: [] },
      { subtopologyId: '1', sourceTopics: [], repartitionSinkTopics: [], repartitionSourceTopics: ['app-by-value-repartition'], stateChangelogTopics: changelog },
    ],
  };
}

/** A streams cluster as the flow sees it: the group's state, its topology, and what was deleted, in order. */
class FakeStreamsCluster {
  state: GroupState | 'missing' = 'Empty';
  changelog = ['app-counts-changelog', 'shared-changelog'];
  groupError: string | undefined;
  topicErrors = new Map<string, string>();
  readonly calls: string[] = [];

  describe = async (): Promise<GroupDetail> =>
    ({ groupId: GROUP, groupType: 'streams', streamsGroup: { groupEpoch: 3, assignmentEpoch: 3, assignorName: 'sticky', topology: topology(this.changelog), members: [] } }) as unknown as GroupDetail;

  admin(withStreams = true): GroupAdmin {
    const base = {
      now: () => 0,
      groupState: async () => this.state,
      committedOffsets: async () => [{ topic: 'input', partition: 0, offset: 5 }],
      deleteGroups: async (ids: readonly string[]): Promise<GroupDeletion[]> => {
        this.calls.push(`deleteGroups ${ids.join(',')}`);
        return ids.map((groupId) => (this.groupError ? { groupId, error: this.groupError } : { groupId }));
      },
    };
    const streams = {
      deleteTopics: async (topics: readonly string[]): Promise<TopicResult[]> => {
        this.calls.push(`deleteTopics ${topics.join(',')}`);
        return topics.map((topic) => ({ topic, ...(this.topicErrors.has(topic) ? { error: this.topicErrors.get(topic) } : {}) }));
      },
    };
    return (withStreams ? { ...base, streams } : base) as unknown as GroupAdmin;
  }
}

const WITH_TOPICS = 'Group and its 2 internal topic(s)';

describe('commands/streamsDeleteFlow (kafka-streams-groups.sh --delete)', () => {
  let cluster: FakeStreamsCluster;
  beforeEach(() => {
    cluster = new FakeStreamsCluster();
  });

  it('previews the group and its internal topics, then deletes the group before the topics (--delete-all-internal-topics)', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [true]);
    const outcome = await deleteStreamsGroupFlow(prompts, cluster.admin(), GROUP, 0, cluster.describe);
    assert.ok(outcome?.ok, outcome?.summary);
    assert.deepEqual(prompts.asked[0].labels, ['Group only', WITH_TOPICS]);
    const [confirmation] = prompts.confirmations;
    assert.equal(confirmation.message, "Delete streams group 'app' and its 2 internal topic(s)?");
    assert.match(confirmation.detail ?? '', /Internal topics deleted after the group: app-by-value-repartition, app-counts-changelog\./);
    assert.match(confirmation.detail ?? '', /never deleted with it: shared-changelog\./);
    assert.match(confirmation.detail ?? '', /--delete --group app --delete-all-internal-topics/);
    assert.deepEqual(cluster.calls, ['deleteGroups app', 'deleteTopics app-by-value-repartition,app-counts-changelog']);
    assert.deepEqual(outcome.lines, ['app: deleted', 'app-by-value-repartition: deleted', 'app-counts-changelog: deleted']);
  });

  it('deletes only the group when asked so, naming the topics it keeps', async () => {
    const prompts = new ScriptedAdminPrompts([{ pick: 'Group only' }], [true]);
    const outcome = await deleteStreamsGroupFlow(prompts, cluster.admin(), GROUP, 0, cluster.describe);
    assert.ok(outcome?.ok);
    assert.match(prompts.confirmations[0].detail ?? '', /Internal topics kept: app-by-value-repartition, app-counts-changelog\./);
    assert.deepEqual(cluster.calls, ['deleteGroups app']);
  });

  it('refuses a group with members, and deletes nothing when cancelled', async () => {
    cluster.state = 'Stable';
    await assert.rejects(deleteStreamsGroupFlow(new ScriptedAdminPrompts([]), cluster.admin(), GROUP, 2, cluster.describe), /is Stable with 2 member\(s\).*NON_EMPTY_GROUP/);
    cluster.state = 'Empty';
    assert.equal(await deleteStreamsGroupFlow(new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [false]), cluster.admin(), GROUP, 0, cluster.describe), undefined);
    assert.deepEqual(cluster.calls, []);
  });

  it('re-checks after the confirmation: a member that joined or a changed topology deletes nothing', async () => {
    const joined = new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [true]);
    joined.whileConfirming = () => void (cluster.state = 'Stable');
    await assert.rejects(deleteStreamsGroupFlow(joined, cluster.admin(), GROUP, 0, cluster.describe), /is Stable/);
    cluster.state = 'Empty';
    const changed = new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [true]);
    changed.whileConfirming = () => void (cluster.changelog = ['app-counts-changelog', 'app-totals-changelog']);
    await assert.rejects(deleteStreamsGroupFlow(changed, cluster.admin(), GROUP, 0, cluster.describe), /internal topics of 'app' changed since you were asked.*nothing was deleted/);
    assert.deepEqual(cluster.calls, []);
  });

  it('keeps the topics when the group is not deleted, and reports each topic the controller refused', async () => {
    cluster.groupError = 'NON_EMPTY_GROUP: The group is not empty.';
    const refused = await deleteStreamsGroupFlow(new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [true]), cluster.admin(), GROUP, 0, cluster.describe);
    assert.equal(refused?.ok, false);
    assert.match(refused?.summary ?? '', /was not deleted: NON_EMPTY_GROUP.*internal topics were not deleted/);
    assert.deepEqual(cluster.calls, ['deleteGroups app']);

    cluster.groupError = undefined;
    cluster.topicErrors.set('app-counts-changelog', 'TOPIC_AUTHORIZATION_FAILED: Topic authorization failed.');
    const partly = await deleteStreamsGroupFlow(new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [true]), cluster.admin(), GROUP, 0, cluster.describe);
    assert.equal(partly?.ok, false);
    assert.match(partly?.summary ?? '', /1 of 2 internal topic\(s\) were not deleted: app-counts-changelog \(TOPIC_AUTHORIZATION_FAILED/);
    assert.ok(partly?.lines.includes('app-by-value-repartition: deleted'));
  });

  it('asks nothing about topics for a group without internal topics, and says so where topics cannot be deleted', async () => {
    const none = new FakeStreamsCluster();
    none.describe = async () => ({ groupId: GROUP, groupType: 'streams', streamsGroup: { topology: null, members: [] } }) as unknown as GroupDetail;
    const prompts = new ScriptedAdminPrompts([], [true]);
    assert.ok((await deleteStreamsGroupFlow(prompts, none.admin(), GROUP, 0, none.describe))?.ok);
    assert.deepEqual(prompts.asked, []);
    assert.equal(prompts.confirmations[0].message, "Delete streams group 'app'?");
    const noStreamsAdmin = await deleteStreamsGroupFlow(new ScriptedAdminPrompts([{ pick: WITH_TOPICS }], [true]), cluster.admin(false), GROUP, 0, cluster.describe);
    assert.equal(noStreamsAdmin?.ok, false);
    assert.match(noStreamsAdmin?.summary ?? '', /cannot delete topics/);
  });
});
