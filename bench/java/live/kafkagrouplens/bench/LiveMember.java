package kafkagrouplens.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocolCollection;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.ShareGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ShareGroupHeartbeatResponse;
import org.apache.kafka.common.requests.StreamsGroupHeartbeatRequest;
import org.apache.kafka.common.requests.StreamsGroupHeartbeatResponse;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;

/**
 * One group's one member, as Kafka's clients keep it: a classic consumer (JoinGroup, SyncGroup as the
 * leader assigning itself every partition of its topic, then Heartbeat), a KIP-848 consumer
 * (ConsumerGroupHeartbeat, acknowledging its assignment in the next heartbeat), a KIP-932 share consumer
 * (ShareGroupHeartbeat) or a KIP-1071 Kafka Streams member of a stateless one-subtopology application
 * (StreamsGroupHeartbeat, owning its active tasks in the next heartbeat). step() sends the member's next request and says when the one after is due.
 * Fenced or unknown members join again, as the clients do; each such rejoin is counted.
 */
abstract class LiveMember {
    enum Phase { JOINING, SYNCING, STABLE }

    final String groupId;
    final String topic;
    final String type;
    volatile Phase phase = Phase.JOINING;
    /** When the last heartbeat (or the join) succeeded, ms; 0 before. */
    volatile long lastOkMs;
    /** The longest time between two successful heartbeats while stable, ms. */
    volatile long maxGapMs;
    volatile int rejoins;
    volatile String lastError = "";
    String memberId = "";
    int epoch;
    long dueMs;

    LiveMember(String groupId, String topic, String type) {
        this.groupId = groupId;
        this.topic = topic;
        this.type = type;
    }

    /** Sends the next request; returns the delay before the one after. */
    abstract long step(BrokerConnection connection, long heartbeatMs) throws IOException;

    boolean liveAt(long nowMs, long sessionMs) {
        return phase == Phase.STABLE && nowMs - lastOkMs < sessionMs;
    }

    protected void heartbeatOk(long nowMs) {
        if (phase == Phase.STABLE && lastOkMs > 0) {
            maxGapMs = Math.max(maxGapMs, nowMs - lastOkMs);
        }
        phase = Phase.STABLE;
        lastOkMs = nowMs;
    }

    /** Starts over: the next step joins as a new member. */
    protected long rejoin(Errors error, long backoffMs) {
        lastError = type + " " + groupId + ": " + error.name();
        rejoins++;
        phase = Phase.JOINING;
        memberId = "";
        epoch = 0;
        return backoffMs;
    }

    /** A new member id: since KIP-1082 a KIP-848 (and a share) member picks its own. */
    protected String newMemberId() {
        memberId = Uuid.randomUuid().toString();
        return memberId;
    }

    /** After a KIP-848-style heartbeat: the new epoch, or a rejoin when the member was fenced or is unknown. */
    protected long answered(short errorCode, int memberEpoch, long now, long heartbeatMs) {
        Errors error = Errors.forCode(errorCode);
        if (error != Errors.NONE) {
            return rejoin(error, 1000);
        }
        epoch = memberEpoch;
        heartbeatOk(now);
        return heartbeatMs;
    }

    static LiveMember of(String type, String groupId, String topic, int partitions, int sessionMs) {
        switch (type) {
            case "classic": return new Classic(groupId, topic, partitions, sessionMs);
            case "consumer": return new Consumer(groupId, topic);
            case "share": return new Share(groupId, topic);
            case "streams": return new Streams(groupId, topic);
            default: throw new IllegalArgumentException("unknown group type " + type + " (classic, consumer, share, streams)");
        }
    }

    static final class Classic extends LiveMember {
        private static final String ASSIGNOR = "range";
        private final int partitions;
        private final int sessionMs;
        private int generation = -1;
        private boolean leader;

        Classic(String groupId, String topic, int partitions, int sessionMs) {
            super(groupId, topic, "classic");
            this.partitions = partitions;
            this.sessionMs = sessionMs;
        }

