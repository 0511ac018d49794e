package kgl.protocol;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads and writes messages with Kafka's own generated classes for test/protocol/crossCheck.ts, one JVM per run.
 *
 * Each stdin line is {@code id TAB mode TAB class TAB version TAB base64 payload}; mode "bytes" reads the payload
 * with {@code new XxxData(new ByteBufferAccessor(buffer), version)}, mode "json" with
 * {@code XxxDataJsonConverter.read(json, version)}. Each stdout line is {@code id TAB ok TAB base64 bytes TAB base64
 * json} (the message serialized again, and XxxDataJsonConverter.write with numbers as strings, so that int64 values
 * stay exact in JavaScript), or {@code id TAB err TAB base64 message}.
 */
public final class ProtocolHarness {
    private static final class Codec {
        final Constructor<?> fromBytes;
        final Method fromJson;
        final Method toJson;

        Codec(String className) throws ReflectiveOperationException {
            Class<?> messageClass = Class.forName(className);
            Class<?> converter = Class.forName(className + "JsonConverter");
            fromBytes = messageClass.getConstructor(Readable.class, short.class);
            fromJson = converter.getMethod("read", JsonNode.class, short.class);
            toJson = converter.getMethod("write", messageClass, short.class);
        }
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper reader = new ObjectMapper();
        ObjectMapper writer = JsonMapper.builder().enable(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS).build();
        Map<String, Codec> codecs = new HashMap<>();
        Base64.Decoder decoder = Base64.getDecoder();
        Base64.Encoder encoder = Base64.getEncoder();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\t", -1);
            String id = parts[0];
            try {
                Codec codec = codecs.get(parts[2]);
                if (codec == null) {
                    codec = new Codec(parts[2]);
                    codecs.put(parts[2], codec);
                }
                short version = Short.parseShort(parts[3]);
                byte[] payload = decoder.decode(parts[4]);
                Message message;
                if (parts[1].equals("bytes")) {
                    ByteBuffer buffer = ByteBuffer.wrap(payload);
                    message = (Message) codec.fromBytes.newInstance(new ByteBufferAccessor(buffer), version);
                    if (buffer.hasRemaining()) {
                        throw new IllegalStateException(buffer.remaining() + " bytes left after reading the message");
                    }
                } else {
                    JsonNode json = reader.readTree(new String(payload, StandardCharsets.UTF_8));
                    message = (Message) codec.fromJson.invoke(null, json, version);
                }
                JsonNode json = (JsonNode) codec.toJson.invoke(null, message, version);
                ObjectSerializationCache cache = new ObjectSerializationCache();
                ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, version));
                message.write(new ByteBufferAccessor(buffer), cache, version);
                out.write(id + "\tok\t" + encoder.encodeToString(buffer.array()) + "\t"
                    + encoder.encodeToString(writer.writeValueAsBytes(json)));
            } catch (Throwable error) {
                Throwable cause = error instanceof InvocationTargetException ? error.getCause() : error;
                out.write(id + "\terr\t" + encoder.encodeToString(String.valueOf(cause).getBytes(StandardCharsets.UTF_8)));
            }
            out.newLine();
        }
        out.flush();
    }
}
