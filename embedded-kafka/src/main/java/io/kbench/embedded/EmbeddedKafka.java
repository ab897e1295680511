package io.kbench.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka cluster in KRaft mode, running in this JVM — or each node in a JVM of its own
 * ({@link Builder#processPerNode}) — on loopback (or a given address), with its data in a temporary directory that
 * {@link #close()} removes.
 *
 * <p>Each node runs {@code process.roles=broker,controller} with a static voter set; the log directories
 * are formatted with Kafka's own storage tool before the servers start, and internal topics use a
 * replication factor that fits the node count. Nodes start and stop in parallel (stopping them one by one
 * takes minutes, because each waits for a controller quorum that is already going away).
 *
 * <p>Usage:
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(1).start()) {
 *     String bootstrap = kafka.bootstrapServers();
 *     ...
 * }
 * }</pre>
 *
 * <p>A fatal fault inside a Kafka server calls {@code Exit.halt}, which would kill the hosting JVM; while a
 * cluster runs in this JVM, halt and exit procedures are replaced by ones that log the fault and mark the cluster
 * failed (a node in a JVM of its own exits as a broker would, and {@link #fault} says so).
 * {@link #stopNode} and {@link #startNode} take one node down and bring it back (fault injection).
 * Thread-safety: {@link #start} is called once; {@link #stopNode}, {@link #startNode} and {@link #close} are
 * synchronized and may come from different threads.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    /** The SASL mechanism of {@link Builder#scramUser}'s listener. */
    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
    private static final String BROKER_USER = "kbench-broker";

    private final Path dir;
    private final String host;
    private final Map<String, String> clientConfig;
    private final List<Node> nodes;
    private final java.util.Set<Integer> stopped = new java.util.HashSet<>();
    private volatile String fault;
    private boolean closed;

    /** A node: its server in this JVM, or its JVM ({@link Builder#processPerNode}); exactly one is set. */
    private record Node(int id, int port, int controllerPort, Properties config, Path propertiesFile,
                        KafkaRaftServer server, NodeChild child) {
        void shutdown() {
            if (child != null) {
                if (!child.stop(STOP_MILLIS)) {
                    LOG.warn("embedded Kafka: node {} did not stop in order within {} s; killed", id, STOP_MILLIS / 1000);
                }
            } else {
                server.shutdown();
                server.awaitShutdown();
            }
        }
    }

    /** Longest a node in a process of its own takes to stop in order before it is killed. */
    private static final long STOP_MILLIS = 60_000;
    /** The main class of nodes in processes of their own; null: the nodes run in this JVM. */
    private final String nodeMain;

    private EmbeddedKafka(Path dir, String host, List<Node> nodes, Map<String, String> clientConfig, String nodeMain) {
        this.dir = dir;
        this.nodeMain = nodeMain;
        this.host = host;
        this.nodes = nodes;
        this.clientConfig = Map.copyOf(clientConfig);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Options of an embedded cluster; every setter returns this builder. */
    public static final class Builder {
        private int nodes = 1;
        private String host = "127.0.0.1";
        private int port = 0;
        private final Properties overrides = new Properties();
        private String scramUser;
        private String scramPassword;
        private String brokerPassword;
        private String nodeMain;

        /** Number of combined broker+controller nodes (1 to 9). */
        public Builder nodes(int count) {
            if (count < 1 || count > 9) {
                throw new IllegalArgumentException("nodes must be 1..9, got " + count);
            }
            this.nodes = count;
            return this;
        }

        /** Address the listeners bind to and advertise; loopback by default. */
        public Builder host(String address) {
            this.host = address;
            return this;
        }

        /** Client port of the first node (the next nodes use free ports); 0 picks a free port. */
        public Builder port(int clientPort) {
            this.port = clientPort;
            return this;
        }

        /**
         * Serve clients over SASL_PLAINTEXT with {@value #SCRAM_MECHANISM} only, and create this user's
         * credentials when the storage is formatted (brokers talk to each other as a user of their own). The
         * controller listener stays plaintext. {@link #clientConfig()} holds what a client needs.
         */
        public Builder scramUser(String user, String password) {
            this.scramUser = user;
            this.scramPassword = password;
            this.brokerPassword = Uuid.randomUuid().toString();
            return this;
        }

        /**
         * Runs each node in a JVM of its own ({@link NodeProcess}), started with {@code mainClass} ({@code NodeProcess}
         * or a main that calls {@link NodeProcess#serve}) on this JVM's class path, with Kafka's own broker heap and
         * collector settings: each broker then has its own metrics registry ({@link EmbeddedKafka#figures}), heap and
         * CPU, as in a real cluster, where brokers in one JVM share Kafka's metrics registry and read as one. The nodes
         * stop when this JVM is gone, even killed.
         */
        public Builder processPerNode(String mainClass) {
            this.nodeMain = java.util.Objects.requireNonNull(mainClass);
            return this;
        }

        /** A broker config applied to every node, overriding kbench's defaults. */
        public Builder config(String key, String value) {
            overrides.setProperty(key, value);
            return this;
        }

        /**
         * Formats the storage, starts every node and waits until all are registered and serving. A port found free
         * can be taken before the broker binds it (by any process's outgoing connection): with the ports its own to
         * pick, it then starts again with others, at most 3 times in all.
         */
        public EmbeddedKafka start() {
            for (int attempt = 1; ; attempt++) {
                try {
                    return EmbeddedKafka.start(this);
                } catch (IllegalStateException e) {
                    if (port != 0 || attempt == 3 || !bindFailure(e)) {
                        throw e;
                    }
                    LOG.warn("embedded Kafka: a port was taken before the broker could bind it; starting again with "
                            + "other ports");
                }
            }
        }

        private static boolean bindFailure(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof java.net.BindException) {
                    return true;
                }
            }
            return false;
        }
    }

    private static EmbeddedKafka start(Builder b) {
        Path dir;
        try {
            dir = Files.createTempDirectory("kbench-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for the embedded broker", e);
        }
        Map<String, String> clients = new LinkedHashMap<>();
        if (b.scramUser != null) {
            clients.put("security.protocol", "SASL_PLAINTEXT");
            clients.put("sasl.mechanism", SCRAM_MECHANISM);
            clients.put("sasl.jaas.config", NodeConfigs.jaas(b.scramUser, b.scramPassword));
        }
        EmbeddedKafka kafka = new EmbeddedKafka(dir, b.host, new java.util.concurrent.CopyOnWriteArrayList<>(), clients,
                b.nodeMain);
        try {
            List<int[]> ports = new ArrayList<>();
            // every listener a port of its own: a free port the OS hands out can be the one asked for (--port), which
            // is not bound until the node starts ("two listeners on the same port" then stops it)
            java.util.Set<Integer> taken = new java.util.HashSet<>();
            if (b.port != 0) {
                taken.add(b.port);
            }
            for (int i = 0; i < b.nodes; i++) {
                int client = (i == 0 && b.port != 0) ? b.port : freePort(b.host, taken);
                ports.add(new int[] {client, freePort(b.host, taken)});
            }
            StringBuilder voters = new StringBuilder();
            for (int i = 0; i < b.nodes; i++) {
                voters.append(i == 0 ? "" : ",").append(i + 1).append('@').append(b.host).append(':').append(ports.get(i)[1]);
            }
            String clusterId = Uuid.randomUuid().toString();
            short rf = (short) Math.min(3, b.nodes);
            if (b.nodeMain == null) {
                kafka.installExitGuards();
            }
            List<CompletableFuture<Node>> starting = new ArrayList<>();
            for (int i = 0; i < b.nodes; i++) {
                int nodeId = i + 1;
                int[] p = ports.get(i);
                Properties props = NodeConfigs.plaintext(dir.resolve("node-" + nodeId), b.host, nodeId, p[0], p[1], voters.toString(), rf);
                List<String> scram = b.scramUser == null ? List.of() : NodeConfigs.scram(props, b.host, p[0], p[1],
                        BROKER_USER, b.brokerPassword, b.scramUser, b.scramPassword);
                props.putAll(b.overrides);
                Path file = dir.resolve("node-" + nodeId + ".properties");
                NodeConfigs.format(file, props, clusterId, scram);
                if (b.nodeMain != null) {
                    // every JVM starts at once; the nodes are waited for below
                    kafka.nodes.add(new Node(nodeId, p[0], p[1], props, file, null, NodeChild.start(nodeId, file, b.nodeMain)));
                    continue;
                }
                starting.add(CompletableFuture.supplyAsync(() -> {
                    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM);
                    server.startup();
                    return new Node(nodeId, p[0], p[1], props, file, server, null);
                }));
            }
            for (CompletableFuture<Node> f : starting) {
                kafka.nodes.add(f.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            }
            for (Node n : kafka.nodes) {
                if (n.child() != null) {
                    n.child().awaitReady(READY_TIMEOUT.toMillis());
                }
            }
            kafka.awaitReady();
            LOG.info("embedded Kafka ({} node(s)) ready at {}", b.nodes, kafka.bootstrapServers());
            return kafka;
        } catch (Exception | LinkageError e) {
            for (Node n : kafka.nodes) {
                if (n.child() != null) {
                    n.child().kill(); // a cluster that did not start is not stopped in order
                }
            }
            kafka.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("embedded Kafka failed to start: " + rootMessage(e), e);
        }
    }

    private void awaitReady() throws Exception {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.putAll(clientConfig);
        try (Admin admin = Admin.create(p)) {
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            while (true) {
                try {
                    int seen = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
                    if (seen == nodes.size()) {
                        return;
                    }
                } catch (Exception retry) {
                    if (System.nanoTime() > deadline) {
                        throw retry;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not all nodes registered within " + READY_TIMEOUT);
                }
                if (fault != null) {
                    throw new IllegalStateException(fault);
                }
                Thread.sleep(100);
            }
        }
    }

    private void installExitGuards() {
        Exit.Procedure guard = (code, message) -> {
            fault = "Kafka server requested exit " + code + (message == null ? "" : ": " + message);
            LOG.error("embedded Kafka: {} (the hosting JVM keeps running)", fault);
        };
        Exit.setHaltProcedure(guard);
        Exit.setExitProcedure(guard);
    }

    /**
     * Comma-separated {@code host:port} list of every node's client listener; an IPv6 address in brackets
     * ({@code [::1]:9092}), as a client's and kbench's own {@code --bootstrap-servers} take it.
     */
    public String bootstrapServers() {
        return nodes.stream().sorted(Comparator.comparingInt(Node::id))
                .map(n -> hostPort(host, n.port())).collect(Collectors.joining(","));
    }

    /** {@code host:port}, an IPv6 address in brackets. */
    static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * What a client needs besides bootstrap servers: empty for the plaintext default; with
     * {@link Builder#scramUser}, {@code security.protocol}, {@code sasl.mechanism} and {@code sasl.jaas.config}
     * (which holds the password).
     */
    public Map<String, String> clientConfig() {
        return clientConfig;
    }

    /** Number of nodes. */
    public int size() {
        return nodes.size();
    }

    /** The temporary directory holding every node's data; gone after {@link #close()}. */
    public Path directory() {
        return dir;
    }

    /**
     * Shuts node {@code id} (1-based) down and waits until it has stopped; the other nodes keep serving
     * (with 3 or more nodes the controller quorum survives one). Its data stays for {@link #startNode}.
     *
     * @throws IllegalArgumentException for an unknown id; IllegalStateException if it is already stopped
     */
    public synchronized void stopNode(int id) {
        Node n = node(id);
        if (!stopped.add(id)) {
            throw new IllegalStateException("broker " + id + " is already stopped");
        }
        LOG.info("embedded Kafka: stopping node {}", id);
        n.shutdown();
    }

    /**
     * Starts the stopped node {@code id} again on its old data, id and ports, and waits until the cluster
     * sees every node registered again.
     *
     * @throws IllegalArgumentException for an unknown id; IllegalStateException if it is running or does not
     *                                  come back within the ready timeout
     */
    public synchronized void startNode(int id) {
        Node n = node(id);
        if (!stopped.contains(id)) {
            throw new IllegalStateException("broker " + id + " is not stopped");
        }
        LOG.info("embedded Kafka: starting node {} again", id);
        try {
            if (n.child() != null) {
                long t0 = System.nanoTime();
                NodeChild child = NodeChild.start(id, n.propertiesFile(), nodeMain);
                nodes.set(nodes.indexOf(n), new Node(id, n.port(), n.controllerPort(), n.config(), n.propertiesFile(), null, child));
                stopped.remove(id);
                child.awaitReady(READY_TIMEOUT.toMillis());
                LOG.info("embedded Kafka: node {}'s JVM serves after {} ms", id, (System.nanoTime() - t0) / 1_000_000);
            } else {
                KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(n.config(), false), Time.SYSTEM);
                server.startup();
                nodes.set(nodes.indexOf(n), new Node(id, n.port(), n.controllerPort(), n.config(), n.propertiesFile(), server, null));
                stopped.remove(id);
            }
            awaitReady();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("broker " + id + " did not rejoin: " + rootMessage(e), e);
        }
    }

    private Node node(int id) {
        for (Node n : nodes) {
            if (n.id() == id) {
                return n;
            }
        }
        throw new IllegalArgumentException("no broker " + id + " (this cluster has 1 to " + nodes.size() + ")");
    }

    /**
     * A fatal fault a server reported, or null. A node in a process of its own that exited without being stopped is
     * one too.
     */
    public synchronized String fault() {
        if (fault == null && !closed) {
            for (Node n : nodes) {
                if (n.child() != null && !stopped.contains(n.id()) && !n.child().alive()) {
                    return "broker " + n.id() + "'s process exited with code " + n.child().exitCode();
                }
            }
        }
        return fault;
    }

    /** Whether each node runs in a process of its own ({@link Builder#processPerNode}). */
    public boolean processPerNode() {
        return nodeMain != null;
    }

    /**
     * Node {@code id}'s own metrics, as its {@link NodeProcess} reads them, within {@code timeoutMillis}: running
     * totals and gauges by name. Not synchronized: it does not wait behind a node stopping or starting.
     *
     * @throws IOException when the node is stopped, does not answer or cannot read them
     * @throws IllegalStateException when the nodes run in this JVM (they share one registry: read this JVM's MBeans)
     */
    public Map<String, Double> figures(int id, long timeoutMillis) throws IOException {
        if (nodeMain == null) {
            throw new IllegalStateException("the nodes run in this JVM: read its MBeans");
        }
        return node(id).child().figures(timeoutMillis); // nodes is copy-on-write: read without the lock
    }

    /** The process ids of the nodes running in processes of their own (none when they run in this JVM). */
    public synchronized List<Long> nodePids() {
        List<Long> pids = new ArrayList<>();
        for (Node n : nodes) {
            if (n.child() != null && n.child().alive()) {
                pids.add(n.child().pid());
            }
        }
        return pids;
    }

    /**
     * Stops every node (in parallel) and deletes the data directory. Idempotent. Nodes in JVMs of their own are ended
     * rather than shut down in order: their data goes with them, and a node whose controlled shutdown starts after
     * the others' waits for a controller quorum that is gone (seen: a minute, until killed).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Node> running = nodes.stream().filter(n -> !stopped.contains(n.id())).toList();
        if (nodeMain == null && running.size() > 1) {
            closeInOrder(running);
        } else {
            awaitAll(running.stream().map(n -> CompletableFuture.runAsync(n.child() != null ? n.child()::end
                    : n::shutdown)).toList());
        }
        for (Node n : nodes) {
            if (n.child() != null && n.child().alive()) {
                n.child().kill(); // one that did not stop within the wait: nothing outlives the cluster
            }
        }
        deleteRecursively(dir);
        if (nodeMain == null) {
            Exit.resetHaltProcedure();
            Exit.resetExitProcedure();
        }
    }

    /**
     * Stops the in-JVM nodes of a cluster of several: every broker first, all at once, while the controller quorum is
     * whole, then every node. Each broker's controlled shutdown needs an active controller; stopped together as whole
     * nodes, a broker whose node's controller was among the last could be left without a quorum and wait for one up to
     * Kafka's 5 minutes: a close of 3 nodes hung 60 s, until this class's bound, in a suite run of 2026-11-29 (the
     * last node's broker heartbeating into no controller). The controllers still take about 5 s: the quorum's last
     * leader waits out the raft client's graceful shutdown (a fixed 5 s) for followers that are gone — stopping them
     * one at a time, leader first, only moved the wait to the next leader. Where the brokers cannot be reached (a
     * Kafka whose KafkaRaftServer is laid out otherwise) every node stops at once, as before.
     */
    private void closeInOrder(List<Node> running) {
        List<kafka.server.KafkaBroker> brokers = running.stream().map(n -> brokerOf(n.server())).toList();
        if (!brokers.contains(null)) {
            awaitAll(brokers.stream().map(b -> CompletableFuture.runAsync(() -> {
                b.shutdown();
                b.awaitShutdown();
            })).toList());
        }
        awaitAll(running.stream().map(n -> CompletableFuture.runAsync(n::shutdown)).toList());
    }

    /** The broker half of a combined node (a private field of Kafka's KafkaRaftServer), or null where it cannot be read. */
    private static kafka.server.KafkaBroker brokerOf(KafkaRaftServer server) {
        try {
            java.lang.reflect.Field f = KafkaRaftServer.class.getDeclaredField("broker");
            f.setAccessible(true);
            scala.Option<?> broker = (scala.Option<?>) f.get(server);
            return broker.isDefined() ? (kafka.server.KafkaBroker) broker.get() : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static void awaitAll(List<CompletableFuture<Void>> stopping) {
        for (CompletableFuture<Void> f : stopping) {
            try {
                f.get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("embedded Kafka node did not stop cleanly: {}", rootMessage(e));
            }
        }
    }

    /** A free port on {@code host} not among {@code taken}, which it joins. */
    static int freePort(String host, java.util.Set<Integer> taken) {
        return freePort(() -> freePort(host), taken);
    }

    /** The first port {@code free} offers that is not among {@code taken} (at most 100 asked), which it joins. */
    static int freePort(java.util.function.IntSupplier free, java.util.Set<Integer> taken) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = free.getAsInt();
            if (taken.add(port)) {
                return port;
            }
        }
        throw new UncheckedIOException(new IOException("no free port apart from " + taken));
    }

    private static int freePort(String host) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + host, e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", root, e.getMessage());
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
