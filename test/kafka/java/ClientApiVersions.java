import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Prints "<api name> <latest version>" for every API of the kafka-clients jar on the classpath: the
 * highest version its client offers, so the tests know what it would send to a broker serving more.
 */
public class ClientApiVersions {
    public static void main(String[] args) {
        for (ApiKeys api : ApiKeys.values()) {
            System.out.println(api.name + " " + api.latestVersion());
        }
        System.out.flush();
    }
}
