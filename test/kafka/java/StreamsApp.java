import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A tiny Kafka Streams application on the streams rebalance protocol (KIP-1071) for the
 * real-broker tests: input -> re-key by value (a repartition topic) -> count (a state store with
 * its changelog topic) -> output. Prints "STATE <new>" on each state change, leaves when stdin closes.
 * Arguments: bootstrap applicationId inputTopic outputTopic processingThreads [stateDir [processingGuarantee]].
 * Given a state directory, a restarted instance keeps its process id (Kafka Streams keeps it there with
 * persistent stores); "-" makes a fresh one. The guarantee is at_least_once (the default) or exactly_once_v2.
 */
public class StreamsApp {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.parseInt(args[4]));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args.length > 5 && !args[5].equals("-") ? args[5] : Files.createTempDirectory("kgl-streams-").toString());
        if (args.length > 6) {
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, args[6]);
        }
        props.put(StreamsConfig.CLIENT_ID_CONFIG, "java-streams-" + args[1]);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");

        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(args[2])
            .groupBy((key, value) -> value, Grouped.with("by-value", Serdes.String(), Serdes.String()))
            .count(Materialized.as("counts"))
            .toStream()
            .to(args[3], Produced.with(Serdes.String(), Serdes.Long()));

        CountDownLatch stopped = new CountDownLatch(1);
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
            streams.setStateListener((now, before) -> {
                System.out.println("STATE " + now);
                System.out.flush();
            });
            Thread stdinWatcher = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                    in.readLine();
                } catch (Exception ignored) {
                    // stop on any stdin problem
                }
                stopped.countDown();
            });
            stdinWatcher.setDaemon(true);
            stdinWatcher.start();
            streams.start();
            stopped.await();
        }
        System.out.println("CLOSED");
        System.out.flush();
    }
}
