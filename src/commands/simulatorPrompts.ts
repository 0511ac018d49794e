/**
 * The question sequences behind the simulator commands, written against a small `Prompts` interface so
 * they run (and are tested) without the editor. Each returns what to do, or undefined when the user
 * cancelled a step.
 */
import type { AssignorName, ConsumerSpec, ProducerSpec, SimulatorControl } from '../simulator/common/control';
import {
  consumerCountRule,
  maxPollIntervalRule,
  partitionCountRule,
  pauseSecondsRule,
  processingTimeRule,
  producerDurationRule,
  recordsPerSecondRule,
  sessionTimeoutRule,
  validateGroupId,
  validateKafkaName,
  type NumberRule,
} from './inputValidation';

export interface PickItem<T> {
  label: string;
  description?: string;
  detail?: string;
  picked?: boolean;
  value: T;
}

export interface PromptOptions {
  title: string;
  placeholder?: string;
}

export interface InputOptions extends PromptOptions {
  prompt: string;
  /** Prefilled value. */
  value?: string;
  /** Hides the typed text (secrets). */
  password?: boolean;
  validate(text: string): string | undefined;
}

export interface Prompts {
  pickOne<T>(items: Array<PickItem<T>>, options: PromptOptions): Promise<T | undefined>;
  pickMany<T>(items: Array<PickItem<T>>, options: PromptOptions): Promise<T[] | undefined>;
  input(options: InputOptions): Promise<string | undefined>;
}

/** Client defaults of Apache Kafka 3.x/4.x consumers. */
export const CONSUMER_DEFAULTS = {
  sessionTimeoutMs: 45_000,
  maxPollIntervalMs: 300_000,
  processingTimeMs: 100,
} as const;

type TimingKey = keyof typeof CONSUMER_DEFAULTS;

/** The consumer settings "Add Consumer…" asks last, each prefilled with the client default. */
const TIMING_QUESTIONS: ReadonlyArray<{ key: TimingKey; rule: NumberRule; prompt: string }> = [
  { key: 'sessionTimeoutMs', rule: sessionTimeoutRule, prompt: 'session.timeout.ms: how long the coordinator waits for heartbeats before expiring the member' },
  { key: 'maxPollIntervalMs', rule: maxPollIntervalRule, prompt: 'max.poll.interval.ms: longest gap between polls before the client leaves the group' },
  { key: 'processingTimeMs', rule: processingTimeRule, prompt: 'Processing time per poll batch, in ms (simulated work between polls)' },
];

/** partition.assignment.strategy choices, in config order. */
export const ASSIGNOR_CHOICES: Array<PickItem<AssignorName[]>> = [
  { label: 'range, cooperative-sticky', description: "Kafka's default", value: ['range', 'cooperative-sticky'] },
  { label: 'range', value: ['range'] },
  { label: 'roundrobin', value: ['roundrobin'] },
  { label: 'sticky', value: ['sticky'] },
  { label: 'cooperative-sticky', description: 'incremental rebalancing', value: ['cooperative-sticky'] },
  {
    label: 'cooperative-sticky, range',
    description: 'upgrade step',
    detail: 'The first rolling bounce of an eager → cooperative upgrade (KIP-429): stays eager while range is listed',
    value: ['cooperative-sticky', 'range'],
  },
];

/** One pick of "Add Consumer…": the group protocol, with the assignor that goes with it. */
export type GroupProtocolChoice =
  | { groupProtocol: 'classic'; assignors: AssignorName[] }
  | { groupProtocol: 'consumer'; groupRemoteAssignor: 'uniform' | 'range' };

const CONSUMER_PROTOCOL_CHOICES: Array<PickItem<GroupProtocolChoice>> = [
  {
    label: 'consumer protocol, uniform',
    description: 'KIP-848',
    detail: 'group.protocol=consumer: the coordinator assigns (group.remote.assignor=uniform) and each member reconciles on its own heartbeats',
    value: { groupProtocol: 'consumer', groupRemoteAssignor: 'uniform' },
  },
  {
    label: 'consumer protocol, range',
    description: 'KIP-848',
    detail: 'group.protocol=consumer with group.remote.assignor=range',
    value: { groupProtocol: 'consumer', groupRemoteAssignor: 'range' },
  },
];

/**
 * The protocol-and-assignor choices, the group's own protocol first (so it is the default): a
 * consumer (KIP-848) group gets a consumer-protocol member unless the user picks otherwise.
 */
