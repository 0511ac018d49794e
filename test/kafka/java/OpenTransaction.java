import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A transactional producer that dies mid-transaction: it commits one transaction of `committed`
 * records to partition 0, begins another, writes `open` records, flushes, prints OPEN and halts
 * without closing, so the transaction stays open on the server (holding the LSO) until the
 * coordinator's transaction.timeout.ms aborts it, or an admin does.
 * Arguments: bootstrap topic transactionalId committed open transactionTimeoutMs
 */
public class OpenTransaction {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, args[2]);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, args[5]);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        String topic = args[1];
        int committed = Integer.parseInt(args[3]);
        int open = Integer.parseInt(args[4]);
        KafkaProducer<String, String> producer = new KafkaProducer<>(props);
        producer.initTransactions();
        producer.beginTransaction();
        for (int i = 0; i < committed; i++) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "committed-" + i));
        }
        producer.commitTransaction();
        producer.beginTransaction();
        for (int i = 0; i < open; i++) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "open-" + i));
        }
        producer.flush();
        System.out.println("OPEN");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
