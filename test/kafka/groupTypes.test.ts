/**
 * Kafka 4.x's group types against a real broker, each made by real Java clients: a KIP-848 group of
 * consumers (topic list, static member), one with a broker-side regex, a mixed group during an
 * online migration from classic, a share group of KafkaShareConsumers and a Kafka Streams
 * application on the streams protocol. What KafkaSource shows of each must equal, row for row,
 * what Kafka's own tools print for it (`kafka-consumer-groups.sh`, `kafka-share-groups.sh`,
 * `kafka-streams-groups.sh`, run from the broker's jars).
 *
 * Share and streams groups are on by default from Kafka 4.2 (share.version and streams.version
 * finalized on a new cluster); on 4.1.1 they are preview/early access and off, so those parts run
 * only where the broker serves their describe APIs.
 */
import { strict as assert } from 'node:assert';
import { KafkaSource } from '../../src/kafka/kafkaSource';
import type { GroupDetail, TopicPartition } from '../../src/model/types';
import { JavaClient, KAFKA_VERSION, TOOLS, runFeatureUpgrade, runTool, toolPartitions, toolTables, toolTasks, type ToolRow } from './groupTypesSupport';
import { MemoryLogger, brokerEnv, createTopics, produceToEveryPartition, testKafka, waitFor } from './support';

const RUN = `r${Date.now().toString(36)}`;
const RECORDS = 10;
const [MAJOR, MINOR] = KAFKA_VERSION.split('.').map(Number);
const atLeast = (major: number, minor: number) => MAJOR > major || (MAJOR === major && MINOR >= minor);
/** Share and streams groups are enabled by default on a new cluster from Kafka 4.2; share lag (DescribeShareGroupOffsets v1) too. */
const MODERN_TYPES_BY_DEFAULT = atLeast(4, 2);
/** Kafka 4.1's share groups are a preview, switched on with `kafka-features.sh upgrade --feature share.version=1`. */
const SHARE_PREVIEW = MAJOR === 4 && MINOR === 1;

function keys(tps: readonly TopicPartition[]): string[] {
  return tps.map((tp) => `${tp.topic}-${tp.partition}`).sort();
}

function coordinatorId(row: ToolRow): number {
  return Number(/\((\d+)\)/.exec(row['COORDINATOR (ID)'] ?? '')?.[1]);
}

/** Leaves out what this Kafka version does not have, instead of a pending test. */
function skipOnThisVersion(title: string, _body: unknown): void {
  console.log(`      (not on Kafka ${KAFKA_VERSION}: ${title})`);
}

/** Polls (bounded) until the model's rows equal the tool's, then asserts so a mismatch shows its diff. */
async function expectSameRows<M, T>(what: string, model: () => Promise<M>, tool: () => T, timeoutMs = 60000): Promise<void> {
  let last: { model: M; tool: T } | undefined;
  try {
    await waitFor(
      what,
      async () => {
        const ours = await model();
        const theirs = tool();
        last = { model: ours, tool: theirs };
        return JSON.stringify(ours) === JSON.stringify(theirs) ? true : undefined;
      },
      timeoutMs,
    );
  } catch (e) {
    if (!last) {
      throw e;
    }
  }
  assert.ok(last, `${what}: nothing compared`);
  assert.deepEqual(last.model, last.tool, what);
}

