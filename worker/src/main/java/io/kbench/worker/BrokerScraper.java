package io.kbench.worker;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kbench.protocol.BrokerSample;

/**
 * Reads one broker source's own metrics — this JVM's MBeans for the embedded brokers, a broker's JMX port
 * ({@link JmxBrokerSource}) or its JMX exporter's Prometheus endpoint ({@link PrometheusBrokerSource}) — and turns its running totals into per-interval figures (docs/metrics.md, "Broker figures"): rates from
 * the meters' counts, request handler idle from its meter's count of idle nanoseconds, each request time's mean
 * over the interval from the histograms' all-time count and mean (exact, not the broker's decaying reservoir), and
 * gauges as read. The first {@link #sample} after {@link #open} only sets the baseline.
 *
 * <p>Not thread-safe: one thread reads it.
 */
final class BrokerScraper implements AutoCloseable {
    /** The request times read, as Kafka names them, and the figure prefix they get. */
    static final Map<String, String> TIMES = new LinkedHashMap<>();

    static {
        TIMES.put("TotalTimeMs", "TotalTimeMs");
        TIMES.put("RequestQueueTimeMs", "RequestQueueTimeMs");
        TIMES.put("LocalTimeMs", "LocalTimeMs");
        TIMES.put("RemoteTimeMs", "RemoteTimeMs");
        TIMES.put("ResponseQueueTimeMs", "ResponseQueueTimeMs");
        TIMES.put("ResponseSendTimeMs", "ResponseSendTimeMs");
    }

    /** Meters of BrokerTopicMetrics (all topics) and the per-second figure each becomes. */
    static final Map<String, String> TOPIC_METERS = Map.of(
            "BytesInPerSec", "bytesInPerSec",
            "BytesOutPerSec", "bytesOutPerSec",
            "MessagesInPerSec", "messagesInPerSec",
            "ReplicationBytesInPerSec", "replicationBytesInPerSec",
            "ReplicationBytesOutPerSec", "replicationBytesOutPerSec");

    /** Longest wait for a JMX address to connect while the run is prepared. */
    static final int CONNECT_SECONDS = 10;

    /** Where a source's running totals and gauges are read from, named for {@link #figures}. */
    interface Source extends AutoCloseable {
        Map<String, Double> read() throws IOException;

        @Override
        void close();
    }

    private final String source;
    private final Source reader;
    private Map<String, Double> last;
    private long lastNanos;

    BrokerScraper(String source, Source reader) {
        this.source = source;
        this.reader = reader;
    }

    /**
     * Opens {@code spec}: "local" (this JVM's MBeans, labelled "embedded"), "local:N" (node N of the embedded cluster
     * in a JVM of its own, labelled "embedded-N", {@link EmbeddedBrokers}), an {@code http://} or {@code https://}
     * URL of a broker's JMX exporter (labelled by the URL without credentials or query), or HOST:PORT of a broker's
     * JMX port.
     *
     * @throws IOException when the source cannot be reached or serves no Kafka broker metrics
     */
    static BrokerScraper open(String spec, long timeoutMillis) throws IOException {
        int node = EmbeddedBrokers.node(spec);
        if (node > 0) {
            return new BrokerScraper(EmbeddedBrokers.label(node), EmbeddedBrokers.source(node, timeoutMillis));
        }
        if (isUrl(spec)) {
            PrometheusBrokerSource p = PrometheusBrokerSource.open(spec, timeoutMillis, CONNECT_SECONDS);
            return new BrokerScraper(p.label(), p);
        }
        JmxBrokerSource j = JmxBrokerSource.open(spec, timeoutMillis, CONNECT_SECONDS);
        return new BrokerScraper(spec.equals("local") ? "embedded" : withoutCredentials(spec), j);
    }

    /** True for a Prometheus endpoint's URL. */
    static boolean isUrl(String spec) {
        return spec.startsWith("http://") || spec.startsWith("https://");
    }

    /**
     * A URL without its user part (credentials), or a JMX source ({@code [jmx+tls://][USER:PASSWORD@]HOST:PORT}) as
     * its HOST:PORT, for anything shown.
     */
    static String withoutCredentials(String spec) {
        if (isUrl(spec)) {
            return spec.replaceFirst("^(https?://)[^/@]*@", "$1");
        }
        String s = JmxBrokerSource.tls(spec) ? spec.substring(JmxBrokerSource.TLS.length()) : spec;
        return s.substring(s.lastIndexOf('@') + 1);
    }

    String source() {
        return source;
    }

    /** The figures since the last call; the first call returns an empty sample (the baseline). */
    BrokerSample sample(long nowNanos) {
        Map<String, Double> now;
        try {
            now = reader.read();
        } catch (IOException | RuntimeException e) {
            last = null; // what is read next (a broker restarted, a source back) is a new baseline
            return new BrokerSample(source, Map.of(), "not read: " + describe(e));
        }
        Map<String, Double> before = last;
        long beforeNanos = lastNanos;
        last = now;
        lastNanos = nowNanos;
        if (before == null || nowNanos - beforeNanos <= 0) {
            return new BrokerSample(source, Map.of(), "");
        }
        return new BrokerSample(source, figures(before, now, (nowNanos - beforeNanos) / 1e9), "");
    }

