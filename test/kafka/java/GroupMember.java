import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Java consumer for the real-broker tests: joins a group, polls and commits, prints
 * "ASSIGNED <partitions>" whenever its assignment changes and closes when stdin closes (a static
 * member without leaving the group, as KafkaConsumer.close() does).
 * Arguments: bootstrap groupId topics(comma-separated) protocol(classic|consumer) instanceId(or -) assignor(or -)
 *            [clientId(or -, default java-<groupId>) [sessionTimeoutMs(or -) [empty|nonempty]]]
 * A topics argument "regex:<pattern>" subscribes to a KIP-848 broker-side regular expression instead.
 * With "empty", an empty assignment is printed too (the parity test compares what each member holds,
 * nothing included); by default only non-empty ones are, so "ASSIGNED" means the member got partitions.
 */
public class GroupMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, args[3]);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, optional(args, 6).orElse("java-" + args[1]));
        optional(args, 7).ifPresent((ms) -> props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ms));
        boolean reportEmpty = optional(args, 8).map("empty"::equals).orElse(false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        if (!args[4].equals("-")) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, args[4]);
        }
        if (!args[5].equals("-")) {
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, args[5]);
        }
        AtomicBoolean running = new AtomicBoolean(true);
        Thread stdinWatcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                while (in.readLine() != null) {
                    // any line or EOF stops the member
                    break;
                }
            } catch (Exception ignored) {
                // stop on any stdin problem
            }
            running.set(false);
        });
        stdinWatcher.setDaemon(true);
        stdinWatcher.start();

        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            if (args[2].startsWith("regex:")) {
                consumer.subscribe(new SubscriptionPattern(args[2].substring("regex:".length())));
            } else {
                consumer.subscribe(Arrays.asList(args[2].split(",")));
            }
            String last = null;
            boolean commitPending = false;
            while (running.get()) {
                commitPending |= consumer.poll(Duration.ofMillis(200)).count() > 0;
                String now = consumer.assignment().toString();
                if ((reportEmpty || !consumer.assignment().isEmpty()) && !now.equals(last)) {
                    System.out.println("ASSIGNED " + now);
                    System.out.flush();
                    last = now;
                    commitPending = true;
                }
                if (commitPending) {
                    try {
                        consumer.commitSync();
                        commitPending = false;
                    } catch (RebalanceInProgressException | CommitFailedException e) {
                        // a rebalance is under way: commit after the next poll
                    }
                }
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
    }

    /** The argument at `index` unless absent or "-". */
    private static Optional<String> optional(String[] args, int index) {
        return args.length > index && !args[index].equals("-") ? Optional.of(args[index]) : Optional.empty();
    }
}
