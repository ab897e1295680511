package io.kbench.worker;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import io.kbench.protocol.BrokerSample;

/**
 * Reads one broker source's own metrics over JMX — this JVM's MBeans for the embedded brokers, or a broker's JMX
 * port — and turns its running totals into per-interval figures (docs/metrics.md, "Broker figures"): rates from
 * the meters' counts, request handler idle from its meter's count of idle nanoseconds, each request time's mean
 * over the interval from the histograms' all-time count and mean (exact, not the broker's decaying reservoir), and
 * gauges as read. The first {@link #sample} after {@link #open} only sets the baseline.
 *
 * <p>Not thread-safe: one thread reads it.
 */
final class BrokerScraper implements AutoCloseable {
    /** The request times read, as Kafka names them, and the figure prefix they get. */
    private static final Map<String, String> TIMES = new LinkedHashMap<>();

    static {
        TIMES.put("TotalTimeMs", "TotalTimeMs");
        TIMES.put("RequestQueueTimeMs", "RequestQueueTimeMs");
        TIMES.put("LocalTimeMs", "LocalTimeMs");
        TIMES.put("RemoteTimeMs", "RemoteTimeMs");
        TIMES.put("ResponseQueueTimeMs", "ResponseQueueTimeMs");
        TIMES.put("ResponseSendTimeMs", "ResponseSendTimeMs");
    }

    /** Meters of BrokerTopicMetrics (all topics) and the per-second figure each becomes. */
    private static final Map<String, String> TOPIC_METERS = Map.of(
            "BytesInPerSec", "bytesInPerSec",
            "BytesOutPerSec", "bytesOutPerSec",
            "MessagesInPerSec", "messagesInPerSec",
            "ReplicationBytesInPerSec", "replicationBytesInPerSec",
            "ReplicationBytesOutPerSec", "replicationBytesOutPerSec");

    /** Longest wait for a JMX address to connect while the run is prepared. */
    static final int CONNECT_SECONDS = 10;

    private final String source;
    private final JMXConnector connector;
    private final MBeanServerConnection mbeans;
    private Map<String, Double> last;
    private long lastNanos;

    private BrokerScraper(String source, JMXConnector connector, MBeanServerConnection mbeans) {
        this.source = source;
        this.connector = connector;
        this.mbeans = mbeans;
    }

    /**
     * Opens {@code spec}: "local" (this JVM's MBeans, labelled "embedded") or HOST:PORT of a broker's JMX port.
     *
     * @throws IOException when the source cannot be reached or serves no Kafka broker metrics
     */
    static BrokerScraper open(String spec, long timeoutMillis) throws IOException {
        BrokerScraper s;
        if (spec.equals("local")) {
            s = new BrokerScraper("embedded", null, ManagementFactory.getPlatformMBeanServer());
        } else {
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + spec + "/jmxrmi");
            Map<String, Object> env = new HashMap<>();
            env.put("jmx.remote.x.request.waiting.timeout", timeoutMillis);
            env.put("sun.rmi.transport.tcp.responseTimeout", timeoutMillis);
            // the RMI registry lookup has no connect timeout of its own: an address that drops packets would hold
            // the prepare for minutes
            java.util.concurrent.CompletableFuture<JMXConnector> connecting = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            return JMXConnectorFactory.connect(url, env);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
            JMXConnector c;
            try {
                c = connecting.get(CONNECT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                connecting.thenAccept(late -> {
                    try {
                        late.close();
                    } catch (IOException ignored) {
                        // it was never used
                    }
                });
                throw new IOException("no answer within " + CONNECT_SECONDS + " s");
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause() : e.getCause();
                throw new IOException("no JMX server answered there (" + describe(cause) + ")", cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while connecting");
            }
            s = new BrokerScraper(spec, c, c.getMBeanServerConnection());
        }
        try {
            if (s.mbeans.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), null).isEmpty()) {
                s.close();
                throw new IOException("no Kafka broker metrics there (kafka.server:type=BrokerTopicMetrics)");
            }
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
        return s;
    }

    String source() {
        return source;
    }