    /**
     * The interval's figures from two readings {@code seconds} apart: what {@link #read} names {@code x.count}
     * becomes a rate or a count, {@code x.count} with {@code x.mean} an interval mean, gauges stay as read.
     */
    static Map<String, Double> figures(Map<String, Double> before, Map<String, Double> now, double seconds) {
        Map<String, Double> f = new LinkedHashMap<>();
        for (String meter : TOPIC_METERS.values()) {
            rate(f, meter, before, now, meter + ".count", seconds);
        }
        // requests: the per-version RequestsPerSec meters where read, else the completed requests TotalTimeMs counted
        for (String request : List.of("Produce", "FetchConsumer", "FetchFollower")) {
            String name = request.substring(0, 1).toLowerCase() + request.substring(1) + "RequestsPerSec";
            String key = now.containsKey(request + ".requests.count") ? request + ".requests.count"
                    : request + ".TotalTimeMs.count";
            rate(f, name, before, now, key, seconds);
        }
        Double idleBefore = before.get("handlerIdle.count");
        Double idleNow = now.get("handlerIdle.count");
        // each pool's threads mark their idle ns divided by the pool's size: at most 1e9 a second per pool; several
        // pools on one meter (the embedded brokers of one JVM share it) give their mean
        double pools = Math.max(1.0, now.getOrDefault("handlerIdle.pools", 1.0));
        if (idleBefore != null && idleNow != null && idleNow >= idleBefore) {
            f.put("requestHandlerIdle", Math.min(1.0, (idleNow - idleBefore) / (seconds * 1e9 * pools)));
        }
        Double waitBefore = before.get("networkWait.nanos");
        Double waitNow = now.get("networkWait.nanos");
        Double processors = now.get("networkWait.processors");
        if (waitBefore != null && waitNow != null && processors != null && processors > 0
                && processors.equals(before.get("networkWait.processors")) && waitNow >= waitBefore) {
            // exact over the interval, as the request handlers' idle
            f.put("networkProcessorIdle", Math.min(1.0, (waitNow - waitBefore) / (seconds * 1e9 * processors)));
        } else {
            // the broker's own gauge, which trails the load by its metrics window
            copy(f, "networkProcessorIdle", now, "networkIdle");
        }
        for (String request : List.of("Produce", "FetchConsumer")) {
            for (String time : TIMES.keySet()) {
                mean(f, request.substring(0, 1).toLowerCase() + request.substring(1) + time + "Mean", before, now,
                        request + "." + time);
            }
            copy(f, request.substring(0, 1).toLowerCase() + request.substring(1) + "TotalTimeMsP99", now,
                    request + ".TotalTimeMs.p99");
        }
        copy(f, "underReplicatedPartitions", now, "urp");
        copy(f, "underMinIsrPartitions", now, "underMinIsr");
        delta(f, "isrShrinks", before, now, "isrShrinks.count");
        delta(f, "isrExpands", before, now, "isrExpands.count");
        rate(f, "logFlushesPerSec", before, now, "logFlush.count", seconds);
        mean(f, "logFlushMsMean", before, now, "logFlush");
        Double cpuBefore = before.get("cpu.nanos");
        Double cpuNow = now.get("cpu.nanos");
        Double cores = now.get("cpu.processors");
        if (cpuBefore != null && cpuNow != null && cores != null && cores > 0 && cpuNow >= cpuBefore) {
            f.put("processCpu", Math.min(1.0, (cpuNow - cpuBefore) / (seconds * 1e9) / cores));
        }
        copy(f, "heapUsedBytes", now, "heap.used");
        return f;
    }

    /**
     * A counter's value in the earlier reading: absent there but present now means it did not exist yet (Kafka
     * registers a request's metrics at its first request), so 0; absent now means unknown (null).
     */
    private static Double earlier(Map<String, Double> before, Map<String, Double> now, String key) {
        return now.containsKey(key) ? before.getOrDefault(key, 0.0) : null;
    }

    private static void rate(Map<String, Double> f, String name, Map<String, Double> before, Map<String, Double> now,
                             String key, double seconds) {
        Double a = earlier(before, now, key);
        Double b = now.get(key);
        if (a != null && b != null && b >= a) {
            f.put(name, (b - a) / seconds);
        }
    }

    private static void delta(Map<String, Double> f, String name, Map<String, Double> before, Map<String, Double> now,
                              String key) {
        Double a = earlier(before, now, key);
        Double b = now.get(key);
        if (a != null && b != null && b >= a) {
            f.put(name, b - a);
        }
    }

    /** The mean over the interval of a histogram read as {@code key.count} and {@code key.mean} (all-time). */
    private static void mean(Map<String, Double> f, String name, Map<String, Double> before, Map<String, Double> now,
                             String key) {
        Double n0 = earlier(before, now, key + ".count");
        Double m0 = n0 != null && n0 == 0 ? Double.valueOf(0) : before.get(key + ".mean");
        Double n1 = now.get(key + ".count");
        Double m1 = now.get(key + ".mean");
        if (n0 != null && m0 != null && n1 != null && m1 != null && n1 > n0) {
            f.put(name, Math.max(0, (m1 * n1 - m0 * n0) / (n1 - n0)));
        }
    }

    private static void copy(Map<String, Double> f, String name, Map<String, Double> now, String key) {
        Double v = now.get(key);
        if (v != null) {
            f.put(name, v);
        }
    }

    /** The root cause in one line of at most 200 characters (RMI's messages nest causes over several lines). */
    static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return oneLine(ErrorSlot.describe(t));
    }

    /** {@code text} on one line of at most 200 characters. */
    static String oneLine(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    @Override
    public void close() {
        reader.close();
    }
}
