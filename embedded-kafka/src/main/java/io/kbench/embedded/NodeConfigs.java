package io.kbench.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import kafka.tools.StorageTool;

/**
 * How one node of the embedded cluster is configured (KRaft, broker and controller in one) and its storage
 * formatted, as kafka-storage.sh would; {@link EmbeddedKafka} starts the nodes. Stateless.
 */
final class NodeConfigs {
    private NodeConfigs() { }

    /** A node with both roles and a PLAINTEXT client listener; the internal topics replicated {@code rf} times. */
    static Properties plaintext(Path logDir, String host, int nodeId, int port, int controllerPort,
                                String voters, short rf) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", Integer.toString(nodeId));
        p.setProperty("controller.quorum.voters", voters);
        p.setProperty("listeners", "PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", logDir.toString());
        p.setProperty("offsets.topic.replication.factor", Short.toString(rf));
        p.setProperty("offsets.topic.num.partitions", "5");
        p.setProperty("transaction.state.log.replication.factor", Short.toString(rf));
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "5");
        p.setProperty("share.coordinator.state.topic.replication.factor", Short.toString(rf));
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        // a run's consumers join a new group within milliseconds of each other: waiting 100 ms for them lets one
        // rebalance assign them all, where with 0 the first joins alone and the others' join rebalances the group
        // again, which the first learns of only at its next heartbeat (classic protocol: up to 3 s later)
        p.setProperty("group.initial.rebalance.delay.ms", "100");
        // a share group's members learn of a new assignment at their next heartbeat, and each member that joins
        // changes it: with Kafka's 5 s, 8 share consumers on 2 partitions took 8.8-8.9 s to prepare, with 1 s 5.2-5.5 s
        p.setProperty("group.share.min.heartbeat.interval.ms", "1000");
        p.setProperty("group.share.heartbeat.interval.ms", "1000");
        // the log manager's periodic tasks (the log flusher, retention checks, recovery-point checkpoints) start this
        // long after a broker starts: Kafka's default, 30 s, leaves a fresh cluster without them for the whole window
        // of a short run — and a sweep starts the cluster again for each combination of broker settings, so a
        // log.flush.scheduler.interval.ms of 10 flushed nothing in a 20-s run (LogFlushRateAndTimeMs 2/s in every
        // combination, the metadata log's). A long-running broker has them running; so does this one, after 1 s.
        p.setProperty("log.initial.task.delay.ms", "1000");
        // the log cleaner allocates its dedupe buffer (Kafka's default 128 MB, on the heap) as the broker starts, on
        // the thread that brings it up: first-touched memory that delayed "broker ready" by 33-236 ms on the 2-core VM,
        // and 128 MB of the kbench JVM's heap for the in-process broker. The cleaner compacts the internal topics
        // (__consumer_offsets and the share and transaction state) and a workload's compacted topics; 8 MB holds
        // about 350,000 keys per cleaning pass, far more than a benchmark's groups and producers leave there
        p.setProperty("log.cleaner.dedupe.buffer.size", Integer.toString(8 << 20));
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("num.partitions", "1");
        p.setProperty("default.replication.factor", Short.toString(rf));
        return p;
    }

    /** The JAAS line of a SCRAM login. */
    static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    /** Writes the properties of the node and formats its storage (kafka-storage format), with SCRAM credentials. */
    static void format(Path propsFile, Properties props, String clusterId, List<String> scram) throws IOException {
        try (OutputStream out = Files.newOutputStream(propsFile)) {
            props.store(out, "kbench embedded node");
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int rc;
        try (PrintStream ps = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            List<String> args = new ArrayList<>(List.of("format", "--cluster-id", clusterId, "--config", propsFile.toString()));
            for (String credential : scram) {
                args.add("--add-scram");
                args.add(credential);
            }
            rc = StorageTool.execute(args.toArray(new String[0]), ps);
        }
        if (rc != 0) {
            throw new IllegalStateException("formatting " + propsFile + " failed (" + rc + "): "
                    + captured.toString(StandardCharsets.UTF_8).trim());
        }
    }

    /**
     * Makes the node's client listener SASL_PLAINTEXT with {@link EmbeddedKafka#SCRAM_MECHANISM} (the brokers log in
     * to each other as {@code brokerUser}); returns the credentials its storage must be formatted with.
     */
    static List<String> scram(Properties props, String host, int port, int controllerPort, String brokerUser,
                              String brokerPassword, String user, String password) {
        String listener = "SASL_PLAINTEXT";
        String mechanism = EmbeddedKafka.SCRAM_MECHANISM;
        props.setProperty("listeners", listener + "://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort);
        props.setProperty("advertised.listeners", listener + "://" + host + ":" + port);
        props.setProperty("inter.broker.listener.name", listener);
        props.setProperty("listener.security.protocol.map", listener + ":" + listener + ",CONTROLLER:PLAINTEXT");
        props.setProperty("sasl.enabled.mechanisms", mechanism);
        props.setProperty("sasl.mechanism.inter.broker.protocol", mechanism);
        props.setProperty("listener.name.sasl_plaintext." + mechanism.toLowerCase(java.util.Locale.ROOT)
                + ".sasl.jaas.config", jaas(brokerUser, brokerPassword));
        return List.of(mechanism + "=[name=" + brokerUser + ",password=" + brokerPassword + "]",
                mechanism + "=[name=" + user + ",password=" + password + "]");
    }
}
