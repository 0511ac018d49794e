package kafkagrouplens.bench;

import org.apache.kafka.clients.consumer.MiniJson;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.PartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.SimpleAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Runs Kafka 4.4's server-side assignors (kafka-group-coordinator from Maven Central) on the JSON inputs that
 * bench/java/serverCrossCheck.ts and bench/assignors.ts write: [{assignor, subscriptionType, members, topics,
 * topicPartitionAllowedMap?}]. The share-group SimpleAssignor gets the allowed map (the partitions with
 * initialized share state) as GroupSpecImpl's Optional topicPartitionAllowedMap; without it, Optional.empty().
 *
 *   check FILE          prints, per case, one line: {memberId: {topicId: [partitions ascending]}} or {"error": ...}
 *   reconcile FILE      CurrentAssignmentHarness: KIP-848 reconciliation steps
 *   streams FILE        StreamsAssignorHarness: the streams groups' StickyTaskAssignor
 *   bench FILE RUNS     one case; runs it RUNS times, prints {"runsMs": [...], "result": {...}}; timing covers
 *                       the assign call only
 *
 * The GroupSpec is built as the coordinator's TargetAssignmentBuilder builds it: a HashMap of members filled in
 * input order, each member's current assignment an Assignment (an unmodifiable map). Subscriptions and
 * assignments keep the input's order (LinkedHashSet / LinkedHashMap): the input says how Kafka's sets iterate.
 */