export function groupProtocolChoices(groupType: string): Array<PickItem<GroupProtocolChoice>> {
  const classic = ASSIGNOR_CHOICES.map((item): PickItem<GroupProtocolChoice> => ({ ...item, value: { groupProtocol: 'classic', assignors: item.value } }));
  return groupType === 'consumer' ? [...CONSUMER_PROTOCOL_CHOICES, ...classic] : [...classic, ...CONSUMER_PROTOCOL_CHOICES];
}

const PROTOCOL_PLACEHOLDER = 'group.protocol and assignor (partition.assignment.strategy, or group.remote.assignor for the consumer protocol)';

/** The spec fields of a protocol choice (nothing new for the classic protocol's assignors). */
function protocolFields(choice: GroupProtocolChoice): Pick<ConsumerSpec, 'assignors' | 'groupProtocol' | 'groupRemoteAssignor'> {
  return choice.groupProtocol === 'classic'
    ? { assignors: [...choice.assignors] }
    : { groupProtocol: 'consumer', groupRemoteAssignor: choice.groupRemoteAssignor };
}

async function askNumber(
  prompts: Prompts,
  rule: NumberRule,
  options: Omit<InputOptions, 'validate'>,
): Promise<number | undefined> {
  const text = await prompts.input({ ...options, validate: rule.validate });
  return text === undefined ? undefined : rule.parse(text);
}

