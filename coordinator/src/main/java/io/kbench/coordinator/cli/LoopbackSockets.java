package io.kbench.coordinator.cli;

import java.util.Locale;
import java.util.Map;

import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Sweep;

/**
 * The consumers' socket receive buffer for brokers on loopback. Kafka's consumers ask for a 64 KB receive buffer
 * ({@code receive.buffer.bytes} 65536), which also turns off Linux's autotuning of it; loopback's MTU is 64 KB, so one
 * segment of a fetch response takes about all the memory that buffer allows, segments the window let through are
 * dropped for a full receive queue, and the broker sends them again only after its retransmission timeout (200 ms at
 * least). Measured on the embedded default at 50,000 msg/s of 1 KB: the consumer's {@code fetch-latency-max} at
 * 205-217 ms in 7 and 19 of 21 intervals, the end-to-end p99 164 and 214 ms against a publish response p99 of 12-24
 * ms, 36 segments dropped ({@code TcpExtTCPRcvQDrop}) in a 20-s run; with the OS sizing the buffer ({@code -1}) no fetch took
 * over 43 ms, the end-to-end p99 was 15 and 28 ms and none was dropped (docs/metrics.md). On a network of 1,500-byte
 * frames a segment is a small part of the same buffer and nothing stalls, so only runs against brokers on loopback get
 * {@code -1}, and only when the profile, the flags and the matrix leave the setting to the client.
 */
final class LoopbackSockets {
    static final String KEY = "consumer.receive.buffer.bytes";

    private LoopbackSockets() { }

    /**
     * {@code profile} with {@link #KEY} -1 when the brokers are on loopback ({@code bootstrap} null: the embedded
     * cluster; else every address of it) and nothing sets the consumers' receive buffer; {@code note} is told why.
     */
    static Profile apply(Profile profile, Sweep sweep, String bootstrap, boolean embedded,
                         java.util.function.Consumer<String> note) {
        if (!(embedded || loopback(bootstrap)) || profile.consumer().containsKey("receive.buffer.bytes")
                || profile.common().containsKey("receive.buffer.bytes") || sweep.axes().contains(KEY)
                || sweep.axes().contains("common.receive.buffer.bytes") || sweep.points().stream()
                .noneMatch(p -> p.workload().consumerCount() + p.workload().shareConsumerCount() > 0)) {
            return profile;
        }
        note.accept(KEY + " -1 for brokers on loopback: Kafka's 64 KB default stalls fetches there for about 200 ms "
                + "(docs/metrics.md#brokers-on-loopback)");
        return profile.with(Map.of(KEY, "-1"));
    }

    /** True when every address of {@code bootstrap} (host:port, comma-separated) is a loopback one. */
    static boolean loopback(String bootstrap) {
        if (bootstrap == null || bootstrap.isBlank()) {
            return false;
        }
        for (String server : bootstrap.split(",")) {
            String s = server.strip();
            String host = s.startsWith("[") && s.contains("]") ? s.substring(1, s.indexOf(']'))
                    : s.lastIndexOf(':') > 0 ? s.substring(0, s.lastIndexOf(':')) : s;
            host = host.toLowerCase(Locale.ROOT);
            boolean lo = host.equals("localhost") || host.equals("::1") || host.equals("0:0:0:0:0:0:0:1")
                    || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
            if (!lo) {
                return false;
            }
        }
        return true;
    }
}
