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

    /**
     * RMI's distributed garbage collector asks a JVM that holds remote references (a JMX connection) for a full
     * collection every {@code sun.rmi.dgc.client.gcInterval}, one hour by default: a stop-the-world pause of the
     * worker's load threads once an hour in a long run that reads the brokers over JMX (seen with the interval set to
     * 3 s: "Pause Full (System.gc())" every 3 s). kbench's JMX references are the connection's few objects, closed
     * with the run, so it turns that off unless the user set it.
     */
    static final String DGC_INTERVAL = "sun.rmi.dgc.client.gcInterval";

    static {
        if (System.getProperty(DGC_INTERVAL) == null) {
            System.setProperty(DGC_INTERVAL, Long.toString(Long.MAX_VALUE));
        }
    }

    private JmxBrokerSource(JMXConnector connector, MBeanServerConnection mbeans) {
        this.connector = connector;
        this.mbeans = mbeans;
    }

    /**
     * Opens "local" or HOST:PORT, waiting at most {@code connectSeconds} for the connection.
     *
     * @throws IOException when the source cannot be reached or serves no Kafka broker metrics
     */
    static JmxBrokerSource open(String given, long timeoutMillis, int connectSeconds) throws IOException {
        JmxBrokerSource s;
        if (given.equals("local")) {
            s = new JmxBrokerSource(null, ManagementFactory.getPlatformMBeanServer());
        } else {
            boolean tls = tls(given);
            String spec = tls ? given.substring(TLS.length()) : given;
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
            if (tls) {
                // the registry over TLS (com.sun.management.jmxremote.registry.ssl=true); the connection itself uses
                // the socket factory the server's stub names. Both trust as the JDK does: javax.net.ssl.trustStore
                env.put("com.sun.jndi.rmi.factory.socket", new javax.rmi.ssl.SslRMIClientSocketFactory());
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
                if (tls && tlsFailure(cause)) {
                    throw new IOException("the TLS handshake failed: the worker must trust the broker's JMX certificate "
                            + "(-Djavax.net.ssl.trustStore=FILE in KBENCH_JAVA_OPTS on its host); "
                            + BrokerScraper.describe(cause), cause);
                }
                throw new IOException("no JMX server answered there (" + BrokerScraper.describe(cause) + ")"
                        + (tls ? "" : "; if the JMX port uses TLS, add --broker-jmx-tls"), cause);
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

    /** How a JMX source over TLS is written: this, then {@code [USER:PASSWORD@]HOST:PORT}. */
    static final String TLS = "jmx+tls://";

    /** Whether {@code spec} is a JMX source over TLS. */
    static boolean tls(String spec) {
        return spec.startsWith(TLS);
    }

    /** Whether {@code e} or a cause is a TLS failure (a certificate not trusted, a handshake refused). */
    private static boolean tlsFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException || t instanceof java.security.cert.CertificateException) {
                return true;
            }
        }
        return false;
    }

    /** The embedded brokers of this JVM at the first local read (their ids), null until then or when remote. */
    private Set<String> embeddedBrokers;
    /** Why the local figures stopped covering the cluster, for good; null while they do. */
    private String partial;

    /** The running totals and gauges, named for {@link #figures}. */
    @Override
    public Map<String, Double> read() throws IOException {
        try {
            if (connector == null) {
                checkEmbeddedBrokers();
            }
            return readAll();
        } catch (javax.management.JMException e) {
            throw new IOException(BrokerScraper.describe(e), e);
        }
    }

    /**
     * The embedded brokers (this JVM's) are all serving, or the read fails saying which is not: a stopped broker
     * leaves its request handler and network beans behind with counters that no longer move, which would read as
     * threads 0% idle. Several embedded brokers share one metrics registry, and a broker that stops removes the shared
     * meters for all of them: from then on (also after it is started again) what is left counts only some brokers, so
     * the figures end for the rest of the run. Each broker registers {@code kafka.server:type=app-info,id=ID}.
     */
    private void checkEmbeddedBrokers() throws IOException, javax.management.JMException {
        if (partial != null) {
            throw new IOException(partial);
        }
        Set<String> ids = new java.util.TreeSet<>();
        for (ObjectName n : names("kafka.server:type=app-info,id=*")) {
            ids.add(n.getKeyProperty("id"));
        }
        if (embeddedBrokers == null) {
            embeddedBrokers = ids;
            return;
        }
        if (ids.containsAll(embeddedBrokers)) {
            return;
        }
        Set<String> stopped = new java.util.TreeSet<>(embeddedBrokers);
        stopped.removeAll(ids);
        if (embeddedBrokers.size() > 1) {
            partial = "embedded broker(s) " + String.join(", ", stopped) + " stopped: the embedded brokers share one "
                    + "metrics registry and a stopping broker removes its shared meters, so no broker figures from then "
                    + "on";
            throw new IOException(partial);
        }
        throw new IOException("the embedded broker is stopped");
    }

    /** How long the names of the network processors' beans are reused before they are looked up again. */
    static final long NAMES_NANOS = 60_000_000_000L;
    private Set<ObjectName> processorNames;
    private long processorNamesAt;
    /**
     * Brokers in the JVM read (its {@code kafka.server:type=app-info,id=*} beans), looked up with the processors'
     * names: several brokers in one JVM (the embedded cluster, {@code kbench broker --nodes N}) share one metrics
     * registry, so their request handler pools all mark one idle meter, whose count is then their sum.
     */
    private int brokersInJvm = 1;

    /**
     * One call per MBean ({@code getAttributes} of the attributes read from it, 29 calls a read over RMI): the
     * requests are counted by their TotalTimeMs histogram (every completed request, whatever its version) rather
     * than by the per-version RequestsPerSec meters, and the network processors' bean names are looked up once a
     * minute, not every read.
     */
    private Map<String, Double> readAll() throws IOException, javax.management.JMException {
        Map<String, Double> r = new HashMap<>();
        for (Map.Entry<String, String> m : BrokerScraper.TOPIC_METERS.entrySet()) {
            put(r, "kafka.server:type=BrokerTopicMetrics,name=" + m.getKey(), "Count", m.getValue() + ".count");
        }
        // a combined broker+controller has a pool each; the broker's is what clients load
        if (!put(r, "kafka.server:type=KafkaRequestHandlerPool,name=BrokerRequestHandlerAvgIdlePercent", "Count",
                "handlerIdle.count")) {
            put(r, "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent", "Count",
                    "handlerIdle.count");
        }
        put(r, "kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent", "Value", "networkIdle");
        // each data-plane network processor's time waiting in select (idle), in ns, cumulative; the controller's
        // listener (by Kafka's convention named CONTROLLER) is not the clients'
        long now = System.nanoTime();
        if (processorNames == null || now - processorNamesAt > NAMES_NANOS) {
            Set<ObjectName> found = new java.util.HashSet<>();
            for (ObjectName n : names("kafka.server:type=socket-server-metrics,*")) {
                String listener = n.getKeyProperty("listener");
                if (n.getKeyProperty("networkProcessor") != null && listener != null
                        && !listener.toUpperCase(java.util.Locale.ROOT).contains("CONTROLLER")
                        && has(n, "io-wait-time-ns-total")) {
                    found.add(n);
                }
            }
            processorNames = found;
            processorNamesAt = now;
            brokersInJvm = Math.max(1, names("kafka.server:type=app-info,id=*").size());
        }
        r.put("handlerIdle.pools", (double) brokersInJvm);
        double wait = 0;
        int processors = 0;
        for (ObjectName n : processorNames) {
            Double v = attributes(n, "io-wait-time-ns-total").get("io-wait-time-ns-total");
            if (v != null) {
                wait += v;
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
                Map<String, Double> a = time.equals("TotalTimeMs")
                        ? attributes(new ObjectName(name), "Count", "Mean", "99thPercentile")
                        : attributes(new ObjectName(name), "Count", "Mean");
                copy(a, "Count", r, request + "." + time + ".count");
                copy(a, "Mean", r, request + "." + time + ".mean");
                copy(a, "99thPercentile", r, request + "." + time + ".p99");
            }
        }
        put(r, "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchFollower", "Count",
                "FetchFollower.TotalTimeMs.count");
        put(r, "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions", "Value", "urp");
        put(r, "kafka.server:type=ReplicaManager,name=IsrShrinksPerSec", "Count", "isrShrinks.count");
        put(r, "kafka.server:type=ReplicaManager,name=IsrExpandsPerSec", "Count", "isrExpands.count");
        Map<String, Double> flush = attributes(new ObjectName("kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs"),
                "Count", "Mean");
        copy(flush, "Count", r, "logFlush.count");
        copy(flush, "Mean", r, "logFlush.mean");
        Map<String, Double> os = attributes(new ObjectName("java.lang:type=OperatingSystem"), "ProcessCpuTime",
                "AvailableProcessors");
        copy(os, "ProcessCpuTime", r, "cpu.nanos");
        copy(os, "AvailableProcessors", r, "cpu.processors");
        Object heap = attribute("java.lang:type=Memory", "HeapMemoryUsage");
        if (heap instanceof javax.management.openmbean.CompositeData cd && cd.get("used") instanceof Number used) {
            r.put("heap.used", used.doubleValue());
        }
        return r;
    }

    private static void copy(Map<String, Double> from, String attribute, Map<String, Double> to, String key) {
        Double v = from.get(attribute);
        if (v != null) {
            to.put(key, v);
        }
    }

    /** The numeric, finite attributes of one MBean in one call; none when the MBean is not there. */
    private Map<String, Double> attributes(ObjectName name, String... attributes) throws IOException {
        Map<String, Double> out = new HashMap<>();
        try {
            for (javax.management.Attribute a : mbeans.getAttributes(name, attributes).asList()) {
                if (a.getValue() instanceof Number n && Double.isFinite(n.doubleValue())) {
                    out.put(a.getName(), n.doubleValue());
                }
            }
        } catch (javax.management.InstanceNotFoundException e) {
            // a broker version or role without it: its figures are left out
        } catch (javax.management.JMException e) {
            throw new IOException(BrokerScraper.describe(e), e);
        }
        return out;
    }

    /**
     * Whether the MBean has {@code attribute}: asked before reading an attribute of a Kafka-metrics bean, whose
     * attributes vary with the broker's version (io-wait-time-ns-total came with Kafka 3.1), because the broker
     * logs a warning with a stack trace for every attribute it is asked for and does not have.
     */
    private boolean has(ObjectName name, String attribute) throws IOException {
        try {
            for (javax.management.MBeanAttributeInfo a : mbeans.getMBeanInfo(name).getAttributes()) {
                if (a.getName().equals(attribute)) {
                    return true;
                }
            }
            return false;
        } catch (javax.management.InstanceNotFoundException e) {
            return false;
        } catch (javax.management.JMException e) {
            throw new IOException(BrokerScraper.describe(e), e);
        }
    }

    private Set<ObjectName> names(String pattern) throws IOException, javax.management.MalformedObjectNameException {
        return mbeans.queryNames(new ObjectName(pattern), null);
    }

    /** Reads one numeric attribute of {@code name} into {@code r} as {@code key}; false when it is not there. */
    private boolean put(Map<String, Double> r, String name, String attribute, String key) throws IOException {
        try {
            Double v = attributes(new ObjectName(name), attribute).get(attribute);
            if (v != null) {
                r.put(key, v);
                return true;
            }
            return false;
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
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