function topicItems(control: SimulatorControl, preselected: ReadonlySet<string>): Array<PickItem<string>> {
  const topics = control.listTopics();
  if (!topics.length) {
    throw new Error('The simulator has no topics yet; run "Create Topic…" on the cluster first');
  }
  return topics
    .map((t) => ({
      label: t.name,
      description: `${t.partitions} partition${t.partitions === 1 ? '' : 's'}`,
      picked: preselected.has(t.name),
      value: t.name,
    }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

async function askTopics(
  prompts: Prompts,
  control: SimulatorControl,
  title: string,
  preselected: ReadonlySet<string>,
): Promise<string[] | undefined> {
  const items = topicItems(control, preselected);
  // An empty selection would make a consumer with no subscription, which Kafka refuses: ask again.
  for (;;) {
    const topics = await prompts.pickMany(items, { title, placeholder: 'Topics to subscribe to (pick at least one)' });
    if (topics === undefined || topics.length) {
      return topics;
    }
  }
}

export interface NewGroupPlan {
  groupId: string;
  specs: ConsumerSpec[];
}

/** "Add Consumer Group…": group id, topics, assignor, how many consumers (with client defaults). */
export async function promptNewGroup(
  prompts: Prompts,
  control: SimulatorControl,
  existingGroupIds: ReadonlySet<string>,
): Promise<NewGroupPlan | undefined> {
  const title = 'Add Consumer Group';
  const groupId = await prompts.input({
    title: `${title} (1/4)`,
    prompt: 'group.id of the new group',
    placeholder: 'e.g. orders-service',
    validate: (text) => validateGroupId(text, existingGroupIds),
  });
  if (groupId === undefined) {
    return undefined;
  }
  const topics = await askTopics(prompts, control, `${title} (2/4)`, new Set());
  if (!topics) {
    return undefined;
  }
  const protocol = await prompts.pickOne(groupProtocolChoices('classic'), { title: `${title} (3/4)`, placeholder: PROTOCOL_PLACEHOLDER });
  if (!protocol) {
    return undefined;
  }
  const count = await askNumber(prompts, consumerCountRule, { title: `${title} (4/4)`, prompt: 'How many consumers to start', value: '3' });
  if (count === undefined) {
    return undefined;
  }
  const specs = Array.from({ length: count }, (): ConsumerSpec => ({ groupId, topics, ...protocolFields(protocol) }));
  return { groupId, specs };
}

/**
 * "Add Consumer…" on a group: protocol and assignor (the group's own protocol by default), static or
 * dynamic, timeouts and processing time. A consumer-protocol member is not asked session.timeout.ms,
 * which the coordinator decides (group.consumer.session.timeout.ms).
 */
export async function promptConsumerSpec(
  prompts: Prompts,
  control: SimulatorControl,
  groupId: string,
  groupTopics: ReadonlySet<string>,
  /** The group's type as listed ("consumer" for a KIP-848 group); classic when it is new or unknown. */
  groupType = 'classic',
): Promise<ConsumerSpec | undefined> {
  const title = `Add Consumer to ${groupId}`;
  const topics = await askTopics(prompts, control, `${title} (1/7)`, groupTopics);
  if (!topics) {
    return undefined;
  }
  const protocol = await prompts.pickOne(groupProtocolChoices(groupType), { title: `${title} (2/7)`, placeholder: PROTOCOL_PLACEHOLDER });
  if (!protocol) {
    return undefined;
  }
  const membership = await prompts.pickOne<'dynamic' | 'static'>(
    [
      { label: 'Dynamic member', detail: 'No group.instance.id: every restart joins as a new member', value: 'dynamic' },
      { label: 'Static member', detail: 'Has a group.instance.id: a restart within session.timeout.ms keeps its partitions (KIP-345)', value: 'static' },
    ],
    { title: `${title} (3/7)`, placeholder: 'Membership' },
  );
  if (!membership) {
    return undefined;
  }
  let groupInstanceId: string | null = null;
  if (membership === 'static') {
    const taken = new Set(control.listConsumers(groupId).map((c) => c.groupInstanceId).filter((id) => id != null));
    const instanceId = await prompts.input({
      title: `${title} (4/7)`,
      prompt: 'group.instance.id',
      value: `${groupId}-instance-${taken.size + 1}`,
      validate: (text) =>
        validateKafkaName('Group instance id', text) ??
        (taken.has(text) ? `Another consumer of ${groupId} already uses group.instance.id "${text}"` : undefined),
    });
    if (instanceId === undefined) {
      return undefined;
    }
    groupInstanceId = instanceId;
  }
  const timings: Partial<Record<TimingKey, number>> = {};
  for (const [index, question] of TIMING_QUESTIONS.entries()) {
    if (protocol.groupProtocol === 'consumer' && question.key === 'sessionTimeoutMs') {
      continue;
    }
    const value = await askNumber(prompts, question.rule, {
      title: `${title} (${5 + index}/7)`,
      prompt: question.prompt,
      value: String(CONSUMER_DEFAULTS[question.key]),
    });
    if (value === undefined) {
      return undefined;
    }
    timings[question.key] = value;
  }
  return { groupId, topics, ...protocolFields(protocol), groupInstanceId, ...timings };
}

/** "Produce Records…": topic, rate, and how long. */
export async function promptProducer(prompts: Prompts, control: SimulatorControl): Promise<ProducerSpec | undefined> {
  const title = 'Produce Records';
  const topic = await prompts.pickOne(topicItems(control, new Set()), { title: `${title} (1/3)`, placeholder: 'Topic to produce to' });
  if (topic === undefined) {
    return undefined;
  }
  const recordsPerSecond = await askNumber(prompts, recordsPerSecondRule, { title: `${title} (2/3)`, prompt: 'Records per second', value: '10' });
  if (recordsPerSecond === undefined) {
    return undefined;
  }
  const seconds = await askNumber(prompts, producerDurationRule, {
    title: `${title} (3/3)`,
    prompt: 'Duration in seconds (0 = until stopped with "Stop Producer…")',
    value: '60',
  });
  if (seconds === undefined) {
    return undefined;
  }
  return seconds === 0 ? { topic, recordsPerSecond } : { topic, recordsPerSecond, durationMs: Math.round(seconds * 1000) };
}

/** "Create Topic…": name and partition count. */
export async function promptTopic(
  prompts: Prompts,
  control: SimulatorControl,
): Promise<{ name: string; partitions: number } | undefined> {
  const existing = new Set(control.listTopics().map((t) => t.name));
  const name = await prompts.input({
    title: 'Create Topic (1/2)',
    prompt: 'Topic name',
    validate: (text) => validateKafkaName('Topic name', text) ?? (existing.has(text) ? `Topic "${text}" already exists` : undefined),
  });
  if (name === undefined) {
    return undefined;
  }
  const partitions = await askNumber(prompts, partitionCountRule, { title: 'Create Topic (2/2)', prompt: 'Number of partitions', value: '6' });
  return partitions === undefined ? undefined : { name, partitions };
}

/** "Pause Polling…": how long the poll loop stalls, in milliseconds. */
export async function promptPauseMs(prompts: Prompts, consumerLabel: string): Promise<number | undefined> {
  const seconds = await askNumber(prompts, pauseSecondsRule, {
    title: `Pause Polling of ${consumerLabel}`,
    prompt: 'Seconds without poll(); past max.poll.interval.ms the client leaves the group',
    value: '30',
  });
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}
