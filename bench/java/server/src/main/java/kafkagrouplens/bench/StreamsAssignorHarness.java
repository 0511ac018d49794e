package kafkagrouplens.bench;

import org.apache.kafka.clients.consumer.MiniJson;
import org.apache.kafka.coordinator.group.api.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.TopologyDescriber;
import org.apache.kafka.coordinator.group.streams.assignor.AssignmentConfigsImpl;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberMetadataAndStateImpl;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs Kafka 4.4's streams-group StickyTaskAssignor (kafka-group-coordinator from Maven Central) on the JSON cases
 * bench/java/server/streamsCrossCheck.ts writes: [{members, configs: {numStandbyReplicas}, subtopologies}], members
 * and subtopologies in the shape of src/simulator/coordinator/streams/assignor/types.ts. Members go into a
 * LinkedHashMap, so GroupSpecImpl.memberIds() iterates them in input order, as the TypeScript port takes them.
 *
 *   streams FILE   prints, per case, one line:
 *                  {memberId: {"active": {subtopologyId: [partitions ascending]}, "standby": {...}}} or {"error": ...}
 */
final class StreamsAssignorHarness {
    private StreamsAssignorHarness() {
    }

    @SuppressWarnings("unchecked")
    static void check(String file) throws Exception {
        ServerAssignorHarness.printEach(file,
            json -> toJson(new StickyTaskAssignor().assign(groupSpec(json), topology((List<Object>) json.get("subtopologies")))),
            RuntimeException::toString);
    }

    @SuppressWarnings("unchecked")
    private static GroupSpecImpl groupSpec(Map<String, Object> json) {
        Map<String, MemberMetadataAndStateImpl> members = new LinkedHashMap<>();
        for (Object m : (List<Object>) json.get("members")) {
            Map<String, Object> member = (Map<String, Object>) m;
            Map<String, Map<Integer, Long>> taskOffsets = new LinkedHashMap<>();
            for (Object o : (List<Object>) member.getOrDefault("taskOffsets", List.of())) {
                Map<String, Object> offset = (Map<String, Object>) o;
                taskOffsets.computeIfAbsent((String) offset.get("subtopologyId"), k -> new LinkedHashMap<>())
                    .put(((Long) offset.get("partition")).intValue(), (Long) offset.get("offsetSum"));
            }
            members.put((String) member.get("memberId"), new MemberMetadataAndStateImpl(
                Optional.ofNullable((String) member.get("instanceId")),
                Optional.ofNullable((String) member.get("rackId")),
                (String) member.get("processId"),
                Map.of(),
                tasks(member.get("activeTasks")),
                tasks(member.get("standbyTasks")),
                tasks(member.get("warmupTasks")),
                taskOffsets,
                Map.of()));
        }
        Map<String, Object> configs = (Map<String, Object>) json.get("configs");
        return new GroupSpecImpl(members, new AssignmentConfigsImpl(((Long) configs.get("numStandbyReplicas")).intValue(), List.of()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Set<Integer>> tasks(Object json) {
        Map<String, Set<Integer>> result = new LinkedHashMap<>();
        for (Object t : json == null ? List.of() : (List<Object>) json) {
            Map<String, Object> tasks = (Map<String, Object>) t;
            Set<Integer> partitions = new LinkedHashSet<>();
            for (Object p : (List<Object>) tasks.get("partitions")) {
                partitions.add(((Long) p).intValue());
            }
            result.put((String) tasks.get("subtopologyId"), partitions);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static TopologyDescriber topology(List<Object> json) {
        List<String> ids = new ArrayList<>();
        Map<String, Integer> numTasks = new HashMap<>();
        Map<String, Boolean> stateful = new HashMap<>();
        for (Object s : json) {
            Map<String, Object> subtopology = (Map<String, Object>) s;
            String id = (String) subtopology.get("subtopologyId");
            ids.add(id);
            numTasks.put(id, ((Long) subtopology.get("numTasks")).intValue());
            stateful.put(id, (Boolean) subtopology.get("stateful"));
        }
        return new TopologyDescriber() {
            @Override
            public List<String> subtopologies() {
                return ids;
            }

            @Override
            public int maxNumInputPartitions(String subtopologyId) {
                Integer n = numTasks.get(subtopologyId);
                if (n == null) {
                    throw new NoSuchElementException(subtopologyId);
                }
                return n;
            }

            @Override
            public boolean isStateful(String subtopologyId) {
                return stateful.getOrDefault(subtopologyId, false);
            }
        };
    }

    private static String toJson(GroupAssignment result) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, MemberAssignment> member : new TreeMap<>(result.members()).entrySet()) {
            out.append(out.length() > 1 ? "," : "").append(MiniJson.quote(member.getKey()))
                .append(":{\"active\":").append(tasksJson(member.getValue().activeTasks()))
                .append(",\"standby\":").append(tasksJson(member.getValue().standbyTasks())).append('}');
        }
        return out.append('}').toString();
    }

    private static String tasksJson(Map<String, Set<Integer>> tasks) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Set<Integer>> entry : new TreeMap<>(tasks).entrySet()) {
            if (entry.getValue().isEmpty()) {
                continue;
            }
            out.append(out.length() > 1 ? "," : "").append(MiniJson.quote(entry.getKey())).append(":[");
            int i = 0;
            for (int partition : new TreeSet<>(entry.getValue())) {
                out.append(i++ > 0 ? "," : "").append(partition);
            }
            out.append(']');
        }
        return out.append('}').toString();
    }
}