    /** The figures since the last call; the first call returns an empty sample (the baseline). */
    BrokerSample sample(long nowNanos) {
        Map<String, Double> now;
        try {
            now = read();
        } catch (IOException | javax.management.JMException | RuntimeException e) {
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
        rate(f, "produceRequestsPerSec", before, now, "Produce.requests.count", seconds);
        rate(f, "fetchConsumerRequestsPerSec", before, now, "FetchConsumer.requests.count", seconds);
        rate(f, "fetchFollowerRequestsPerSec", before, now, "FetchFollower.requests.count", seconds);
        Double idleBefore = before.get("handlerIdle.count");
        Double idleNow = now.get("handlerIdle.count");
        if (idleBefore != null && idleNow != null && idleNow >= idleBefore) {
            f.put("requestHandlerIdle", Math.min(1.0, (idleNow - idleBefore) / (seconds * 1e9)));
        }
        copy(f, "networkProcessorIdle", now, "networkIdle");
        for (String request : List.of("Produce", "FetchConsumer")) {
            for (String time : TIMES.keySet()) {
                mean(f, request.substring(0, 1).toLowerCase() + request.substring(1) + time + "Mean", before, now,
                        request + "." + time);
            }
            copy(f, request.substring(0, 1).toLowerCase() + request.substring(1) + "TotalTimeMsP99", now,
                    request + ".TotalTimeMs.p99");
        }
        copy(f, "underReplicatedPartitions", now, "urp");
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

    /** The running totals and gauges, named for {@link #figures}. */
    Map<String, Double> read() throws IOException, javax.management.JMException {
        Map<String, Double> r = new HashMap<>();
        for (Map.Entry<String, String> m : TOPIC_METERS.entrySet()) {
            put(r, m.getValue() + ".count", "kafka.server:type=BrokerTopicMetrics,name=" + m.getKey(), "Count");
        }
        for (String request : List.of("Produce", "FetchConsumer", "FetchFollower")) {
            double sum = 0;
            boolean any = false;
            for (ObjectName n : names("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=" + request + ",*")) {
                Object v = mbeans.getAttribute(n, "Count");
                if (v instanceof Number num) {
                    sum += num.doubleValue();
                    any = true;
                }
            }
            if (any) {
                r.put(request + ".requests.count", sum);
            }
        }
        // a combined broker+controller has a pool each; the broker's is what clients load
        if (!put(r, "handlerIdle.count", "kafka.server:type=KafkaRequestHandlerPool,name=BrokerRequestHandlerAvgIdlePercent",
                "Count")) {
            put(r, "handlerIdle.count", "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent", "Count");
        }
        put(r, "networkIdle", "kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent", "Value");
        for (String request : List.of("Produce", "FetchConsumer")) {
            for (String time : TIMES.keySet()) {
                String name = "kafka.network:type=RequestMetrics,name=" + time + ",request=" + request;
                put(r, request + "." + time + ".count", name, "Count");
                put(r, request + "." + time + ".mean", name, "Mean");
            }
            put(r, request + ".TotalTimeMs.p99", "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=" + request,
                    "99thPercentile");
        }
        put(r, "urp", "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions", "Value");
        put(r, "isrShrinks.count", "kafka.server:type=ReplicaManager,name=IsrShrinksPerSec", "Count");
        put(r, "isrExpands.count", "kafka.server:type=ReplicaManager,name=IsrExpandsPerSec", "Count");
        put(r, "logFlush.count", "kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs", "Count");
        put(r, "logFlush.mean", "kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs", "Mean");
        put(r, "cpu.nanos", "java.lang:type=OperatingSystem", "ProcessCpuTime");
        put(r, "cpu.processors", "java.lang:type=OperatingSystem", "AvailableProcessors");
        Object heap = attribute("java.lang:type=Memory", "HeapMemoryUsage");
        if (heap instanceof javax.management.openmbean.CompositeData cd && cd.get("used") instanceof Number used) {
            r.put("heap.used", used.doubleValue());
        }
        return r;
    }

    private Set<ObjectName> names(String pattern) throws IOException, javax.management.MalformedObjectNameException {
        return mbeans.queryNames(new ObjectName(pattern), null);
    }

    /** Reads one numeric attribute into {@code r}; false when the MBean or attribute is not there. */
    private boolean put(Map<String, Double> r, String key, String name, String attribute) throws IOException {
        Object v = attribute(name, attribute);
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            r.put(key, n.doubleValue());
            return true;
        }
        return false;
    }

    private Object attribute(String name, String attribute) throws IOException {
        try {
            return mbeans.getAttribute(new ObjectName(name), attribute);
        } catch (javax.management.InstanceNotFoundException | javax.management.AttributeNotFoundException e) {
            return null; // a broker version or role without it: the figure is left out
        } catch (javax.management.JMException e) {
            throw new IOException(describe(e), e);
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
        if (connector != null) {
            try {
                connector.close();
            } catch (IOException e) {
                // nothing more to do with it
            }
        }
    }
}
