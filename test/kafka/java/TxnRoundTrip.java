import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Java kafka-clients transactions against a Kafka server, step by step, printing one line per
 * step for the test to check: a committed transaction that also sends a group's offsets, an
 * aborted one, one left open, what read_committed and read_uncommitted consumers then read, and a
 * second producer with the same transactional.id fencing the first (which aborts the open one).
 * Arguments: bootstrap dataTopic offsetsTopic groupId transactionalId
 */
public class TxnRoundTrip {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        TopicPartition data = new TopicPartition(topic, 0);
        TopicPartition consumed = new TopicPartition(args[2], 0);
        String groupId = args[3];
        String transactionalId = args[4];

        KafkaProducer<String, String> first = producer(bootstrap, transactionalId);
        first.initTransactions();
        first.beginTransaction();
        for (int i = 0; i < 3; i++) {
            first.send(new ProducerRecord<>(topic, 0, "k", "committed-" + i));
        }
        first.sendOffsetsToTransaction(Map.of(consumed, new OffsetAndMetadata(4)), new ConsumerGroupMetadata(groupId));
        first.commitTransaction();
        System.out.println("COMMITTED");

        first.beginTransaction();
        first.send(new ProducerRecord<>(topic, 0, "k", "aborted-0"));
        first.send(new ProducerRecord<>(topic, 0, "k", "aborted-1"));
        first.flush();
        first.abortTransaction();
        System.out.println("ABORTED");

        first.beginTransaction();
        first.send(new ProducerRecord<>(topic, 0, "k", "open-0"));
        first.flush();
        System.out.println("OPEN");

        System.out.println("READ_COMMITTED " + read(bootstrap, data, "read_committed"));
        System.out.println("READ_UNCOMMITTED " + read(bootstrap, data, "read_uncommitted"));

        KafkaProducer<String, String> second = producer(bootstrap, transactionalId);
        second.initTransactions();
        try {
            first.commitTransaction();
            System.out.println("NOT_FENCED");
        } catch (Exception e) {
            System.out.println("FENCED " + e.getClass().getSimpleName());
        }
        System.out.println("READ_COMMITTED_AFTER " + read(bootstrap, data, "read_committed"));
        first.close(Duration.ofSeconds(5));
        second.close(Duration.ofSeconds(5));
        System.out.println("DONE");
    }

    private static KafkaProducer<String, String> producer(String bootstrap, String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        return new KafkaProducer<>(props);
    }

    /** "<records> <position> <values>": what a consumer with this isolation level reads from the start, polling until its position stops moving. */
    private static String read(String bootstrap, TopicPartition partition, String isolation) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            StringBuilder values = new StringBuilder();
            int records = 0;
            long position = -1;
            int quiet = 0;
            while (quiet < 3) {
                var batch = consumer.poll(Duration.ofMillis(500));
                for (var record : batch) {
                    records++;
                    values.append(values.length() == 0 ? "" : ",").append(new String(record.value()));
                }
                long now = consumer.position(partition);
                quiet = batch.isEmpty() && now == position ? quiet + 1 : 0;
                position = now;
            }
            return records + " " + position + " " + values;
        }
    }
}
