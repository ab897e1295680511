package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.ClusterToken;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures of separate hosts: two workers and the coordinator each in a network namespace of their own (its
 * own address, reached over a bridge), the broker in the root namespace. Workers run as they would in
 * production: cluster token and TLS. A worker is killed or cut off mid-run, the coordinator is killed or cut
 * off mid-run, a second coordinator tries to take busy workers, and the broker cannot be reached at all.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class NetnsFailuresIT {
    private static final int PORT = 7070;
    private static final int PARTITIONS = 4;

    @TempDir
    static Path dir;
    static TestNetwork net;
    static EmbeddedKafka kafka;
    static Path token;
    static TestCertificates ca;
    static TestCertificates.Pem workerCert;
    /** The two workers' processes, kept from test to test while they live (a JVM start each is suite time). */
    static KbenchProcesses workerProcs;
    static final Process[] workers = new Process[2];
    static int launched;

    private KbenchProcesses procs;
    private String topic;

    @BeforeAll
    static void hosts() throws Exception {
        TestNetwork.assumeAvailable(NetnsFailuresIT.class);
        net = TestNetwork.create("coord", "w1", "w2");
        kafka = EmbeddedKafka.builder().host(net.hostAddress()).start();
        token = dir.resolve("token");
        Files.writeString(token, "netns-test-token-0123456789abcdef\n");
        ca = TestCertificates.authority(dir, "netns");
        workerCert = ca.issue("workers", List.of(net.address("w1"), net.address("w2")), List.of());
    }

    @AfterAll
    static void removeHosts() throws Exception {
        if (workerProcs != null) {
            workerProcs.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (net != null) {
            net.close();
        }
    }

    @BeforeEach
    void processes(TestInfo test) throws IOException {
        String name = test.getTestMethod().orElseThrow().getName();
        procs = new KbenchProcesses("netns-" + name);
        topic = "netns-" + Integer.toHexString(name.hashCode());
    }

    @AfterEach
    void stopProcesses() throws Exception {
        procs.close();
        net.restore("coord");
        net.restore("w1");
        net.restore("w2");
    }

    @Test
    void shouldStopTheOtherWorkerAndKeepPartialResultsWhenAWorkerIsKilled() throws Exception {
        // the kernel resets the killed process's connections: noticed at once
        loseWorkerMidRun("killed-worker", 3, 5, w2 -> w2.destroyForcibly());
    }

    @Test
    void shouldStopTheOtherWorkerWhenAWorkerIsCutOff() throws Exception {
        // a silent worker: its snapshots stop, and after two intervals and 2 s (4 s) it counts as lost
        Process w2 = loseWorkerMidRun("cut-worker", 6, 8, p -> net.cut("w2"));
        // the cut-off worker lost its lease too: once reachable again it is idle
        net.restore("w2");
        assertIdle("w2", w2);
    }

    @Test
    void shouldRunOnEveryWorkerBehindOneDnsName() throws Exception {
        // inside the coordinator's host one name stands for both workers, as a headless Service's DNS answers
        String name = "kbench-workers.bench.svc";
        net.hostsFile("coord", "127.0.0.1 localhost\n" + net.address("w1") + " " + name + "\n" + net.address("w2")
                + " " + name + "\n");
        startWorkers();
        Path workload = Files.writeString(dir.resolve("dns-" + topic + ".yaml"), "name: dns\ntopicNames: [" + topic
                + "]\npartitionsPerTopic: 4\nmessageSize: 100\nproducersPerTopic: 2\nconsumersPerSubscription: 2\n"
                + "producerRate: 1000\nwarmupSeconds: 1\ndurationSeconds: 3\n");
        Path out = dir.resolve("dns");
        Process c = procs.startIn(net.inside("coord"), "dns", "run", "--workers", "dns:///" + name + ":" + PORT,
                "--token-file", token.toString(), "--tls", "--tls-ca", ca.caFile().toString(), "--bootstrap-servers",
                kafka.bootstrapServers(), "--output", out.toString(), workload.toString());
        assertTrue(c.waitFor(120, TimeUnit.SECONDS), "coordinator did not finish");
        assertEquals(0, c.exitValue(), () -> output("dns"));
        List<String> expected = java.util.stream.Stream.of(net.address("w1"), net.address("w2")).sorted()
                .map(a -> a + ":" + PORT).toList();
        assertTrue(procs.output("dns").contains("workers: dns:///" + name + ":" + PORT + " -> 2 address(es): "
                + String.join(", ", expected)), () -> output("dns"));
        JsonNode workers = new ObjectMapper().readTree(out.resolve("result.json").toFile()).get("workers");
        assertEquals(2, workers.size());
        for (JsonNode w : workers) {
            assertTrue(expected.contains(w.get("address").asText()), workers.toString());
            assertTrue(w.get("acked").asLong() > 0, "each worker ran its share: " + workers);
        }
    }

    /**
     * Runs two workers, takes w2 away with {@code loss} once the run is under way, and checks that the
     * coordinator says so within {@code noticeSeconds}, that nothing is written to the topic later than
     * {@code loadSeconds} after the loss, and that result.json keeps what was gathered and names w2.
     */
    private Process loseWorkerMidRun(String name, double noticeSeconds, double loadSeconds, Loss loss)
            throws Exception {
        Process[] workers = startWorkers();
        Process w1 = workers[0];
        Process w2 = workers[1];
        Path out = dir.resolve(name);
        Process coordinator = startCoordinator("coordinator", out, 60);
        awaitProgressLines("coordinator", coordinator, 4);
        try (OffsetWatch watch = new OffsetWatch(topic)) {
            long lostAt = System.nanoTime();
            loss.apply(w2);
            double noticed = secondsUntil("coordinator", "run failed: ", lostAt);
            assertTrue(noticed < noticeSeconds, "the coordinator noticed the loss after " + noticed + " s");
            assertTrue(coordinator.waitFor(60, TimeUnit.SECONDS), "coordinator still running 60 s after the loss");
            double finished = (System.nanoTime() - lostAt) / 1e9;
            assertTrue(finished < 30, "the coordinator took " + finished + " s to finish");
            assertEquals(1, coordinator.exitValue(), output("coordinator"));
            Thread.sleep(3_000);
            double lastWrite = watch.lastChangeAfter(lostAt);
            System.out.printf("%s: noticed after %.2f s, last write to the topic %.2f s after the loss, "
                    + "coordinator done after %.2f s%n", name, noticed, lastWrite, finished);
            assertTrue(lastWrite < loadSeconds, "load went on " + lastWrite + " s after the loss");

            JsonNode result = result(out);
            assertEquals("FAILED", result.get("status").asText());
            assertTrue(result.get("error").asText().startsWith("lost the connection to worker " + net.address("w2")
                    + ":" + PORT), result.get("error").asText());
            JsonNode lost = result.get("lostWorkers");
            assertEquals(1, lost.size(), lost.toString());
            assertEquals("w2", lost.get(0).get("id").asText());
            assertTrue(lost.get(0).get("lastInterval").asLong() >= 2, lost.toString());
            // what was gathered before the loss is kept
            assertTrue(result.get("intervals").size() >= 4, "intervals " + result.get("intervals").size());
            assertTrue(result.get("summary").get("acked").asLong() > 4000, result.get("summary").toString());
            assertTrue(result.get("summary").get("publishLatencyMicros").get("count").asLong() > 0);
            assertTrue(output("coordinator").contains("lost worker w2: lost the connection to worker "
                    + net.address("w2") + ":" + PORT), output("coordinator"));
            assertEquals(List.of(), issuesAbout(result, "(stop)"), "the remaining worker stopped cleanly");
            assertIdle("w1", w1);
            return w2;
        }
    }

    /** Takes a worker away. */
    private interface Loss {
        void apply(Process worker) throws Exception;
    }

    @Test
    void shouldStopEveryWorkerWhenTheCoordinatorIsKilledRefuseASecondCoordinatorAndServeTheNextRun() throws Exception {
        Process[] workers = startWorkers();
        Process w1 = workers[0];
        Process w2 = workers[1];
        Process first = startCoordinator("first", dir.resolve("first"), 60);
        awaitProgressLines("first", first, 3);

        // a second coordinator finds the workers busy: one line naming the run and who holds it, exit 2
        Process second = startCoordinator("second", dir.resolve("second"), 5);
        assertTrue(second.waitFor(60, TimeUnit.SECONDS), "second coordinator did not give up");
        assertEquals(2, second.exitValue(), output("second"));
        String refusal = procs.errors("second").strip();
        assertEquals(1, refusal.lines().count(), refusal);
        assertTrue(refusal.matches("kbench: worker " + net.address("w1").replace(".", "\\.") + ":" + PORT
                + " is busy with run \\S+ of the coordinator at " + net.address("coord").replace(".", "\\.")
                + ":\\d+; wait for it to end or stop that coordinator"), refusal);

        try (OffsetWatch watch = new OffsetWatch(topic)) {
            long killedAt = System.nanoTime();
            first.destroyForcibly();
            first.waitFor(10, TimeUnit.SECONDS);
            assertWorkersStop("killed-coordinator", watch, killedAt, 10, w1, w2);
            // the workers closed their clients: no consumer of the run is still a group member (earlier tests'
            // cut-off workers could not leave theirs, so only this run's groups count)
            String runId = procs.output("first").lines().findFirst().orElseThrow().replaceFirst("^run (\\S+):.*", "$1");
            assertEquals(Map.of(), watch.groupMembers("kbench-" + runId), "consumers still in their groups");
        }
        // the workers serve the next coordinator
        Path next = dir.resolve("next");
        topic = topic + "-next";
        Process third = startCoordinator("next", next, 3);
        assertTrue(third.waitFor(90, TimeUnit.SECONDS), "next run did not finish");
        assertEquals(0, third.exitValue(), output("next"));
        JsonNode result = result(next);
        assertEquals("COMPLETED", result.get("status").asText());
        assertEquals(result.get("summary").get("acked").asLong(), result.get("summary").get("received").asLong());
    }

    @Test
    void shouldStopEveryWorkerWhenTheCoordinatorIsCutOff() throws Exception {
        Process[] workers = startWorkers();
        Process w1 = workers[0];
        Process w2 = workers[1];
        Path out = dir.resolve("cut-coordinator");
        Process coordinator = startCoordinator("coordinator", out, 60);
        awaitProgressLines("coordinator", coordinator, 3);
        try (OffsetWatch watch = new OffsetWatch(topic)) {
            long cutAt = System.nanoTime();
            net.cut("coord");
            // the lease lapses 5 s after the last renewal (keepalive alone took about 8 s)
            assertWorkersStop("cut-coordinator", watch, cutAt, 7, w1, w2);
            // the coordinator, alone, loses both workers and ends with what it gathered
            assertTrue(coordinator.waitFor(60, TimeUnit.SECONDS), "cut-off coordinator did not end");
            assertEquals(1, coordinator.exitValue(), output("coordinator"));
            JsonNode result = result(out);
            assertEquals("FAILED", result.get("status").asText());
            assertEquals(2, result.get("lostWorkers").size(), result.get("lostWorkers").toString());
            assertEquals(List.of(), issuesAbout(result, "(stop)"), "a lost worker is not stopped, nor waited for");
        }
    }

    @Test
    void shouldSayOneLineAndLeaveNoWorkerWaitingWhenTheBrokerIsUnreachableAtStart() throws Exception {
        Process[] workers = startWorkers();
        Process w1 = workers[0];
        Process w2 = workers[1];
        String nowhere = net.hostAddress() + ":1"; // the broker's host, a port nothing listens on
        Process coordinator = startCoordinator("coordinator", dir.resolve("no-broker"), 10, nowhere);
        assertTrue(coordinator.waitFor(60, TimeUnit.SECONDS), "coordinator waited for an unreachable broker");
        assertEquals(3, coordinator.exitValue(), "exit code 3, unreachable: " + output("coordinator"));
        String line = procs.errors("coordinator").strip();
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.startsWith("kbench: worker " + net.address("w1") + ":" + PORT + " (prepare): cannot reach Kafka at "
                + nowhere), line);
        assertIdle("w1", w1);
        assertIdle("w2", w2);
    }

    /**
     * The workers on w1 and w2: those an earlier test left running (each must be idle: its run ended with that
     * test), and a new one side by side for each that is gone (killed by a test; each JVM's start-up overlaps the
     * other's); awaits both.
     */
    private Process[] startWorkers() throws Exception {
        if (workerProcs == null) {
            workerProcs = new KbenchProcesses("netns-workers");
        }
        String[] hosts = {"w1", "w2"};
        boolean[] kept = new boolean[hosts.length];
        for (int i = 0; i < hosts.length; i++) {
            kept[i] = workers[i] != null && workers[i].isAlive();
            if (!kept[i]) {
                workers[i] = launchWorker(hosts[i]);
            }
        }
        for (int i = 0; i < hosts.length; i++) {
            KbenchProcesses.awaitListening(net.address(hosts[i]), PORT, workers[i]);
            if (kept[i]) {
                assertIdle(hosts[i], workers[i]);
            }
        }
        return workers.clone();
    }

    private Process launchWorker(String host) throws Exception {
        // a log per process: a worker started again after a test killed it does not overwrite the first one's
        return workerProcs.startIn(net.inside(host), host + "-" + ++launched, "worker", "--bind", net.address(host),
                "--port", "" + PORT,
                "--id", host, "--token-file", token.toString(), "--tls-cert", workerCert.cert().toString(),
                "--tls-key", workerCert.key().toString());
    }

    private Process startCoordinator(String name, Path out, int seconds) throws Exception {
        return startCoordinator(name, out, seconds, kafka.bootstrapServers());
    }

    private Process startCoordinator(String name, Path out, int seconds, String bootstrap) throws Exception {
        Path workload = dir.resolve(name + "-" + topic + ".yaml");
        Files.writeString(workload, """
                name: %s
                topicNames: [%s]
                partitionsPerTopic: %d
                messageSize: 100
                producersPerTopic: 2
                consumersPerSubscription: 2
                producerRate: 4000
                durationSeconds: %d
                """.formatted(name, topic, PARTITIONS, seconds));
        return procs.startIn(net.inside("coord"), name, "run", "--workers",
                net.address("w1") + ":" + PORT + "," + net.address("w2") + ":" + PORT,
                "--token-file", token.toString(), "--tls", "--tls-ca", ca.caFile().toString(),
                "--bootstrap-servers", bootstrap, "--keep-topics", "--output", out.toString(),
                workload.toString());
    }

    private void awaitProgressLines(String name, Process p, int lines) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (procs.output(name).lines().filter(l -> l.contains("| pub ")).count() < lines) {
            assertTrue(p.isAlive(), () -> name + " exited early: " + output(name));
            assertTrue(System.nanoTime() < deadline, () -> name + " printed no progress: " + output(name));
            Thread.sleep(100);
        }
    }

    /** Both workers are idle, and the topic no longer grows, within {@code seconds} of the coordinator's loss. */
    private void assertWorkersStop(String name, OffsetWatch watch, long lostAt, int seconds, Process w1, Process w2)
            throws Exception {
        double idle1 = assertIdleWithin("w1", w1, lostAt, seconds);
        double idle2 = assertIdleWithin("w2", w2, lostAt, seconds);
        System.out.printf("%s: workers idle after %.2f s and %.2f s%n", name, idle1, idle2);
        Thread.sleep(2_000);
        double lastWrite = watch.lastChangeAfter(lostAt);
        assertTrue(lastWrite < seconds, "load went on " + lastWrite + " s after the loss of the coordinator");
    }

    /** Seconds from {@code sinceNanos} until a line starting with {@code prefix} is in {@code name}'s output. */
    private double secondsUntil(String name, String prefix, long sinceNanos) throws Exception {
        while (procs.output(name).lines().noneMatch(l -> l.startsWith(prefix))) {
            assertTrue(System.nanoTime() - sinceNanos < TimeUnit.SECONDS.toNanos(60), name + " never printed " + prefix);
            Thread.sleep(50);
        }
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    private String output(String name) {
        try {
            return procs.output(name) + procs.errors(name);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static JsonNode result(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("result.json").toFile());
    }

    private static List<String> issuesAbout(JsonNode result, String text) {
        List<String> out = new ArrayList<>();
        result.get("issues").forEach(i -> {
            if (i.asText().contains(text)) {
                out.add(i.asText());
            }
        });
        return out;
    }

    private ClientSecurity security() {
        return new ClientSecurity(ClusterToken.resolve(token, Map.of()), true, ca.caFile(), null, null, null);
    }

    private void assertIdle(String host, Process p) throws Exception {
        assertIdleWithin(host, p, System.nanoTime(), 15);
    }

    /** The worker answers Identify as idle within {@code seconds} of {@code sinceNanos}; returns when (s). */
    private double assertIdleWithin(String host, Process p, long sinceNanos, int seconds) throws Exception {
        try (WorkerClient c = new WorkerClient(net.address(host) + ":" + PORT, security())) {
            String busy = "?";
            while (System.nanoTime() - sinceNanos < TimeUnit.SECONDS.toNanos(seconds)) {
                assertTrue(p.isAlive(), host + " exited");
                try {
                    busy = c.identify().busyRunId();
                    if (busy.isEmpty()) {
                        return (System.nanoTime() - sinceNanos) / 1e9;
                    }
                } catch (RuntimeException notYet) {
                    busy = notYet.getMessage();
                }
                Thread.sleep(200);
            }
            throw new AssertionError(host + " still busy " + seconds + " s later: " + busy);
        }
    }

    /** Polls the end offsets of a topic's partitions and remembers when they last grew. */
    private final class OffsetWatch implements AutoCloseable {
        private final Admin admin;
        private final Thread poller;
        private final List<TopicPartition> partitions = new ArrayList<>();
        private volatile long lastChange = System.nanoTime();
        private volatile boolean stop;

        OffsetWatch(String topic) {
            Properties p = new Properties();
            p.setProperty("bootstrap.servers", kafka.bootstrapServers());
            admin = Admin.create(p);
            for (int i = 0; i < PARTITIONS; i++) {
                partitions.add(new TopicPartition(topic, i));
            }
            poller = new Thread(this::poll, "offset-watch");
            poller.setDaemon(true);
            poller.start();
        }

        private void poll() {
            long last = -1;
            while (!stop) {
                try {
                    Map<TopicPartition, OffsetSpec> q = new java.util.HashMap<>();
                    partitions.forEach(tp -> q.put(tp, OffsetSpec.latest()));
                    long sum = 0;
                    for (var e : admin.listOffsets(q).all().get(5, TimeUnit.SECONDS).values()) {
                        sum += e.offset();
                    }
                    if (sum != last) {
                        last = sum;
                        lastChange = System.nanoTime();
                    }
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // the broker is busy: ask again
                }
            }
        }

        /** Members per consumer group whose id starts with {@code prefix}, for groups that have any. */
        Map<String, Integer> groupMembers(String prefix) throws Exception {
            List<String> groups = new ArrayList<>();
            admin.listGroups().all().get(10, TimeUnit.SECONDS).forEach(g -> {
                if (g.groupId().startsWith(prefix)) {
                    groups.add(g.groupId());
                }
            });
            assertTrue(!groups.isEmpty(), "no consumer group of " + prefix);
            Map<String, Integer> members = new java.util.TreeMap<>();
            admin.describeConsumerGroups(groups).all().get(10, TimeUnit.SECONDS).forEach((id, d) -> {
                if (!d.members().isEmpty()) {
                    members.put(id, d.members().size());
                }
            });
            return members;
        }

        /** Seconds from {@code nanos} to the last growth of the end offsets (negative: before it). */
        double lastChangeAfter(long nanos) {
            return (lastChange - nanos) / 1e9;
        }

        @Override
        public void close() {
            stop = true;
            poller.interrupt();
            try {
                poller.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            admin.close();
        }
    }
}
