import { strict as assert } from 'assert';
import { isInferredInternalTopic, matchesInternalTopicFormat, streamsInternalTopics } from '../../../src/offsets/streamsInternalTopics';

const subtopology = (id: string, topics: { source?: string[]; repartition?: string[]; changelog?: string[] }) => ({
  subtopologyId: id,
  sourceTopics: topics.source ?? [],
  repartitionSinkTopics: [],
  repartitionSourceTopics: topics.repartition ?? [],
  stateChangelogTopics: topics.changelog ?? [],
});

describe('offsets/streamsInternalTopics (StreamsGroupCommand.retrieveInternalTopics)', () => {
  it('recognises the internal topic names the tool infers', () => {
    for (const topic of ['app-counts-changelog', 'app-by-value-repartition', 'app-x-subscription-registration-topic', 'app-x-subscription-response-topic', 'app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic', 'app-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-12-topic']) {
      assert.ok(matchesInternalTopicFormat(topic), topic);
      assert.ok(isInferredInternalTopic(topic, 'app'), topic);
    }
    assert.ok(!matchesInternalTopicFormat('app-changelog-archive'));
    assert.ok(!matchesInternalTopicFormat('app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-x-topic'));
    // The group's name and a dash lead: another application's topic with a shared prefix is not this group's.
    assert.ok(!isInferredInternalTopic('application-counts-changelog', 'app-'));
    assert.ok(!isInferredInternalTopic('other-counts-changelog', 'app'));
    assert.ok(!isInferredInternalTopic('appcounts-changelog', 'app'));
  });

  it("lists the topology's repartition and changelog topics that are not source topics, keeping names not the group's own apart", () => {
    const info = {
      topology: {
        epoch: 0,
        subtopologies: [
          subtopology('0', { source: ['input'], changelog: ['shared-store-changelog'] }),
          subtopology('1', { source: ['app-by-value-repartition'], repartition: ['app-by-value-repartition'], changelog: ['app-counts-changelog', 'app-counts-changelog'] }),
          // A repartition topic read as a source too (a user topic named like one) stays.
          subtopology('2', { source: ['app-fed-repartition'], repartition: ['app-fed-repartition'] }),
        ],
      },
    };
    // Source topics of any subtopology are excluded (the tool filters with the union of source topics).
    assert.deepEqual(streamsInternalTopics('app', info), { deletable: ['app-counts-changelog'], notInferred: ['shared-store-changelog'] });
    assert.deepEqual(streamsInternalTopics('app', { topology: null }), { deletable: [], notInferred: [] });
    assert.deepEqual(streamsInternalTopics('app', undefined), { deletable: [], notInferred: [] });
  });
});