        @Override
        long step(BrokerConnection connection, long heartbeatMs) throws IOException {
            long now = System.currentTimeMillis();
            if (phase == Phase.JOINING) {
                return join(connection);
            }
            if (phase == Phase.SYNCING) {
                return sync(connection, now, heartbeatMs);
            }
            HeartbeatResponse answer = (HeartbeatResponse) connection.send(new HeartbeatRequest.Builder(new HeartbeatRequestData()
                .setGroupId(groupId).setGenerationId(generation).setMemberId(memberId)));
            return stableUnless(answer.error(), now, heartbeatMs);
        }

        /** After a SyncGroup or a Heartbeat: stable, or joining again (under the same member id in a rebalance, as ConsumerCoordinator does). */
        private long stableUnless(Errors error, long now, long heartbeatMs) {
            if (error == Errors.NONE) {
                heartbeatOk(now);
                return heartbeatMs;
            }
            if (error == Errors.REBALANCE_IN_PROGRESS) {
                phase = Phase.JOINING;
                return 0;
            }
            return rejoin(error, 1000);
        }

        private long join(BrokerConnection connection) throws IOException {
            ByteBuffer subscription = ConsumerProtocol.serializeSubscription(new Subscription(List.of(topic)));
            JoinGroupRequestProtocolCollection protocols = new JoinGroupRequestProtocolCollection();
            protocols.add(new JoinGroupRequestProtocol().setName(ASSIGNOR).setMetadata(bytes(subscription)));
            JoinGroupResponse answer = (JoinGroupResponse) connection.send(new JoinGroupRequest.Builder(new JoinGroupRequestData()
                .setGroupId(groupId).setSessionTimeoutMs(sessionMs).setRebalanceTimeoutMs(60000).setMemberId(memberId)
                .setProtocolType(ConsumerProtocol.PROTOCOL_TYPE).setProtocols(protocols)));
            Errors error = answer.error();
            if (error == Errors.MEMBER_ID_REQUIRED) {
                memberId = answer.data().memberId();
                return 0;
            }
            if (error != Errors.NONE) {
                return rejoin(error, 1000);
            }
            memberId = answer.data().memberId();
            generation = answer.data().generationId();
            leader = memberId.equals(answer.data().leader());
            phase = Phase.SYNCING;
            return 0;
        }

