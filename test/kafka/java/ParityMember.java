import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One named member of the protocol-parity test: like GroupMember, but with its own client.id (the test
 * names members by client id or group.instance.id, never by member id, which differ between runs) and,
 * for the classic protocol, its own session.timeout.ms. Prints "ASSIGNED <partitions>" whenever its
 * assignment changes; closes (a static member without leaving, as KafkaConsumer does) when stdin closes.
 * Arguments: bootstrap groupId topic protocol(classic|consumer) clientId instanceId(or -) sessionTimeoutMs(or -)
 */
public class ParityMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, args[3]);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, args[4]);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        if (!args[5].equals("-")) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, args[5]);
        }
        if (!args[6].equals("-")) {
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, args[6]);
        }
        AtomicBoolean running = new AtomicBoolean(true);
        Thread stdinWatcher = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                while (in.readLine() != null) {
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
            consumer.subscribe(List.of(args[2]));
            String last = null;
            boolean commitPending = false;
            while (running.get()) {
                commitPending |= consumer.poll(Duration.ofMillis(200)).count() > 0;
                String now = consumer.assignment().toString();
                if (!now.equals(last)) {
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
}
