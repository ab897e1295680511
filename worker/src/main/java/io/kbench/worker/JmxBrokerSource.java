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
     * with the run, so it turns that off unless the user set it: a thousand years ({@link #DGC_NEVER}).
     */
    static final String DGC_INTERVAL = "sun.rmi.dgc.client.gcInterval";

    /**
     * "Never" as RMI's client takes it. Not {@code Long.MAX_VALUE}, what tuning guides give: the JDK's RMI client
     * holds that value for a request already cancelled, and once the last remote reference of a closed connection is
     * collected its "RMI RenewClean" thread dies printing "IllegalStateException: Request already cancelled" and a
     * stack trace on the console (JmxRmiCleanupTest). A user's {@code Long.MAX_VALUE} becomes this, which means the
     * same.
     */
    static final long DGC_NEVER = java.util.concurrent.TimeUnit.DAYS.toMillis(365L * 1000);

    static {
        String given = System.getProperty(DGC_INTERVAL);
        if (given == null || given.strip().equals(Long.toString(Long.MAX_VALUE))) {
            System.setProperty(DGC_INTERVAL, Long.toString(DGC_NEVER));
        }
    }

    /**
     * The JDK's RMI client (Java serialization, RMI's transport, the JMX connector over it), which only a JMX source
     * over RMI runs in a worker. A connection read once a second makes these hot enough for C2, the optimising
     * compiler, which then spends about 4-6 s of CPU in a run's first minute compiling Java serialization
     * (docs/performance.md): on the client host's cores, beside the producers. Compiled by C1 alone, a read costs a
     * little more once warm (back to back 3.1-3.4 ms of CPU against 2.1-3.0 ms) and the first minute about a third
     * ({@code BrokerReadCost}, one read a second, reads 1-60: 15-23 ms a read against 52-68 ms). Nothing else a
     * worker runs uses these classes: the Kafka clients, gRPC and the embedded brokers' own MBeans (read in-process,
     * {@code local}) do not.
     * {@code -Dkbench.jmx.c1Only=false} (KBENCH_JAVA_OPTS) leaves the JIT as it is, for a side-by-side measurement
     * ({@code benchmarks/scrape-cost.sh --jmx-c2}).
     */
    static final String C1_ONLY_DIRECTIVE = "[{match: [\"java/io/Object*.*\", \"java/rmi/*.*\", \"sun/rmi/*.*\", "
            + "\"javax/management/remote/*.*\", \"com/sun/jmx/remote/*.*\"], c2: {Exclude: true}}]";
    static final String C1_ONLY_PROPERTY = "kbench.jmx.c1Only";
    private static final java.util.concurrent.atomic.AtomicBoolean C1_ONLY = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Adds {@link #C1_ONLY_DIRECTIVE} to this JVM's compiler directives (as {@code jcmd PID Compiler.directives_add}
     * would), once; returns what the JVM answered, or why it could not be asked (a JVM without HotSpot's diagnostic
     * commands, a temporary directory that cannot be written): the source then works as before.
     */
    static String compileRmiWithC1Only() {
        if ("false".equalsIgnoreCase(System.getProperty(C1_ONLY_PROPERTY, "").strip())) {
            return "not added: " + C1_ONLY_PROPERTY + "=false";
        }
        if (!C1_ONLY.compareAndSet(false, true)) {
            return "added before";
        }
        java.nio.file.Path file = null;
        try {
            file = java.nio.file.Files.createTempFile("kbench-rmi-c1-", ".json");
            java.nio.file.Files.writeString(file, C1_ONLY_DIRECTIVE);
            Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
                    name("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                    new Object[] {new String[] {file.toString()}}, new String[] {String[].class.getName()});
            return String.valueOf(answer).strip();
        } catch (IOException | javax.management.JMException | RuntimeException e) {
            return "not added: " + BrokerScraper.describe(e);
        } finally {
            if (file != null) {
                try {
                    java.nio.file.Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temporary file of a few bytes
                }
            }
        }
    }

    /**
     * Reads made back to back once a JVM's first JMX source over RMI is opened, while the run is prepared: the RMI
     * client's first reads, interpreted and then compiled, are what a run's first minute of reading cost a worker
     * (docs/performance.md). Paced at one a second, as a run reads, the first 60 reads cost the reader 19.5 and 11.3
     * ms of CPU each without these reads and 9.6 and 9.0 ms after 30 of them (two runs, the readers side by side:
     * {@code BrokerReadCost ... 60 1000 WARM}); 100 did no better (10.6). They cost the worker about half a second of
     * CPU and the broker about as much, and the prepare about a second, before any load starts.
     * {@code -Dkbench.jmx.warmReads=0} (KBENCH_JAVA_OPTS) leaves them out, for a side-by-side measurement ({@code
     * benchmarks/scrape-cost.sh --jmx-cold}).
     */
    static final int WARM_READS = 30;
    static final String WARM_READS_PROPERTY = "kbench.jmx.warmReads";
    /** The warm-up reads stop after this long, whatever their number: a slow broker does not hold up the prepare. */
    static final long WARM_MILLIS = 2_000;
    private static final java.util.concurrent.atomic.AtomicBoolean WARMED = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The {@link #WARM_READS} reads, back to back, if this is the JVM's first JMX source over RMI to make them; how many
     * were made. A read that fails ends them: the run's own reads report the source.
     */
    int warmOnce(long nanosNow, java.util.function.LongSupplier nanos) {
        int reads = Integer.getInteger(WARM_READS_PROPERTY, WARM_READS);
        if (connector == null || reads <= 0 || !WARMED.compareAndSet(false, true)) {
            return 0;
        }
        return warm(reads, nanosNow, nanos);
    }

    /** Up to {@code reads} reads back to back, for at most {@link #WARM_MILLIS} from {@code nanosNow}; how many were made. */
    int warm(int reads, long nanosNow, java.util.function.LongSupplier nanos) {
        long end = nanosNow + WARM_MILLIS * 1_000_000;
        int n = 0;
        try {
            while (n < reads && nanos.getAsLong() - end < 0) {
                read();
                n++;
            }
        } catch (IOException | RuntimeException e) {
            // the run reads it again each interval, and says so when it cannot
        }
        return n;
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
            compileRmiWithC1Only();
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
        if (s.mbeans.queryNames(name("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), null).isEmpty()) {
            s.close();
            throw new IOException("no Kafka broker metrics there (kafka.server:type=BrokerTopicMetrics)");
        }
        s.warmOnce(System.nanoTime(), System::nanoTime);
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
        for (ObjectName n : mbeans.queryNames(BROKERS, null)) {
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
     * One MBean read in one call: its name and attributes, and the figure each attribute becomes. Built once, so a
     * read parses no names and builds no arrays: the JIT then compiles less of JMX for a source read once a second
     * (the parsing of 26 names a read was among the costliest compilations of a run's first minute,
     * docs/performance.md), and a compiled read does less.
     */
    private record Read(ObjectName name, String[] attributes, String[] keys) {
        static Read of(String name, String... attributesAndKeys) {
            String[] attributes = new String[attributesAndKeys.length / 2];
            String[] keys = new String[attributes.length];
            for (int i = 0; i < attributes.length; i++) {
                attributes[i] = attributesAndKeys[2 * i];
                keys[i] = attributesAndKeys[2 * i + 1];
            }
            return new Read(JmxBrokerSource.name(name), attributes, keys);
        }
    }

    /** One of the bean names (or patterns) written in this class. */
    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A combined broker+controller has a request handler pool each; the broker's is what clients load. */
    private static final Read BROKER_HANDLER_IDLE = Read.of(
            "kafka.server:type=KafkaRequestHandlerPool,name=BrokerRequestHandlerAvgIdlePercent", "Count", "handlerIdle.count");
    private static final Read HANDLER_IDLE = Read.of(
            "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent", "Count", "handlerIdle.count");
    private static final ObjectName MEMORY = name("java.lang:type=Memory");
    private static final ObjectName PROCESSORS = name("kafka.server:type=socket-server-metrics,*");
    private static final ObjectName BROKERS = name("kafka.server:type=app-info,id=*");
    private static final String[] IO_WAIT = {"io-wait-time-ns-total"};

    /** Every read but the handler pool's (which has a fallback), the processors' and the heap's, in their order. */
    private static final List<Read> READS = reads();

    private static List<Read> reads() {
        List<Read> reads = new java.util.ArrayList<>();
        for (Map.Entry<String, String> m : BrokerScraper.TOPIC_METERS.entrySet()) {
            reads.add(Read.of("kafka.server:type=BrokerTopicMetrics,name=" + m.getKey(), "Count", m.getValue() + ".count"));
        }
        reads.add(Read.of("kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent", "Value", "networkIdle"));
        for (String request : List.of("Produce", "FetchConsumer")) {
            for (String time : BrokerScraper.TIMES.keySet()) {
                String name = "kafka.network:type=RequestMetrics,name=" + time + ",request=" + request;
                String key = request + "." + time;
                reads.add(time.equals("TotalTimeMs")
                        ? Read.of(name, "Count", key + ".count", "Mean", key + ".mean", "99thPercentile", key + ".p99")
                        : Read.of(name, "Count", key + ".count", "Mean", key + ".mean"));
            }
        }
        reads.add(Read.of("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchFollower", "Count",
                "FetchFollower.TotalTimeMs.count"));
        reads.add(Read.of("kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions", "Value", "urp"));
        reads.add(Read.of("kafka.server:type=ReplicaManager,name=UnderMinIsrPartitionCount", "Value", "underMinIsr"));
        reads.add(Read.of("kafka.server:type=ReplicaManager,name=IsrShrinksPerSec", "Count", "isrShrinks.count"));
        reads.add(Read.of("kafka.server:type=ReplicaManager,name=IsrExpandsPerSec", "Count", "isrExpands.count"));
        reads.add(Read.of("kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs", "Count", "logFlush.count", "Mean",
                "logFlush.mean"));
        reads.add(Read.of("java.lang:type=OperatingSystem", "ProcessCpuTime", "cpu.nanos", "AvailableProcessors",
                "cpu.processors"));
        return List.copyOf(reads);
    }

    /**
     * One call per MBean ({@code getAttributes} of the attributes read from it, 30 calls a read over RMI): the
     * requests are counted by their TotalTimeMs histogram (every completed request, whatever its version) rather
     * than by the per-version RequestsPerSec meters, and the network processors' bean names are looked up once a
     * minute, not every read (whether a processor's bean has its idle attribute is asked once per bean).
     */
    private Map<String, Double> readAll() throws IOException, javax.management.JMException {
        Map<String, Double> r = new HashMap<>();
        if (!read(BROKER_HANDLER_IDLE, r)) {
            read(HANDLER_IDLE, r);
        }
        for (Read read : READS) {
            read(read, r);
        }
        // each data-plane network processor's time waiting in select (idle), in ns, cumulative; the controller's
        // listener (by Kafka's convention named CONTROLLER) is not the clients'
        long now = System.nanoTime();
        if (processorNames == null || now - processorNamesAt > NAMES_NANOS) {
            Set<ObjectName> found = new java.util.HashSet<>();
            for (ObjectName n : mbeans.queryNames(PROCESSORS, null)) {
                String listener = n.getKeyProperty("listener");
                if (n.getKeyProperty("networkProcessor") != null && listener != null
                        && !listener.toUpperCase(java.util.Locale.ROOT).contains("CONTROLLER")
                        && (processorNames != null && processorNames.contains(n) || has(n, IO_WAIT[0]))) {
                    found.add(n);
                }
            }
            processorNames = found;
            processorNamesAt = now;
            brokersInJvm = Math.max(1, mbeans.queryNames(BROKERS, null).size());
        }
        r.put("handlerIdle.pools", (double) brokersInJvm);
        double wait = 0;
        int processors = 0;
        for (ObjectName n : processorNames) {
            Double v = number(n, IO_WAIT);
            if (v != null) {
                wait += v;
                processors++;
            }
        }
        if (processors > 0) {
            r.put("networkWait.nanos", wait);
            r.put("networkWait.processors", (double) processors);
        }
        Object heap = attribute(MEMORY, "HeapMemoryUsage");
        if (heap instanceof javax.management.openmbean.CompositeData cd && cd.get("used") instanceof Number used) {
            r.put("heap.used", used.doubleValue());
        }
        return r;
    }

    /**
     * Reads the numeric, finite attributes of one MBean in one call into {@code r}, each as its key; false when the
     * MBean is not there (a broker version or role without it: its figures are left out).
     */
    private boolean read(Read read, Map<String, Double> r) throws IOException {
        try {
            for (javax.management.Attribute a : mbeans.getAttributes(read.name(), read.attributes()).asList()) {
                if (a.getValue() instanceof Number n && Double.isFinite(n.doubleValue())) {
                    String name = a.getName();
                    for (int i = 0; i < read.attributes().length; i++) {
                        if (read.attributes()[i].equals(name)) {
                            r.put(read.keys()[i], n.doubleValue());
                        }
                    }
                }
            }
            return true;
        } catch (javax.management.InstanceNotFoundException e) {
            return false;
        } catch (javax.management.JMException e) {
            throw new IOException(BrokerScraper.describe(e), e);
        }
    }

    /** The one numeric, finite attribute of {@code name}, null when it or the MBean is not there. */
    private Double number(ObjectName name, String[] attribute) throws IOException {
        try {
            for (javax.management.Attribute a : mbeans.getAttributes(name, attribute).asList()) {
                if (a.getValue() instanceof Number n && Double.isFinite(n.doubleValue())) {
                    return n.doubleValue();
                }
            }
            return null;
        } catch (javax.management.InstanceNotFoundException e) {
            return null;
        } catch (javax.management.JMException e) {
            throw new IOException(BrokerScraper.describe(e), e);
        }
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

    private Object attribute(ObjectName name, String attribute) throws IOException {
        try {
            return mbeans.getAttribute(name, attribute);
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
