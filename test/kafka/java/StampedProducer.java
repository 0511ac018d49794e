import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces records with the timestamps it is given (CreateTime), for the timestamp-lookup tests,
 * one flush per partition so each partition's records travel as one batch, then prints "DONE".
 * Arguments: bootstrap topic partitionSpec..., where a partition spec is
 * "<partition>:<timestamp>,<timestamp>,..." (epoch milliseconds, in offset order).
 */
public class StampedProducer {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "100");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 2; i < args.length; i++) {
                String[] spec = args[i].split(":");
                int partition = Integer.parseInt(spec[0]);
                String[] stamps = spec[1].split(",");
                for (int r = 0; r < stamps.length; r++) {
                    producer.send(new ProducerRecord<>(args[1], partition, Long.parseLong(stamps[r]), null, "r" + r));
                }
                producer.flush();
            }
        }
        System.out.println("DONE");
        System.out.flush();
    }
}
