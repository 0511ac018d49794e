package kafkagrouplens.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps one live member in each of many groups from one JVM, for bench/kafkaLive.ts: the groups are
 * `<prefix>-<type>-<i>` for i below --count, types and topics taken in turn (as bench/kafkaSeed.ts's
 * plannedGroups names them), spread over --connections connections to a single broker (the coordinator of
 * every group). Each connection has one thread that sends each member's requests when due.
 *
 * Usage: LiveGroups --bootstrap host:port --prefix p --count n --types classic,consumer,share --topics a,b
 *        [--partitions 6] [--connections 16] [--heartbeat-ms 10000] [--session-ms 45000]
 * Prints "status ..." every 2 s and "ready" once every member is live; exits when its stdin closes.
 */
public final class LiveGroups {
    private static final AtomicLong REQUESTS = new AtomicLong();
    private static final AtomicLong IO_ERRORS = new AtomicLong();
    private static volatile String lastIoError = "";

    private LiveGroups() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String[] bootstrap = required(options, "bootstrap").split(":");
        String prefix = required(options, "prefix");
        int count = Integer.parseInt(required(options, "count"));
        String[] types = required(options, "types").split(",");
        String[] topics = required(options, "topics").split(",");
        int partitions = Integer.parseInt(options.getOrDefault("partitions", "6"));
        int connections = Integer.parseInt(options.getOrDefault("connections", "16"));
        long heartbeatMs = Long.parseLong(options.getOrDefault("heartbeat-ms", "10000"));
        int sessionMs = Integer.parseInt(options.getOrDefault("session-ms", "45000"));

        List<LiveMember> members = new ArrayList<>(count);
        List<List<LiveMember>> shards = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            shards.add(new ArrayList<>());
        }
        for (int i = 0; i < count; i++) {
            String type = types[i % types.length];
            LiveMember member = LiveMember.of(type, prefix + "-" + type + "-" + i, topics[i % topics.length], partitions, sessionMs);
            members.add(member);
            shards.get(i % connections).add(member);
        }
        exitWhenStdinCloses();
        for (List<LiveMember> shard : shards) {
            Thread worker = new Thread(() -> serve(bootstrap[0], Integer.parseInt(bootstrap[1]), shard, heartbeatMs, sessionMs), "live-connection");
            worker.setDaemon(true);
            worker.start();
        }
        long started = System.currentTimeMillis();
        boolean ready = false;
        while (true) {
            Thread.sleep(2000);
            String status = status(members, System.currentTimeMillis(), sessionMs, started);
            System.out.println(status);
            if (!ready && status.contains(" live " + count + " of ")) {
                ready = true;
                System.out.println("ready");
            }
            System.out.flush();
        }
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return value;
    }

    /**
     * One connection's members, each stepped when due; a stable member's heartbeat goes before any join, so
     * that joining thousands of groups does not let the joined ones' sessions run out. A broken connection
     * is opened again after a second.
     */
    private static void serve(String host, int port, List<LiveMember> shard, long heartbeatMs, int sessionMs) {
        Comparator<LiveMember> byDue = Comparator.comparingLong((LiveMember m) -> m.dueMs);
        PriorityQueue<LiveMember> stable = new PriorityQueue<>(byDue);
        PriorityQueue<LiveMember> joining = new PriorityQueue<>(byDue);
        joining.addAll(shard);
        BrokerConnection connection = null;
        while (true) {
            try {
                if (connection == null) {
                    connection = new BrokerConnection(host, port, sessionMs);
                }
                long now = System.currentTimeMillis();
                PriorityQueue<LiveMember> from = !stable.isEmpty() && stable.peek().dueMs <= now ? stable
                    : !joining.isEmpty() && joining.peek().dueMs <= now ? joining : null;
                if (from == null) {
                    long next = Math.min(stable.isEmpty() ? Long.MAX_VALUE : stable.peek().dueMs,
                        joining.isEmpty() ? Long.MAX_VALUE : joining.peek().dueMs);
                    Thread.sleep(Math.max(1, Math.min(next - now, 1000)));
                    continue;
                }
                LiveMember member = from.poll();
                try {
                    long delay = member.step(connection, heartbeatMs);
                    REQUESTS.incrementAndGet();
                    member.dueMs = System.currentTimeMillis() + delay;
                } finally {
                    (member.phase == LiveMember.Phase.STABLE ? stable : joining).add(member);
                }
            } catch (IOException | RuntimeException e) {
                IO_ERRORS.incrementAndGet();
                lastIoError = e.toString();
                closeQuietly(connection);
                connection = null;
                sleepQuietly(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static String status(List<LiveMember> members, long now, int sessionMs, long started) {
        Map<String, long[]> byType = new HashMap<>();
        int live = 0;
        long rejoins = 0;
        String lastError = "";
        for (LiveMember member : members) {
            long[] figures = byType.computeIfAbsent(member.type, t -> new long[3]);
            if (member.liveAt(now, sessionMs)) {
                live++;
                figures[0]++;
            }
            figures[1] = Math.max(figures[1], member.maxGapMs);
            figures[2] += member.rejoins;
            rejoins += member.rejoins;
            if (!member.lastError.isEmpty()) {
                lastError = member.lastError;
            }
        }
        StringBuilder line = new StringBuilder("status t=" + (now - started) / 1000 + "s live " + live + " of " + members.size());
        byType.forEach((type, f) -> line.append("; ").append(type).append(" live ").append(f[0])
            .append(", longest heartbeat gap ").append(f[1]).append(" ms, rejoins ").append(f[2]));
        line.append("; requests ").append(REQUESTS.get()).append("; rejoins ").append(rejoins)
            .append("; connection errors ").append(IO_ERRORS.get());
        if (!lastError.isEmpty()) {
            line.append("; last member error ").append(lastError);
        }
        if (!lastIoError.isEmpty()) {
            line.append("; last connection error ").append(lastIoError);
        }
        return line.toString();
    }

    /** The bench closes our stdin to stop us, and so does its death: no JVM is left behind. */
    private static void exitWhenStdinCloses() {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Input is ignored; only its end matters.
                }
            } catch (IOException e) {
                // A broken stdin ends us too.
            }
            System.exit(0);
        }, "stdin-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static void closeQuietly(BrokerConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException e) {
                // Already broken.
            }
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