public final class ServerAssignorHarness {
    private ServerAssignorHarness() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("check")) {
            check(args[1]);
        } else if (args.length >= 2 && args[0].equals("reconcile")) {
            CurrentAssignmentHarness.check(args[1]);
        } else if (args.length >= 2 && args[0].equals("streams")) {
            StreamsAssignorHarness.check(args[1]);
        } else if (args.length >= 3 && args[0].equals("bench")) {
            bench(args[1], Integer.parseInt(args[2]));
        } else {
            System.err.println("usage: check FILE | reconcile FILE | streams FILE | bench FILE RUNS");
            System.exit(2);
        }
    }

    private record Case(PartitionAssignor assignor, GroupSpecImpl groupSpec, SubscribedTopicDescriber topics) {
        GroupAssignment run() {
            return assignor.assign(groupSpec, topics);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> readCases(String file) throws Exception {
        return (List<Object>) MiniJson.parse(new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8));
    }

    private static void check(String file) throws Exception {
        printEach(file, item -> toJson(toCase(item).run()), RuntimeException::toString);
    }

    /**
     * Runs every case of a JSON array file and prints one line per case: what `run` returns, or
     * {"error": errorText(e)} when it throws (shared by the harnesses of this package).
     */
    @SuppressWarnings("unchecked")
    static void printEach(String file, Function<Map<String, Object>, String> run, Function<RuntimeException, String> errorText) throws Exception {
        StringBuilder out = new StringBuilder();
        for (Object item : readCases(file)) {
            try {
                out.append(run.apply((Map<String, Object>) item)).append('\n');
            } catch (RuntimeException e) {
                out.append("{\"error\":").append(MiniJson.quote(errorText.apply(e))).append("}\n");
            }
        }
        System.out.print(out);
    }

    private static void bench(String file, int runs) throws Exception {
        Case benchCase = toCase(readCases(file).get(0));
        List<Double> times = new ArrayList<>();
        GroupAssignment result = null;
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            result = benchCase.run();
            times.add((System.nanoTime() - start) / 1e6);
        }
        StringBuilder out = new StringBuilder("{\"runsMs\":[");
        for (int i = 0; i < times.size(); i++) {
            out.append(i > 0 ? "," : "").append(String.format("%.3f", times.get(i)));
        }
        System.out.print(out.append("],\"result\":").append(toJson(result)).append("}\n"));
    }

    @SuppressWarnings("unchecked")
    private static Case toCase(Object item) {
        Map<String, Object> json = (Map<String, Object>) item;
        String name = (String) json.get("assignor");
        PartitionAssignor assignor = switch (name) {
            case "uniform" -> new UniformAssignor();
            case "range" -> new RangeAssignor();
            case "simple" -> new SimpleAssignor();
            default -> throw new IllegalArgumentException("unknown assignor " + name);
        };
        Map<Uuid, Integer> partitionCounts = new HashMap<>();
        for (Object topic : (List<Object>) json.get("topics")) {
            Map<String, Object> t = (Map<String, Object>) topic;
            partitionCounts.put(Uuid.fromString((String) t.get("topicId")), ((Long) t.get("numPartitions")).intValue());
        }
        Map<String, MemberSubscriptionAndAssignmentImpl> members = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        for (Object m : (List<Object>) json.get("members")) {
            Map<String, Object> member = (Map<String, Object>) m;
            String memberId = (String) member.get("memberId");
            Set<Uuid> subscribed = new LinkedHashSet<>();
            for (Object topicId : (List<Object>) member.get("subscribedTopicIds")) {
                subscribed.add(Uuid.fromString((String) topicId));
            }
            Map<Uuid, Set<Integer>> assignment = new LinkedHashMap<>();
            for (Object a : (List<Object>) member.getOrDefault("assignment", List.of())) {
                Map<String, Object> topic = (Map<String, Object>) a;
                Uuid topicId = Uuid.fromString((String) topic.get("topicId"));
                Set<Integer> partitions = new LinkedHashSet<>();
                for (Object p : (List<Object>) topic.get("partitions")) {
                    int partition = ((Long) p).intValue();
                    partitions.add(partition);
                    inverted.computeIfAbsent(topicId, k -> new HashMap<>()).put(partition, memberId);
                }
                assignment.put(topicId, partitions);
            }
            members.put(memberId, new MemberSubscriptionAndAssignmentImpl(
                Optional.ofNullable((String) member.get("rackId")),
                Optional.ofNullable((String) member.get("instanceId")),
                subscribed,
                new Assignment(assignment)));
        }
        SubscribedTopicDescriber describer = new SubscribedTopicDescriber() {
            @Override
            public int numPartitions(Uuid topicId) {
                return partitionCounts.getOrDefault(topicId, -1);
            }

            @Override
            public Set<String> racksForPartition(Uuid topicId, int partition) {
                return Set.of();
            }
        };
        SubscriptionType type = SubscriptionType.valueOf((String) json.get("subscriptionType"));
        Optional<Map<Uuid, Set<Integer>>> allowed = Optional.empty();
        if (json.get("topicPartitionAllowedMap") != null) {
            Map<Uuid, Set<Integer>> allowedMap = new HashMap<>();
            for (Object a : (List<Object>) json.get("topicPartitionAllowedMap")) {
                Map<String, Object> topic = (Map<String, Object>) a;
                Set<Integer> partitions = new HashSet<>();
                for (Object p : (List<Object>) topic.get("partitions")) {
                    partitions.add(((Long) p).intValue());
                }
                allowedMap.put(Uuid.fromString((String) topic.get("topicId")), partitions);
            }
            allowed = Optional.of(allowedMap);
        }
        return new Case(assignor, new GroupSpecImpl(Collections.unmodifiableMap(members), type, inverted, allowed), describer);
    }

    /** Members and topics sorted, partitions ascending, empty topics and members left out: one canonical text per result. */
    private static String toJson(GroupAssignment assignment) {
        Map<String, MemberAssignment> sortedMembers = new TreeMap<>(assignment.members());
        StringBuilder out = new StringBuilder("{");
        boolean firstMember = true;
        for (Map.Entry<String, MemberAssignment> member : sortedMembers.entrySet()) {
            Map<String, Set<Integer>> topics = new TreeMap<>();
            member.getValue().partitions().forEach((topicId, partitions) -> {
                if (!partitions.isEmpty()) {
                    topics.put(topicId.toString(), new TreeSet<>(partitions));
                }
            });
            if (topics.isEmpty()) {
                continue;
            }
            out.append(firstMember ? "" : ",").append(MiniJson.quote(member.getKey())).append(":{");
            firstMember = false;
            boolean firstTopic = true;
            for (Map.Entry<String, Set<Integer>> topic : topics.entrySet()) {
                out.append(firstTopic ? "" : ",").append(MiniJson.quote(topic.getKey())).append(":[");
                firstTopic = false;
                boolean firstPartition = true;
                for (int partition : topic.getValue()) {
                    out.append(firstPartition ? "" : ",").append(partition);
                    firstPartition = false;
                }
                out.append(']');
            }
            out.append('}');
        }
        return out.append('}').toString();
    }
}
