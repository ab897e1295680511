package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each limit the diagnosis names, provoked on a real broker and named in result.json (docs/diagnosis.md): producers
 * starved of {@code buffer.memory}, unthrottled ({@code producer-client}); an easy rate ({@code none}); consumers
 * held back by their fetch settings at a rate the broker takes ({@code consumers}); more load than the worker's
 * cores can generate ({@code generator}); one request handler thread under a flood of small requests
 * ({@code broker-request-handlers}, after setting the broker's {@code num.io.threads} to 1). One broker serves them
 * all, read over a loopback JMX port as {@code --broker-jmx} reads a cluster's; short runs.
 * {@code replication} and {@code broker-disk} are not provoked here: see the class's note in docs/diagnosis.md.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DiagnosisIT {
    @TempDir
    Path dir;

    /** This JVM's MBeans (the broker's) on a loopback JMX port: read as --broker-jmx reads a cluster's broker. */
    private static String jmx;

    private JsonNode run(EmbeddedKafka kafka, String name, String workload, String... sets) throws Exception {
        Path w = Files.writeString(dir.resolve(name + ".yaml"), "name: " + name + "\n" + workload);
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", kafka.bootstrapServers(), "--broker-jmx", jmx));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        JsonNode r = InProcessRun.run(w, dir.resolve(name), args);
        System.out.println("DiagnosisIT " + name + ": " + limits(r)); // the figures each verdict rests on, for the log
        return r;
    }

    private static String limits(JsonNode r) {
        JsonNode d = r.get("diagnosis");
        StringBuilder b = new StringBuilder(d.get("limit").asText());
        d.get("alsoLimitedBy").forEach(l -> b.append(", ").append(l.get("limit").asText()));
        return b + " " + d;
    }

    private static java.rmi.registry.Registry registry;
    private static javax.management.remote.JMXConnectorServer server;

    @BeforeAll
    static void jmxPort() throws Exception {
        int port = KbenchProcesses.freePort();
        System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        registry = java.rmi.registry.LocateRegistry.createRegistry(port);
        server = javax.management.remote.JMXConnectorServerFactory.newJMXConnectorServer(
                new javax.management.remote.JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"),
                java.util.Map.of(), java.lang.management.ManagementFactory.getPlatformMBeanServer());
        server.start();
        jmx = "127.0.0.1:" + port;
    }

    @AfterAll
    static void closeJmxPort() throws Exception {
        if (server != null) {
            server.stop();
        }
        if (registry != null) {
            java.rmi.server.UnicastRemoteObject.unexportObject(registry, true);
        }
    }

    /**
     * Followers held back by their fetch settings: each follower fetch waits {@code replica.fetch.wait.max.ms}
     * (200 ms) for {@code replica.fetch.min.bytes} it never gets, so an acks=all produce request waits for the
     * followers about that long (its remote time) while the producers, unthrottled, wait for buffer room. Two brokers,
     * replication factor 2; the followers stay in sync (they fetch every 200 ms, far inside replica.lag.time.max.ms).
     * A small buffer.memory: what is outstanding when sending ends is flushed before the run ends.
     */
    @Test
    void shouldNameReplicationWhenFollowersFetchSlowly() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().nodes(2).config("replica.fetch.min.bytes", "104857600")
                .config("replica.fetch.wait.max.ms", "200").start()) {
            JsonNode slow = run(kafka, "replication", """
                    partitionsPerTopic: 2
                    messageSize: 1000
                    subscriptionsPerTopic: 0
                    warmupSeconds: 1
                    durationSeconds: 4
                    """, "replicationFactor=2", "producer.acks=all", "producer.buffer.memory=1048576");
            assertEquals("replication", slow.get("diagnosis").get("limit").asText(), limits(slow));
        }
    }

    @Test
    void shouldNameEachLimitItCanProvokeOnOneBroker() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            JsonNode starved = run(kafka, "starved", """
                    partitionsPerTopic: 3
                    messageSize: 1000
                    subscriptionsPerTopic: 0
                    warmupSeconds: 1
                    durationSeconds: 4
                    """, "producer.buffer.memory=65536");
            assertEquals("producer-client", starved.get("diagnosis").get("limit").asText(), limits(starved));

            // an easy rate: nothing limited it. Before the generator's flood, not after it: in the minute after 8
            // producers at 300k msg/s this JVM (broker, coordinator and worker in one) stalled its load thread 20 ms
            // or more in 1-3 of the 4 intervals (a CI run named `generator`, 3 of 4); here, after one run's warm-up,
            // in 0-1 of 4 (3 runs each)
            JsonNode easy = run(kafka, "easy", """
                    partitionsPerTopic: 3
                    messageSize: 1000
                    producerRate: 1000
                    warmupSeconds: 2
                    durationSeconds: 4
                    """);
            assertEquals("none", easy.get("diagnosis").get("limit").asText(), limits(easy));

            JsonNode slow = run(kafka, "slow-consumer", """
                    partitionsPerTopic: 1
                    messageSize: 1000
                    producerRate: 1000
                    warmupSeconds: 1
                    durationSeconds: 5
                    """, "consumer.fetch.min.bytes=52428800", "consumer.fetch.max.wait.ms=1000",
                    "consumer.max.partition.fetch.bytes=524288");
            assertEquals("consumers", slow.get("diagnosis").get("limit").asText(), limits(slow));

            JsonNode generator = run(kafka, "generator", """
                    partitionsPerTopic: 6
                    messageSize: 10
                    producersPerTopic: 8
                    subscriptionsPerTopic: 0
                    producerRate: 2000000
                    warmupSeconds: 1
                    durationSeconds: 4
                    """, "producer.linger.ms=50", "producer.batch.size=1048576");
            assertEquals("generator", generator.get("diagnosis").get("limit").asText(), limits(generator));

            // one request handler thread for the broker from now on (a dynamic, cluster-wide broker setting)
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of(
                    "bootstrap.servers", kafka.bootstrapServers()))) {
                for (String threads : List.of("4", "2", "1")) { // the broker takes at most halving at a time
                    admin.incrementalAlterConfigs(java.util.Map.of(new org.apache.kafka.common.config.ConfigResource(
                            org.apache.kafka.common.config.ConfigResource.Type.BROKER, ""), List.of(
                            new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                                    "num.io.threads", threads), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET))))
                            .all().get(30, TimeUnit.SECONDS);
                    // the broker applies it from the metadata log, a moment later: the next step is checked against it
                    org.apache.kafka.common.config.ConfigResource node = new org.apache.kafka.common.config.ConfigResource(
                            org.apache.kafka.common.config.ConfigResource.Type.BROKER, "1");
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (!threads.equals(admin.describeConfigs(List.of(node)).all().get(30, TimeUnit.SECONDS).get(node)
                            .get("num.io.threads").value())) {
                        assertTrue(System.nanoTime() < deadline, "num.io.threads=" + threads + " not applied");
                        Thread.sleep(100);
                    }
                }
            }
            // large batches the single handler must gzip (the topic compresses, the producers do not): the handler
            // is the slowest stage by far while the client's cost per byte stays low (a flood of small requests
            // also loads the client, whose CPU and collections then decide whether the handler is kept busy)
            JsonNode handlers = run(kafka, "handlers", """
                    partitionsPerTopic: 6
                    messageSize: 1000
                    producersPerTopic: 2
                    subscriptionsPerTopic: 0
                    warmupSeconds: 1
                    durationSeconds: 4
                    """, "producer.linger.ms=5", "producer.batch.size=131072", "topic.compression.type=gzip");
            assertTrue(limits(handlers).contains("broker-request-handlers"), limits(handlers));
        }
    }
}
