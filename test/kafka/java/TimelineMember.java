import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A KIP-848 consumer (group.protocol=consumer) for the consumer-group timeline test: logs every
 * reconciliation step it takes with the wall-clock time and its member epoch, and can be slow to
 * revoke (it blocks in onPartitionsRevoked). Lines:
 *   REVOKING <ms> <partitions>   when onPartitionsRevoked starts
 *   REVOKED <ms> <partitions>    when it returns (after the delay)
 *   ASSIGNED <ms> <partitions>   when onPartitionsAssigned runs
 *   EPOCH <ms> <member id> <member epoch> <partitions owned>   when poll returns with a new epoch or assignment
 * Arguments: bootstrap groupId topic revokeDelayMs clientId. Leaves the group when stdin closes.
 */
public class TimelineMember {
    private static String names(Collection<TopicPartition> partitions) {
        TreeSet<Integer> sorted = new TreeSet<>();
        for (TopicPartition tp : partitions) {
            sorted.add(tp.partition());
        }
        return sorted.toString().replace(" ", "");
    }

    private static void log(String line) {
        System.out.println(line);
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, args[4]);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        long revokeDelayMs = Long.parseLong(args[3]);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread stdinWatcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                in.readLine();
            } catch (Exception ignored) {
                // stop on any stdin problem
            }
            running.set(false);
        });
        stdinWatcher.setDaemon(true);
        stdinWatcher.start();

        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(args[2]), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    if (partitions.isEmpty() || !running.get()) {
                        return;
                    }
                    log("REVOKING " + System.currentTimeMillis() + " " + names(partitions));
                    try {
                        Thread.sleep(revokeDelayMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    log("REVOKED " + System.currentTimeMillis() + " " + names(partitions));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (!partitions.isEmpty()) {
                        log("ASSIGNED " + System.currentTimeMillis() + " " + names(partitions));
                    }
                }
            });
            String last = null;
            while (running.get()) {
                consumer.poll(Duration.ofMillis(100));
                String now = consumer.groupMetadata().memberId() + " " + consumer.groupMetadata().generationId() + " " + names(consumer.assignment());
                if (!now.equals(last)) {
                    log("EPOCH " + System.currentTimeMillis() + " " + now);
                    last = now;
                }
            }
        }
        log("CLOSED");
    }
}