        private long sync(BrokerConnection connection, long now, long heartbeatMs) throws IOException {
            List<SyncGroupRequestAssignment> assignments = new ArrayList<>();
            if (leader) {
                List<TopicPartition> all = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    all.add(new TopicPartition(topic, p));
                }
                assignments.add(new SyncGroupRequestAssignment().setMemberId(memberId)
                    .setAssignment(bytes(ConsumerProtocol.serializeAssignment(new Assignment(all)))));
            }
            SyncGroupResponse answer = (SyncGroupResponse) connection.send(new SyncGroupRequest.Builder(new SyncGroupRequestData()
                .setGroupId(groupId).setGenerationId(generation).setMemberId(memberId)
                .setProtocolType(ConsumerProtocol.PROTOCOL_TYPE).setProtocolName(ASSIGNOR).setAssignments(assignments)));
            return stableUnless(answer.error(), now, heartbeatMs);
        }
    }

    static final class Consumer extends LiveMember {
        /** The assignment to acknowledge in the next heartbeat, or null when it has been. */
        private List<ConsumerGroupHeartbeatRequestData.TopicPartitions> toAcknowledge;

        Consumer(String groupId, String topic) {
            super(groupId, topic, "consumer");
        }

        @Override
        long step(BrokerConnection connection, long heartbeatMs) throws IOException {
            long now = System.currentTimeMillis();
            ConsumerGroupHeartbeatRequestData data = new ConsumerGroupHeartbeatRequestData().setGroupId(groupId);
            if (phase == Phase.JOINING) {
                data.setMemberId(newMemberId()).setMemberEpoch(0).setRebalanceTimeoutMs(60000)
                    .setSubscribedTopicNames(List.of(topic)).setTopicPartitions(List.of());
            } else {
                data.setMemberId(memberId).setMemberEpoch(epoch).setTopicPartitions(toAcknowledge);
            }
            ConsumerGroupHeartbeatResponseData answer = ((ConsumerGroupHeartbeatResponse) connection.send(new ConsumerGroupHeartbeatRequest.Builder(data))).data();
            long next = answered(answer.errorCode(), answer.memberEpoch(), now, heartbeatMs);
            toAcknowledge = null;
            if (answer.errorCode() == Errors.NONE.code() && answer.assignment() != null) {
                toAcknowledge = new ArrayList<>();
                for (ConsumerGroupHeartbeatResponseData.TopicPartitions assigned : answer.assignment().topicPartitions()) {
                    toAcknowledge.add(new ConsumerGroupHeartbeatRequestData.TopicPartitions()
                        .setTopicId(assigned.topicId()).setPartitions(assigned.partitions()));
                }
                // An assignment is acknowledged at once, as the client does after its callbacks.
                return 0;
            }
            return next;
        }
    }

    static final class Share extends LiveMember {
        Share(String groupId, String topic) {
            super(groupId, topic, "share");
        }

        @Override
        long step(BrokerConnection connection, long heartbeatMs) throws IOException {
            long now = System.currentTimeMillis();
            ShareGroupHeartbeatRequestData data = new ShareGroupHeartbeatRequestData().setGroupId(groupId);
            if (phase == Phase.JOINING) {
                data.setMemberId(newMemberId()).setMemberEpoch(0).setSubscribedTopicNames(List.of(topic));
            } else {
                data.setMemberId(memberId).setMemberEpoch(epoch);
            }
            ShareGroupHeartbeatResponse answer = (ShareGroupHeartbeatResponse) connection.send(new ShareGroupHeartbeatRequest.Builder(data));
            return answered(answer.data().errorCode(), answer.data().memberEpoch(), now, heartbeatMs);
        }
    }

    static final class Streams extends LiveMember {
        private final String processId = Uuid.randomUuid().toString();
        /** The tasks to acknowledge in the next heartbeat, or null when they have been. */
        private List<StreamsGroupHeartbeatRequestData.TaskIds> toAcknowledge;

        Streams(String groupId, String topic) {
            super(groupId, topic, "streams");
        }

        @Override
        long step(BrokerConnection connection, long heartbeatMs) throws IOException {
            long now = System.currentTimeMillis();
            StreamsGroupHeartbeatRequestData data = new StreamsGroupHeartbeatRequestData().setGroupId(groupId);
            if (phase == Phase.JOINING) {
                // One subtopology reading the group's topic, with no internal topics: a stateless application.
                StreamsGroupHeartbeatRequestData.Topology topology = new StreamsGroupHeartbeatRequestData.Topology().setEpoch(1)
                    .setSubtopologies(List.of(new StreamsGroupHeartbeatRequestData.Subtopology().setSubtopologyId("0")
                        .setSourceTopics(List.of(topic)).setRepartitionSinkTopics(List.of()).setRepartitionSourceTopics(List.of())
                        .setStateChangelogTopics(List.of()).setCopartitionGroups(List.of())));
                data.setMemberId(newMemberId()).setMemberEpoch(0).setRebalanceTimeoutMs(60000).setProcessId(processId)
                    .setTopology(topology).setClientTags(List.of()).setTaskOffsets(List.of()).setTaskEndOffsets(List.of())
                    .setActiveTasks(List.of()).setStandbyTasks(List.of()).setWarmupTasks(List.of());
            } else {
                data.setMemberId(memberId).setMemberEpoch(epoch);
                if (toAcknowledge != null) {
                    data.setActiveTasks(toAcknowledge).setStandbyTasks(List.of()).setWarmupTasks(List.of());
                }
            }
            StreamsGroupHeartbeatResponseData answer = ((StreamsGroupHeartbeatResponse) connection.send(new StreamsGroupHeartbeatRequest.Builder(data))).data();
            long next = answered(answer.errorCode(), answer.memberEpoch(), now, heartbeatMs);
            toAcknowledge = null;
            if (answer.errorCode() == Errors.NONE.code() && answer.activeTasks() != null) {
                toAcknowledge = new ArrayList<>();
                for (StreamsGroupHeartbeatResponseData.TaskIds tasks : answer.activeTasks()) {
                    toAcknowledge.add(new StreamsGroupHeartbeatRequestData.TaskIds().setSubtopologyId(tasks.subtopologyId()).setPartitions(tasks.partitions()));
                }
                // The assigned tasks are owned at once, as a stateless application does.
                return 0;
            }
            return next;
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.get(copy);
        return copy;
    }
}
