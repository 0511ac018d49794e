package kafkagrouplens.bench;

import org.apache.kafka.clients.consumer.MiniJson;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataDelta;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataImage;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.MemberState;
import org.apache.kafka.coordinator.group.modern.consumer.ConsumerGroupMember;
import org.apache.kafka.coordinator.group.modern.consumer.CurrentAssignmentBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs Kafka 4.4's own CurrentAssignmentBuilder on the cases of bench/java/serverCrossCheck.ts --reconciliation
 * (one JSON object per case: the member, the target, the owner epochs, the owned partitions) and prints one line
 * per case: the member's next state as canonical JSON, or {"error": ...}.
 */
final class CurrentAssignmentHarness {
    private CurrentAssignmentHarness() {
    }

    private record Topic(Uuid id, String name, int partitions) implements CoordinatorMetadataImage.TopicMetadata {
        public List<String> partitionRacks(int partition) {
            return List.of();
        }

        public int partitionCount() {
            return partitions;
        }
    }

    /** A metadata image over the case's topics (Kafka's tests use MetadataImageBuilder for the same). */
    private static CoordinatorMetadataImage image(List<Topic> topics) {
        Map<String, Topic> byName = new HashMap<>();
        Map<Uuid, Topic> byId = new HashMap<>();
        topics.forEach(topic -> {
            byName.put(topic.name(), topic);
            byId.put(topic.id(), topic);
        });
        return new CoordinatorMetadataImage() {
            public Set<Uuid> topicIds() {
                return byId.keySet();
            }

            public Set<String> topicNames() {
                return byName.keySet();
            }

            public Optional<TopicMetadata> topicMetadata(String name) {
                return Optional.ofNullable(byName.get(name));
            }

            public Optional<TopicMetadata> topicMetadata(Uuid id) {
                return Optional.ofNullable(byId.get(id));
            }

            public CoordinatorMetadataDelta emptyDelta() {
                throw new UnsupportedOperationException();
            }

            public long version() {
                return 1;
            }

            public boolean isEmpty() {
                return byId.isEmpty();
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<Uuid, Map<Integer, Integer>> epochs(Object json) {
        Map<Uuid, Map<Integer, Integer>> result = new HashMap<>();
        ((Map<String, Object>) json).forEach((topicId, partitions) -> {
            Map<Integer, Integer> topic = new HashMap<>();
            ((Map<String, Object>) partitions).forEach((p, e) -> topic.put(Integer.parseInt(p), ((Long) e).intValue()));
            result.put(Uuid.fromString(topicId), topic);
        });
        return result;
    }

    @SuppressWarnings("unchecked")
    private static String run(Map<String, Object> c) {
        Map<String, Object> m = (Map<String, Object>) c.get("member");
        List<Topic> topics = new ArrayList<>();
        for (Object t : (List<Object>) c.get("topics")) {
            Map<String, Object> topic = (Map<String, Object>) t;
            topics.add(new Topic(Uuid.fromString((String) topic.get("id")), (String) topic.get("name"), ((Long) topic.get("partitions")).intValue()));
        }
        ConsumerGroupMember member = new ConsumerGroupMember.Builder("member")
            .setState(MemberState.fromValue(((Long) m.get("state")).byteValue()))
            .setMemberEpoch(((Long) m.get("memberEpoch")).intValue())
            .setPreviousMemberEpoch(((Long) m.get("previousMemberEpoch")).intValue())
            .setSubscribedTopicNames((List<String>) (List<?>) m.get("subscribedTopicNames"))
            .setAssignedPartitions(epochs(m.get("assigned")))
            .setPartitionsPendingRevocation(epochs(m.get("pending")))
            .build();
        Map<Uuid, Set<Integer>> target = new HashMap<>();
        ((Map<String, Object>) c.get("target")).forEach((topicId, partitions) -> {
            Set<Integer> set = new HashSet<>();
            ((List<Object>) partitions).forEach(p -> set.add(((Long) p).intValue()));
            target.put(Uuid.fromString(topicId), set);
        });
        Map<Uuid, Map<Integer, Integer>> owners = epochs(c.get("ownerEpochs"));
        List<ConsumerGroupHeartbeatRequestData.TopicPartitions> owned = null;
        if (c.get("owned") != null) {
            owned = new ArrayList<>();
            for (Object o : (List<Object>) c.get("owned")) {
                Map<String, Object> tp = (Map<String, Object>) o;
                List<Integer> partitions = new ArrayList<>();
                ((List<Object>) tp.get("partitions")).forEach(p -> partitions.add(((Long) p).intValue()));
                owned.add(new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(Uuid.fromString((String) tp.get("topicId"))).setPartitions(partitions));
            }
        }
        ConsumerGroupMember next = new CurrentAssignmentBuilder(member)
            .withMetadataImage(image(topics))
            .withTargetAssignment(((Long) c.get("targetEpoch")).intValue(), new Assignment(target))
            .withHasSubscriptionChanged((Boolean) c.get("hasSubscriptionChanged"))
            .withCurrentPartitionEpoch((topicId, partition) -> owners.getOrDefault(topicId, Map.of()).getOrDefault(partition, -1))
            .withOwnedTopicPartitions(owned)
            .build();
        return "{\"state\":" + next.state().value() + ",\"memberEpoch\":" + next.memberEpoch() + ",\"previousMemberEpoch\":" + next.previousMemberEpoch()
            + ",\"assigned\":" + canonical(next.assignedPartitions()) + ",\"pending\":" + canonical(next.partitionsPendingRevocation()) + "}";
    }

    /** Topic ids and partitions sorted, as the TypeScript side prints them. */
    private static String canonical(Map<Uuid, Map<Integer, Integer>> assignment) {
        TreeMap<String, TreeMap<Integer, Integer>> sorted = new TreeMap<>();
        assignment.forEach((topicId, partitions) -> sorted.put(topicId.toString(), new TreeMap<>(partitions)));
        StringBuilder out = new StringBuilder("{");
        sorted.forEach((topicId, partitions) -> {
            if (out.length() > 1) out.append(',');
            out.append(MiniJson.quote(topicId)).append(":{");
            StringBuilder inner = new StringBuilder();
            partitions.forEach((p, e) -> {
                if (inner.length() > 0) inner.append(',');
                inner.append('"').append(p).append("\":").append(e);
            });
            out.append(inner).append('}');
        });
        return out.append('}').toString();
    }

    static void check(String file) throws Exception {
        ServerAssignorHarness.printEach(file, CurrentAssignmentHarness::run, e -> e.getClass().getSimpleName());
    }
}
