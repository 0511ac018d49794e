import java.time.Duration;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a topic for the real-broker tests the way an application consumer would, from the group's
 * committed offsets with the given isolation.level, then commits and prints, per partition, its
 * position and the consumer's own "records-lag" metric:
 *   PARTITION <p> POSITION <position> RECORDS_LAG <value>
 * It is assigned every partition (no rebalance), so the group must have no active members.
 * Arguments: bootstrap groupId topic isolationLevel limit, where limit is "all" (read to the end the
 * isolation level allows) or how many offsets to advance each partition by.
 * Exits 2 when it cannot get there within 30 s.
 */
public class LagProbe {
    private static final long DEADLINE_MS = 30_000;

    public static void main(String[] args) throws Exception {
        String topic = args[2];
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "lag-probe-" + args[3]);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, args[3]);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // One record per poll, so a partition can be paused exactly at its target.
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        boolean toEnd = args[4].equals("all");
        long limit = toEnd ? 0 : Long.parseLong(args[4]);
        long deadline = System.currentTimeMillis() + DEADLINE_MS;

        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .sorted(Comparator.comparingInt(TopicPartition::partition))
                    .collect(Collectors.toList());
            consumer.assign(partitions);
            // endOffsets answers with the last stable offset under read_committed, the high watermark otherwise.
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> targets = new HashMap<>();
            for (TopicPartition tp : partitions) {
                long end = ends.get(tp);
                targets.put(tp, toEnd ? end : Math.min(end, consumer.position(tp) + limit));
            }
            Set<TopicPartition> done = new HashSet<>();
            while (done.size() < partitions.size()) {
                if (System.currentTimeMillis() > deadline) {
                    StringBuilder where = new StringBuilder();
                    for (TopicPartition tp : partitions) {
                        where.append(' ').append(tp).append(" at ").append(consumer.position(tp)).append(" of ").append(targets.get(tp));
                    }
                    System.err.println("TIMEOUT" + where);
                    System.exit(2);
                }
                consumer.poll(Duration.ofMillis(100));
                for (TopicPartition tp : partitions) {
                    // The metric is recorded by the fetch that moved the position, so it belongs to this position.
                    if (!done.contains(tp) && consumer.position(tp) >= targets.get(tp) && recordsLag(consumer, tp) != null) {
                        consumer.pause(Collections.singleton(tp));
                        done.add(tp);
                    }
                }
            }
            consumer.commitSync();
            for (TopicPartition tp : partitions) {
                System.out.println("PARTITION " + tp.partition() + " POSITION " + consumer.position(tp) + " RECORDS_LAG " + recordsLag(consumer, tp));
            }
        }
        System.out.flush();
    }

    private static Double recordsLag(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp) {
        for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
            MetricName name = e.getKey();
            if (name.name().equals("records-lag") && name.group().equals("consumer-fetch-manager-metrics")
                    && tp.topic().equals(name.tags().get("topic")) && String.valueOf(tp.partition()).equals(name.tags().get("partition"))) {
                Object value = e.getValue().metricValue();
                if (value instanceof Double && !((Double) value).isNaN()) {
                    return (Double) value;
                }
            }
        }
        return null;
    }
}
