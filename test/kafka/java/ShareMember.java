import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A KafkaShareConsumer (KIP-932) for the real-broker tests. It first sets the share group's
 * share.auto.offset.reset (a group config) when asked, then subscribes, polls (acknowledging
 * implicitly), prints "POLLED <n>" after each poll that returned records and "SUBSCRIBED" once,
 * and leaves when stdin closes. With a fifth argument "records" it also prints each record it is given, as
 * "RECORD <topic> <partition> <offset> <deliveryCount>".
 * Arguments: bootstrap groupId topics(comma-separated) autoOffsetReset(earliest|latest|-) [records]
 */
public class ShareMember {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String groupId = args[1];
        boolean printRecords = args.length > 4 && args[4].equals("records");
        if (!args[3].equals("-")) {
            Properties adminProps = new Properties();
            adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (Admin admin = Admin.create(adminProps)) {
                ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, groupId);
                AlterConfigOp set = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", args[3]), AlterConfigOp.OpType.SET);
                admin.incrementalAlterConfigs(Map.of(group, List.of(set))).all().get();
            }
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "java-share-" + groupId);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
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

        try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(props)) {
            consumer.subscribe(Arrays.asList(args[2].split(",")));
            System.out.println("SUBSCRIBED");
            System.out.flush();
            while (running.get()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                int count = records.count();
                if (printRecords) {
                    for (ConsumerRecord<byte[], byte[]> record : records) {
                        System.out.println("RECORD " + record.topic() + " " + record.partition() + " " + record.offset() + " " + record.deliveryCount().orElse((short) -1));
                    }
                }
                if (count > 0) {
                    consumer.commitSync();
                    System.out.println("POLLED " + count);
                    System.out.flush();
                }
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
    }
}