describe(`Kafka ${KAFKA_VERSION} group types on a real broker`, function () {
  this.timeout(300000);
  const env = brokerEnv();
  const logger = new MemoryLogger();
  const clients: JavaClient[] = [];
  let source: KafkaSource;

  const start = (className: string, args: string[], options: { streams?: boolean } = {}) => {
    const client = new JavaClient(env, className, args, options);
    clients.push(client);
    return client;
  };
  const describeWhen = (groupId: string, ready: (g: GroupDetail) => boolean, timeoutMs = 90000) =>
    waitFor(
      `group ${groupId} to settle`,
      async () => {
        const g = await source.describeGroup(groupId);
        return ready(g) ? g : undefined;
      },
      timeoutMs,
    );
  const tool = (name: keyof typeof TOOLS, groupId: string, ...args: string[]) => toolTables(runTool(env, TOOLS[name], ['--describe', '--group', groupId, ...args]));

  before(() => {
    source = new KafkaSource({ id: 'group-types', name: 'group-types', bootstrapServers: [env.bootstrap] }, {}, { logger });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await source.dispose();
  });

  describe('KIP-848 consumer groups', () => {
    const TOPIC = `c848-${RUN}`;
    const GROUP = `c848-${RUN}`;
    const REGEX_GROUP = `c848-rx-${RUN}`;
    const MIXED_TOPIC = `mixed-${RUN}`;
    const MIXED_GROUP = `mixed-${RUN}`;
    const RX_A = `rx-${RUN}-a`;
    const RX_B = `rx-${RUN}-b`;

    before(async () => {
      await createTopics([
        { topic: TOPIC, numPartitions: 4 },
        { topic: MIXED_TOPIC, numPartitions: 4 },
        { topic: RX_A, numPartitions: 2 },
        { topic: RX_B, numPartitions: 1 },
      ]);
      await produceToEveryPartition(TOPIC, 4, RECORDS);
      await produceToEveryPartition(MIXED_TOPIC, 4, RECORDS);
      await produceToEveryPartition(RX_A, 2, RECORDS);
      await produceToEveryPartition(RX_B, 1, RECORDS);
    });

    const settled = (members: number) => (g: GroupDetail) =>
      g.state === 'Stable' &&
      g.consumerGroup !== undefined &&
      g.consumerGroup.members.length === members &&
      g.consumerGroup.members.every((m) => !m.reconciling && m.assignment.length > 0) &&
      !g.consumerGroup.assignmentPending &&
      g.totalLag === 0;

    /** `--members --verbose` as our model has it, in the tool's columns. */
    const modelMembers = async (groupId: string, withUpgraded: boolean) => {
      const g = await source.describeGroup(groupId);
      const info = g.consumerGroup;
      assert.ok(info, `${groupId} has no consumer-group detail: ${g.error ?? g.groupType}`);
      return info.members
        .map((m) => ({
          consumerId: m.memberId,
          instanceId: m.instanceId ?? '',
          host: m.clientHost,
          clientId: m.clientId,
          partitions: m.assignment.length,
          currentEpoch: m.memberEpoch,
          current: keys(m.assignment),
          targetEpoch: info.assignmentEpoch,
          target: keys(m.targetAssignment),
          ...(withUpgraded ? { upgraded: m.memberType === 'consumer' } : {}),
        }))
        .sort((a, b) => a.consumerId.localeCompare(b.consumerId));
    };
    const toolMembers = (groupId: string, withUpgraded: boolean) =>
      tool('consumerGroups', groupId, '--members', '--verbose')
        .map((r) => ({
          consumerId: r['CONSUMER-ID'],
          instanceId: r['GROUP-INSTANCE-ID'] ?? '',
          host: r.HOST,
          clientId: r['CLIENT-ID'],
          partitions: Number(r['#PARTITIONS']),
          currentEpoch: Number(r['CURRENT-EPOCH']),
          current: toolPartitions(r['CURRENT-ASSIGNMENT']),
          targetEpoch: Number(r['TARGET-EPOCH']),
          target: toolPartitions(r['TARGET-ASSIGNMENT']),
          ...(withUpgraded ? { upgraded: r.UPGRADED === 'true' } : {}),
        }))
        .sort((a, b) => a.consumerId.localeCompare(b.consumerId));

    const modelState = async (groupId: string) => {
      const g = await source.describeGroup(groupId);
      return {
        coordinator: g.coordinator?.nodeId,
        assignor: g.assignor,
        state: g.state,
        groupEpoch: g.consumerGroup?.groupEpoch,
        targetEpoch: g.consumerGroup?.assignmentEpoch,
        members: g.memberCount,
      };
    };
    const toolState = (groupId: string) =>
      tool('consumerGroups', groupId, '--state', '--verbose').map((r) => ({
        coordinator: coordinatorId(r),
        assignor: r['ASSIGNMENT-STRATEGY'],
        state: r.STATE,
        groupEpoch: Number(r['GROUP-EPOCH']),
        targetEpoch: Number(r['TARGET-ASSIGNMENT-EPOCH']),
        members: Number(r['#MEMBERS']),
      }))[0];

    const modelOffsets = async (groupId: string) => {
      const g = await source.describeGroup(groupId);
      const owner = new Map(g.members.map((m) => [m.memberId, m]));
      return g.offsets
        .map((o) => ({
          topic: o.topic,
          partition: o.partition,
          current: o.committedOffset ?? '-',
          logEnd: o.logEndOffset ?? '-',
          lag: o.lag ?? '-',
          consumerId: o.ownerMemberId ?? '-',
          host: (o.ownerMemberId && owner.get(o.ownerMemberId)?.clientHost) || '-',
          clientId: (o.ownerMemberId && owner.get(o.ownerMemberId)?.clientId) || '-',
        }))
        .sort((a, b) => `${a.topic}-${a.partition}`.localeCompare(`${b.topic}-${b.partition}`));
    };
    const toolOffsets = (groupId: string) =>
      tool('consumerGroups', groupId, '--offsets')
        .map((r) => {
          const number = (text: string) => (text === '-' ? '-' : Number(text));
          return {
            topic: r.TOPIC,
            partition: Number(r.PARTITION),
            current: number(r['CURRENT-OFFSET']),
            logEnd: number(r['LOG-END-OFFSET']),
            lag: number(r.LAG),
            consumerId: r['CONSUMER-ID'],
            host: r.HOST,
            clientId: r['CLIENT-ID'],
          };
        })
        .sort((a, b) => `${a.topic}-${a.partition}`.localeCompare(`${b.topic}-${b.partition}`));

    it('shows a group of Java consumers (group.protocol=consumer, one static) as kafka-consumer-groups.sh does: members, state, offsets', async () => {
      start('GroupMember', [env.bootstrap, GROUP, TOPIC, 'consumer', '-', '-']);
      start('GroupMember', [env.bootstrap, GROUP, TOPIC, 'consumer', `static-${RUN}`, '-']);
      const g = await describeWhen(GROUP, settled(2));
      assert.equal(g.groupType, 'consumer');
      assert.equal(g.consumerGroup?.assignorName, 'uniform');
      assert.deepEqual(g.consumerGroup?.subscribedTopicNames, [TOPIC]);
      assert.equal(g.consumerGroup?.migration, null);
      const listed = (await source.listGroups()).find((s) => s.groupId === GROUP);
      assert.deepEqual([listed?.groupType, listed?.state], ['consumer', 'Stable']);

      await expectSameRows(`${GROUP} --members --verbose`, () => modelMembers(GROUP, false), () => toolMembers(GROUP, false));
      await expectSameRows(`${GROUP} --state --verbose`, () => modelState(GROUP), () => toolState(GROUP));
      await expectSameRows(`${GROUP} --offsets`, () => modelOffsets(GROUP), () => toolOffsets(GROUP));
    });

    it('shows a regex subscription (KIP-848 broker-side regex) and its topics as the tool does', async () => {
      const regex = `rx-${RUN}-.*`;
      start('GroupMember', [env.bootstrap, REGEX_GROUP, `regex:${regex}`, 'consumer', '-', '-']);
      const g = await describeWhen(REGEX_GROUP, (d) => settled(1)(d) && d.offsets.length === 3);
      assert.deepEqual(g.consumerGroup?.subscribedTopicRegexes, [regex]);
      assert.deepEqual(keys(g.members[0].assignment), [`${RX_A}-0`, `${RX_A}-1`, `${RX_B}-0`]);
      await expectSameRows(`${REGEX_GROUP} --members --verbose`, () => modelMembers(REGEX_GROUP, false), () => toolMembers(REGEX_GROUP, false));
      await expectSameRows(`${REGEX_GROUP} --offsets`, () => modelOffsets(REGEX_GROUP), () => toolOffsets(REGEX_GROUP));
    });

    it('shows a mixed group during an online migration from classic: member types (UPGRADED) and the migration', async () => {
      const classic = start('GroupMember', [env.bootstrap, MIXED_GROUP, MIXED_TOPIC, 'classic', '-', '-']);
      await classic.waitForOutput(/ASSIGNED \[/);
      start('GroupMember', [env.bootstrap, MIXED_GROUP, MIXED_TOPIC, 'consumer', '-', '-']);
      const g = await describeWhen(MIXED_GROUP, (d) => settled(2)(d) && d.consumerGroup?.migration !== null);
      assert.deepEqual(g.consumerGroup?.migration, { classicMembers: 1, consumerMembers: 1 });
      await expectSameRows(`${MIXED_GROUP} --members --verbose`, () => modelMembers(MIXED_GROUP, true), () => toolMembers(MIXED_GROUP, true));
      await expectSameRows(`${MIXED_GROUP} --state --verbose`, () => modelState(MIXED_GROUP), () => toolState(MIXED_GROUP));
    });
  });

  // Registered only where the broker has the type (run-tests.js forbids pending tests).
  (MODERN_TYPES_BY_DEFAULT || SHARE_PREVIEW ? describe : skipOnThisVersion)('share groups (KIP-932)', () => {
    const TOPIC = `share-${RUN}`;
    const GROUP = `share-${RUN}`;
    let members: JavaClient[] = [];

    before(async () => {
      if (SHARE_PREVIEW) {
        runFeatureUpgrade(env, 'share.version=1');
      }
      await createTopics([{ topic: TOPIC, numPartitions: 2 }]);
      await produceToEveryPartition(TOPIC, 2, RECORDS);
    });

    const modelOffsets = async () =>
      (await source.describeGroup(GROUP)).shareGroup?.partitions.map((p) => ({ topic: p.topic, partition: p.partition, start: p.startOffset ?? '-', lag: p.lag ?? '-' }));
    const toolOffsets = () =>
      // Kafka 4.1's tool has no LAG column (its broker does not report share lag): our lag is then unknown ("-") too.
      tool('shareGroups', GROUP).map((r) => ({ topic: r.TOPIC, partition: Number(r.PARTITION), start: r['START-OFFSET'] === '-' ? '-' : Number(r['START-OFFSET']), lag: r.LAG === undefined || r.LAG === '-' ? '-' : Number(r.LAG) }));
    const modelState = async () => {
      const g = await source.describeGroup(GROUP);
      return { coordinator: g.coordinator?.nodeId, state: g.state, groupEpoch: g.shareGroup?.groupEpoch, assignmentEpoch: g.shareGroup?.assignmentEpoch, members: g.memberCount };
    };
    const toolState = () =>
      tool('shareGroups', GROUP, '--state', '--verbose').map((r) => ({
        coordinator: coordinatorId(r),
        state: r.STATE,
        groupEpoch: Number(r['GROUP-EPOCH']),
        assignmentEpoch: Number(r['ASSIGNMENT-EPOCH']),
        members: Number(r['#MEMBERS']),
      }))[0];

    it('shows a group of KafkaShareConsumers as kafka-share-groups.sh does: offsets (start offset, lag), members, state, and its configs', async () => {
      members = [start('ShareMember', [env.bootstrap, GROUP, TOPIC, 'earliest'])];
      await members[0].waitForOutput(/SUBSCRIBED/);
      members.push(start('ShareMember', [env.bootstrap, GROUP, TOPIC, '-']));
      const g = await describeWhen(
        GROUP,
        (d) => d.state === 'Stable' && d.members.length === 2 && d.members.every((m) => m.assignment.length > 0) && d.shareGroup?.partitions.length === 2 && d.shareGroup.partitions.every((p) => p.startOffset !== null && p.lag === (MODERN_TYPES_BY_DEFAULT ? 0 : null)),
      );
      assert.equal(g.groupType, 'share');
      assert.equal(g.totalLag, MODERN_TYPES_BY_DEFAULT ? 0 : null);
      assert.equal(g.shareGroup?.configs.autoOffsetReset, 'earliest');
      assert.equal(g.shareGroup?.configs.recordLockDurationMs, 30000);
      assert.equal(g.shareGroup?.configs.configsError, undefined);
      // share.delivery.count.limit is a group config from Kafka 4.3, the dead-letter topic (KIP-1191, unset here) from 4.4.
      assert.equal(g.shareGroup?.configs.deliveryCountLimit, atLeast(4, 3) ? 5 : null);
      assert.equal(g.shareGroup?.configs.deadLetterTopic, null);
      assert.equal(g.shareGroup?.configs.all?.['errors.deadletterqueue.topic.name'], atLeast(4, 4) ? '' : undefined);
      const listed = (await source.listGroups()).find((s) => s.groupId === GROUP);
      assert.deepEqual([listed?.groupType, listed?.state], ['share', 'Stable']);

      await expectSameRows(`${GROUP} --describe`, modelOffsets, toolOffsets);
      await expectSameRows(
        `${GROUP} --members --verbose`,
        async () =>
          (await source.describeGroup(GROUP)).members
            .map((m) => ({ consumerId: m.memberId, host: m.clientHost, clientId: m.clientId, partitions: m.assignment.length, epoch: m.memberEpoch, assignment: keys(m.assignment) }))
            .sort((a, b) => a.consumerId.localeCompare(b.consumerId)),
        () =>
          tool('shareGroups', GROUP, '--members', '--verbose')
            .map((r) => ({ consumerId: r['CONSUMER-ID'], host: r.HOST, clientId: r['CLIENT-ID'], partitions: Number(r['#PARTITIONS']), epoch: Number(r['MEMBER-EPOCH']), assignment: toolPartitions(r.ASSIGNMENT) }))
            .sort((a, b) => a.consumerId.localeCompare(b.consumerId)),
      );
      await expectSameRows(`${GROUP} --state --verbose`, modelState, toolState);
    });

    // No share lag before Kafka 4.2.
    (MODERN_TYPES_BY_DEFAULT ? it : skipOnThisVersion)('shows the lag of records no member took, once the group is empty', async () => {
      await Promise.all(members.map((m) => m.stop()));
      await produceToEveryPartition(TOPIC, 2, 3);
      const g = await describeWhen(GROUP, (d) => d.state === 'Empty' && d.shareGroup?.partitions.every((p) => p.lag === 3) === true);
      assert.equal(g.totalLag, 6);
      await expectSameRows(`${GROUP} --describe (empty)`, modelOffsets, toolOffsets);
      await expectSameRows(`${GROUP} --state --verbose (empty)`, modelState, toolState);
    });
  });

  // Kafka 4.1's streams groups are early access: their APIs are unstable, served only with
  // unstable.api.versions.enable=true, which would change what every other test talks to.
  (MODERN_TYPES_BY_DEFAULT ? describe : skipOnThisVersion)('streams groups (KIP-1071)', () => {
    const INPUT = `streams-in-${RUN}`;
    const OUTPUT = `streams-out-${RUN}`;
    const APP = `streams-${RUN}`;

    before(async () => {
      await createTopics([
        { topic: INPUT, numPartitions: 3 },
        { topic: OUTPUT, numPartitions: 3 },
      ]);
      const producer = testKafka('streams-input').producer();
      await producer.connect();
      try {
        for (let partition = 0; partition < 3; partition++) {
          await producer.send({ topic: INPUT, messages: Array.from({ length: RECORDS }, (_, i) => ({ partition, key: `k${i}`, value: `v${i % 3}` })) });
        }
      } finally {
        await producer.disconnect();
      }
    });

    it('shows a Kafka Streams application (group.protocol=streams) as kafka-streams-groups.sh does: members and tasks, offsets, state, and the topology', async () => {
      const app = start('StreamsApp', [env.bootstrap, APP, INPUT, OUTPUT, '2'], { streams: true });
      await app.waitForOutput(/STATE RUNNING/, 120000);
      const g = await describeWhen(
        APP,
        (d) => d.state === 'Stable' && d.streamsGroup?.members.length === 2 && d.streamsGroup.members.every((m) => m.assignment.active.length > 0) && d.totalLag === 0 && d.offsets.length === 6,
        120000,
      );
      assert.equal(g.groupType, 'streams');
      const subtopologies = g.streamsGroup?.topology?.subtopologies ?? [];
      assert.deepEqual(
        subtopologies.map((s) => [s.subtopologyId, s.sourceTopics, s.repartitionSinkTopics, s.repartitionSourceTopics, s.stateChangelogTopics]),
        [
          ['0', [INPUT], [`${APP}-by-value-repartition`], [], []],
          ['1', [], [], [`${APP}-by-value-repartition`], [`${APP}-counts-changelog`]],
        ],
      );
      const processIds = new Set(g.streamsGroup?.members.map((m) => m.processId));
      assert.equal(processIds.size, 1, 'two stream threads of one process');
      const listed = (await source.listGroups()).find((s) => s.groupId === APP);
      assert.deepEqual([listed?.groupType, listed?.state], ['streams', 'Stable']);

      const tasks = (list: ReadonlyArray<{ subtopologyId: string; partitions: number[] }>) => list.map((t) => `${t.subtopologyId}:${t.partitions.join(',')}`).sort();
      await expectSameRows(
        `${APP} --members --verbose`,
        async () => {
          const d = await source.describeGroup(APP);
          return (d.streamsGroup?.members ?? [])
            .map((m) => {
              const assignments: Record<string, string[]> = {};
              for (const [label, list] of [
                ['ACTIVE', m.assignment.active],
                ['STANDBY', m.assignment.standby],
                ['WARMUP', m.assignment.warmup],
                ['TARGET-ACTIVE', m.targetAssignment.active],
                ['TARGET-STANDBY', m.targetAssignment.standby],
                ['TARGET-WARMUP', m.targetAssignment.warmup],
              ] as const) {
                if (list.length > 0) {
                  assignments[label] = tasks(list);
                }
              }
              return {
                member: m.memberId,
                protocol: m.isClassic ? 'classic' : 'streams',
                epoch: m.memberEpoch,
                process: m.processId,
                clientId: m.clientId,
                targetEpoch: d.streamsGroup?.assignmentEpoch,
                topologyEpoch: m.topologyEpoch,
                assignments,
              };
            })
            .sort((a, b) => a.member.localeCompare(b.member));
        },
        () =>
          tool('streamsGroups', APP, '--members', '--verbose')
            .map((r) => ({
              member: r.MEMBER,
              protocol: r['MEMBER-PROTOCOL'],
              epoch: Number(r['MEMBER-EPOCH']),
              process: r.PROCESS,
              clientId: r['CLIENT-ID'],
              targetEpoch: Number(r['TARGET-ASSIGNMENT-EPOCH']),
              topologyEpoch: Number(r['TOPOLOGY-EPOCH']),
              assignments: toolTasks(r.ASSIGNMENTS),
            }))
            .sort((a, b) => a.member.localeCompare(b.member)),
      );
      await expectSameRows(
        `${APP} --offsets --verbose`,
        async () =>
          (await source.describeGroup(APP)).offsets
            .map((o) => ({ topic: o.topic, partition: o.partition, current: o.committedOffset, logEnd: o.logEndOffset, lag: o.lag }))
            .sort((a, b) => `${a.topic}-${a.partition}`.localeCompare(`${b.topic}-${b.partition}`)),
        () =>
          tool('streamsGroups', APP, '--offsets', '--verbose')
            .map((r) => ({ topic: r.TOPIC, partition: Number(r.PARTITION), current: Number(r['CURRENT-OFFSET']), logEnd: Number(r['LOG-END-OFFSET']), lag: Number(r['OFFSET-LAG']) }))
            .sort((a, b) => `${a.topic}-${a.partition}`.localeCompare(`${b.topic}-${b.partition}`)),
      );
      await expectSameRows(
        `${APP} --state --verbose`,
        async () => {
          const d = await source.describeGroup(APP);
          return { coordinator: d.coordinator?.nodeId, assignor: d.assignor, state: d.state, groupEpoch: d.streamsGroup?.groupEpoch, targetEpoch: d.streamsGroup?.assignmentEpoch, members: d.memberCount };
        },
        () =>
          tool('streamsGroups', APP, '--state', '--verbose').map((r) => ({
            coordinator: coordinatorId(r),
            assignor: r.ASSIGNOR ?? '',
            state: r.STATE,
            groupEpoch: Number(r['GROUP-EPOCH']),
            targetEpoch: Number(r['TARGET-ASSIGNMENT-EPOCH']),
            members: Number(r['#MEMBERS']),
          }))[0],
      );
    });
  });
});
