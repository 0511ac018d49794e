import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.protocol.Errors;

/** Prints Kafka's Errors enum, one "code TAB name TAB retriable TAB default message" line each (generate.js reads it). */
public class DumpErrors {
    public static void main(String[] args) {
        for (Errors error : Errors.values()) {
            boolean retriable = error.exception() instanceof RetriableException;
            String message = error.exception() == null || error.exception().getMessage() == null ? "" : error.exception().getMessage();
            System.out.println(error.code() + "\t" + error.name() + "\t" + retriable + "\t" + message.replaceAll("\\s+", " "));
        }
    }
}
