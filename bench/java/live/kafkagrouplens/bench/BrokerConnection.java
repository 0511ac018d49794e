package kafkagrouplens.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;

import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * One plain TCP connection to a broker, speaking Kafka's wire protocol with kafka-clients' own request and
 * response classes (the size-prefixed frames NetworkClient sends). One request at a time: the broker reads a
 * connection's next request only after it has answered the last, so pipelining would not go faster.
 * Versions are the highest both sides support, from the broker's ApiVersions answer.
 */
final class BrokerConnection implements Closeable {
    private static final String CLIENT_ID = "kafka-group-lens-live-bench";
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final Map<ApiKeys, Short> brokerMaxVersions = new EnumMap<>(ApiKeys.class);
    private int correlationId;

    BrokerConnection(String host, int port, int timeoutMs) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMs);
        socket.connect(new InetSocketAddress(host, port), timeoutMs);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
        ApiVersionsResponse versions = (ApiVersionsResponse) exchange(new ApiVersionsRequest.Builder().build((short) 0));
        for (ApiVersion version : versions.data().apiKeys()) {
            if (ApiKeys.hasId(version.apiKey())) {
                brokerMaxVersions.put(ApiKeys.forId(version.apiKey()), version.maxVersion());
            }
        }
    }

    /** Sends the request at the highest version both sides know and returns the broker's answer. */
    AbstractResponse send(AbstractRequest.Builder<?> builder) throws IOException {
        Short brokerMax = brokerMaxVersions.get(builder.apiKey());
        if (brokerMax == null || brokerMax < builder.oldestAllowedVersion()) {
            throw new IOException("the broker does not support " + builder.apiKey());
        }
        return exchange(builder.build((short) Math.min(brokerMax, builder.latestAllowedVersion())));
    }

    private AbstractResponse exchange(AbstractRequest request) throws IOException {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), CLIENT_ID, ++correlationId);
        ByteBuffer frame = request.serializeWithHeader(header);
        out.writeInt(frame.remaining());
        out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        out.flush();
        int size = in.readInt();
        if (size < 0 || size > 64 * 1024 * 1024) {
            throw new IOException("bad response size " + size);
        }
        byte[] answer = new byte[size];
        in.readFully(answer);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
