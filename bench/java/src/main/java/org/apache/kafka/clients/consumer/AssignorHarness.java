package org.apache.kafka.clients.consumer;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs Kafka's own assignors on the JSON inputs that bench/assignors.ts writes.
 *
 *   check FILE            FILE holds [{strategy, partitionsPerTopic, members}]; prints one JSON assignment per line,
 *                         computed as the group leader does (AbstractPartitionAssignor.assign(Cluster, GroupSubscription)).
 *   bench FILE STRATEGY   FILE holds one large scenario; runs a fresh assignment, then the reassignment in which members
 *                         from secondRound.reportOwnedFromIndex on report what they got (at secondRound.generation) and
 *                         secondRound.removeMemberIds are gone; prints {"round1Ms":..,"round2Ms":..}. Timing covers the
 *                         assignPartitions calls only, as Kafka's AbstractStickyAssignorTest does.
 *
 * It lives in Kafka's package because StickyAssignor's user-data encoder is package-private.
 */
public final class AssignorHarness {
    private static final Node NODE = new Node(0, "localhost", 9092);

    private AssignorHarness() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("check")) {
            check(args[1]);
        } else if (args.length >= 3 && args[0].equals("bench")) {
            bench(args[1], args[2]);
        } else {
            System.err.println("usage: check FILE | bench FILE STRATEGY");
            System.exit(2);
        }
    }

    private static Object readJson(String file) throws Exception {
        return MiniJson.parse(new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static void check(String file) throws Exception {
        StringBuilder out = new StringBuilder();
        for (Object item : (List<Object>) readJson(file)) {
            Map<String, Object> testCase = (Map<String, Object>) item;
            String strategy = (String) testCase.get("strategy");
            Map<String, Integer> partitionsPerTopic = counts((Map<String, Object>) testCase.get("partitionsPerTopic"));
            List<Object> members = (List<Object>) testCase.get("members");
            try {
                Map<String, Subscription> subscriptions = subscriptions(strategy, members);
                Cluster cluster = cluster(partitionsPerTopic);
                Map<String, ConsumerPartitionAssignor.Assignment> assignment =
                    create(strategy).assign(cluster, new GroupSubscription(subscriptions)).groupAssignment();
                Map<String, List<TopicPartition>> lists = new HashMap<>();
                assignment.forEach((member, a) -> lists.put(member, a.partitions()));
                out.append(toJson(members, lists)).append('\n');
            } catch (RuntimeException e) {
                out.append("{\"error\":").append(MiniJson.quote(e.toString())).append("}\n");
            }
        }
        System.out.print(out);
    }

    @SuppressWarnings("unchecked")
    private static void bench(String file, String strategy) throws Exception {
        Map<String, Object> scenario = (Map<String, Object>) readJson(file);
        Map<String, Integer> counts = counts((Map<String, Object>) scenario.get("partitionsPerTopic"));
        List<Object> members = (List<Object>) scenario.get("members");
        Map<String, Object> secondRound = (Map<String, Object>) scenario.get("secondRound");
        int reportFrom = ((Long) secondRound.get("reportOwnedFromIndex")).intValue();
        int generation = ((Long) secondRound.get("generation")).intValue();
        Set<String> removed = new HashSet<>();
        for (Object id : (List<Object>) secondRound.get("removeMemberIds")) removed.add((String) id);

        Map<String, List<PartitionInfo>> partitionsPerTopic = new HashMap<>();
        counts.forEach((topic, n) -> partitionsPerTopic.put(topic, partitionInfos(topic, n)));
        AbstractPartitionAssignor assignor = (AbstractPartitionAssignor) create(strategy);

        Map<String, Subscription> subscriptions = subscriptions(strategy, members);
        long start = System.nanoTime();
        Map<String, List<TopicPartition>> first = assignor.assignPartitions(partitionsPerTopic, subscriptions);
        long round1 = System.nanoTime() - start;

        List<Object> next = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Map<String, Object> member = (Map<String, Object>) members.get(i);
            String memberId = (String) member.get("memberId");
            if (removed.contains(memberId)) continue;
            Map<String, Object> copy = new HashMap<>(member);
            if (i >= reportFrom) {
                List<Object> owned = new ArrayList<>();
                for (TopicPartition tp : first.get(memberId)) {
                    Map<String, Object> p = new HashMap<>();
                    p.put("topic", tp.topic());
                    p.put("partition", (long) tp.partition());
                    owned.add(p);
                }
                copy.put("owned", owned);
                copy.put("generation", (long) generation);
            }
            next.add(copy);
        }
        Map<String, Subscription> secondSubscriptions = subscriptions(strategy, next);
        start = System.nanoTime();
        Map<String, List<TopicPartition>> second = assignor.assignPartitions(partitionsPerTopic, secondSubscriptions);
        long round2 = System.nanoTime() - start;
        int assigned = 0;
        for (List<TopicPartition> list : second.values()) assigned += list.size();
        System.out.println("{\"round1Ms\":" + round1 / 1_000_000.0 + ",\"round2Ms\":" + round2 / 1_000_000.0
            + ",\"round2Assigned\":" + assigned + ",\"round1Digest\":" + digest(first)
            + ",\"round2Digest\":" + digest(second) + "}");
    }

    /**
     * String.hashCode of the canonical text of an assignment: members by id, each "id:" then its partitions sorted
     * by topic and partition as "topic-partition," and ";". bench/assignors.ts computes the same for its results.
     */
    static int digest(Map<String, List<TopicPartition>> assignment) {
        StringBuilder sb = new StringBuilder();
        List<String> memberIds = new ArrayList<>(assignment.keySet());
        Collections.sort(memberIds);
        for (String memberId : memberIds) {
            List<TopicPartition> partitions = new ArrayList<>(assignment.get(memberId));
            partitions.sort((a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
            sb.append(memberId).append(':');
            for (TopicPartition tp : partitions) sb.append(tp.topic()).append('-').append(tp.partition()).append(',');
            sb.append(';');
        }
        return sb.toString().hashCode();
    }

    private static ConsumerPartitionAssignor create(String strategy) {
        switch (strategy) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            case "cooperative-sticky": return new CooperativeStickyAssignor();
            default: throw new IllegalArgumentException("unknown strategy " + strategy);
        }
    }

    private static Map<String, Integer> counts(Map<String, Object> json) {
        Map<String, Integer> counts = new HashMap<>();
        json.forEach((topic, n) -> counts.put(topic, ((Long) n).intValue()));
        return counts;
    }

    private static List<PartitionInfo> partitionInfos(String topic, int count) {
        List<PartitionInfo> infos = new ArrayList<>(count);
        Node[] replicas = {NODE};
        for (int p = 0; p < count; p++) infos.add(new PartitionInfo(topic, p, NODE, replicas, replicas));
        return infos;
    }

    private static Cluster cluster(Map<String, Integer> partitionsPerTopic) {
        List<PartitionInfo> all = new ArrayList<>();
        partitionsPerTopic.forEach((topic, n) -> all.addAll(partitionInfos(topic, n)));
        return new Cluster("harness", Collections.singletonList(NODE), all, Collections.emptySet(), Collections.emptySet());
    }

    /** Builds the subscriptions as the leader's ConsumerCoordinator does: a HashMap filled in JoinGroup member order. */
    @SuppressWarnings("unchecked")
    private static Map<String, Subscription> subscriptions(String strategy, List<Object> members) {
        Map<String, Subscription> subscriptions = new HashMap<>();
        for (Object item : members) {
            Map<String, Object> member = (Map<String, Object>) item;
            List<String> topics = new ArrayList<>();
            for (Object t : (List<Object>) member.get("topics")) topics.add((String) t);
            List<TopicPartition> owned = new ArrayList<>();
            if (member.get("owned") != null) {
                for (Object o : (List<Object>) member.get("owned")) {
                    Map<String, Object> tp = (Map<String, Object>) o;
                    owned.add(new TopicPartition((String) tp.get("topic"), ((Long) tp.get("partition")).intValue()));
                }
            }
            int generation = member.get("generation") == null ? AbstractStickyAssignor.DEFAULT_GENERATION
                : ((Long) member.get("generation")).intValue();
            Subscription subscription;
            if (strategy.equals("sticky")) {
                // Eager: the consumer revoked everything before joining; what it had travels in the user data.
                ByteBuffer userData = member.get("owned") == null ? null : StickyAssignor.serializeTopicPartitionAssignment(
                    new AbstractStickyAssignor.MemberData(owned, Optional.of(generation)));
                subscription = new Subscription(topics, userData, Collections.emptyList(), generation, Optional.empty());
            } else {
                subscription = new Subscription(topics, null, owned, generation, Optional.empty());
            }
            Object instanceId = member.get("groupInstanceId");
            subscription.setGroupInstanceId(Optional.ofNullable((String) instanceId));
            subscriptions.put((String) member.get("memberId"), subscription);
        }
        return subscriptions;
    }

    @SuppressWarnings("unchecked")
    private static String toJson(List<Object> members, Map<String, List<TopicPartition>> assignment) {
        StringBuilder sb = new StringBuilder("{");
        boolean firstMember = true;
        for (Object item : members) {
            String memberId = (String) ((Map<String, Object>) item).get("memberId");
            if (!firstMember) sb.append(',');
            firstMember = false;
            sb.append(MiniJson.quote(memberId)).append(":[");
            List<TopicPartition> list = assignment.getOrDefault(memberId, Collections.emptyList());
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) sb.append(',');
                sb.append("{\"topic\":").append(MiniJson.quote(list.get(i).topic()))
                    .append(",\"partition\":").append(list.get(i).partition()).append('}');
            }
            sb.append(']');
        }
        return sb.append('}').toString();
    }
}
