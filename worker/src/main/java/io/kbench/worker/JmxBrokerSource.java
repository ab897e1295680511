package io.kbench.worker;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A broker's metrics over JMX: this JVM's own MBeans (the embedded brokers) or a broker's JMX port over RMI (what
 * {@code JMX_PORT} opens). Reads each figure's MBean attribute by name; a broker version or role without one leaves
 * it out. Not thread-safe: one thread reads it.
 */
final class JmxBrokerSource implements BrokerScraper.Source {
    private final JMXConnector connector;
    private final MBeanServerConnection mbeans;

    private JmxBrokerSource(JMXConnector connector, MBeanServerConnection mbeans) {
        this.connector = connector;
        this.mbeans = mbeans;
    }

    /**
     * Opens "local" or HOST:PORT, waiting at most {@code connectSeconds} for the connection.
     *
     * @throws IOException when the source cannot be reached or serves no Kafka broker metrics
     */
    static JmxBrokerSource open(String spec, long timeoutMillis, int connectSeconds) throws IOException {
        JmxBrokerSource s;
        if (spec.equals("local")) {
            s = new JmxBrokerSource(null, ManagementFactory.getPlatformMBeanServer());
        } else {
            int at = spec.lastIndexOf('@');
            String address = spec.substring(at + 1);
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + address + "/jmxrmi");
            Map<String, Object> env = new HashMap<>();
            if (at > 0) {
                // USER:PASSWORD, each URL-encoded (--broker-jmx-password-file)
                String[] login = spec.substring(0, at).split(":", 2);
                env.put(JMXConnector.CREDENTIALS, new String[] {
                    java.net.URLDecoder.decode(login[0], java.nio.charset.StandardCharsets.UTF_8),
                    login.length > 1 ? java.net.URLDecoder.decode(login[1], java.nio.charset.StandardCharsets.UTF_8) : ""});
            }
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
                c = connecting.get(connectSeconds, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                connecting.thenAccept(late -> {
                    try {
                        late.close();
                    } catch (IOException ignored) {
                        // it was never used
                    }
                });
                throw new IOException("no answer within " + connectSeconds + " s");
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause() instanceof java.io.UncheckedIOException u ? u.getCause() : e.getCause();
                if (cause instanceof SecurityException) {
                    throw new IOException("the JMX server refused the login (" + BrokerScraper.describe(cause)
                            + "; --broker-jmx-password-file)", cause);
                }
                throw new IOException("no JMX server answered there (" + BrokerScraper.describe(cause) + ")", cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while connecting");
            }
            s = new JmxBrokerSource(c, c.getMBeanServerConnection());
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

    /** The running totals and gauges, named for {@link #figures}. */
    @Override
    public Map<String, Double> read() throws IOException {
        try {
            return readAll();
        } catch (javax.management.JMException e) {
            throw new IOException(BrokerScraper.describe(e), e);
        }
    }

    private Map<String, Double> readAll() throws IOException, javax.management.JMException {
        Map<String, Double> r = new HashMap<>();
        for (Map.Entry<String, String> m : BrokerScraper.TOPIC_METERS.entrySet()) {
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
        // each data-plane network processor's time waiting in select (idle), in ns, cumulative; the controller's
        // listener (by Kafka's convention named CONTROLLER) is not the clients'
        double wait = 0;
        int processors = 0;
        for (ObjectName n : names("kafka.server:type=socket-server-metrics,*")) {
            String listener = n.getKeyProperty("listener");
            if (n.getKeyProperty("networkProcessor") == null || listener == null
                    || listener.toUpperCase(java.util.Locale.ROOT).contains("CONTROLLER")) {
                continue;
            }
            Object v = attribute(n.getCanonicalName(), "io-wait-time-ns-total");
            if (v instanceof Number num && Double.isFinite(num.doubleValue())) {
                wait += num.doubleValue();
                processors++;
            }
        }
        if (processors > 0) {
            r.put("networkWait.nanos", wait);
            r.put("networkWait.processors", (double) processors);
        }
        for (String request : List.of("Produce", "FetchConsumer")) {
            for (String time : BrokerScraper.TIMES.keySet()) {
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
            throw new IOException(BrokerScraper.describe(e), e);
        }
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
