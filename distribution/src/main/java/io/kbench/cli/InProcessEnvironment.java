package io.kbench.cli;

import java.util.ArrayList;
import java.util.List;

import io.kbench.coordinator.ClusterControl;
import io.kbench.coordinator.cli.LocalEnvironment;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.MicrosClock;
import io.kbench.worker.WorkerServer;

/**
 * The local default of {@code kbench run}: an embedded KRaft cluster (one node unless {@code --brokers} says
 * more; its brokers can be stopped and started for a workload's faults) and in-process workers on
 * loopback ports, reached over real gRPC. {@link #close()} stops workers, then the broker (which removes
 * its data directory). Idempotent and thread-safe: a Ctrl-C hook may close it while a run is ending. The
 * broker and the workers have a lock each, so that both can start at once (the broker takes seconds).
 */
final class InProcessEnvironment implements LocalEnvironment {
    private final Object brokerLock = new Object();
    private final Object workerLock = new Object();
    private final List<WorkerServer> workers = new ArrayList<>();
    private EmbeddedKafka kafka;
    /** The embedded cluster's node count, for {@link #restartBroker}. */
    private int nodes;
    /** {@code --broker-processes}: each node in a JVM of its own. */
    private volatile boolean processPerBroker;
    /** Set before the broker starts: the in-process workers' host figures include it. */
    private volatile boolean embeddedBroker;

    @Override
    public String startBroker(int brokers) {
        return startBroker(brokers, java.util.Map.of());
    }

    @Override
    public String startBroker(int brokers, java.util.Map<String, String> brokerConfigs) {
        // nodes in this JVM share Kafka's metrics registry (one broker source for all) and the workers' process
        embeddedBroker = !processPerBroker;
        sayShared();
        synchronized (brokerLock) {
            nodes = brokers;
            kafka = builder(brokerConfigs).start();
            readNodes();
            io.kbench.embedded.GroupCoordinatorWarmUp.start(kafka);
            return kafka.bootstrapServers();
        }
    }

    private EmbeddedKafka.Builder builder(java.util.Map<String, String> brokerConfigs) {
        EmbeddedKafka.Builder b = EmbeddedKafka.builder().nodes(nodes);
        if (processPerBroker) {
            b.processPerNode(BrokerNodeMain.class.getName());
        }
        brokerConfigs.forEach(b::config);
        return b;
    }

    /** The in-process workers read each node in a JVM of its own through the cluster (broker sources local:N). */
    private void readNodes() {
        EmbeddedKafka k = kafka;
        io.kbench.worker.EmbeddedBrokers.readWith(k != null && k.processPerNode() ? k::figures : null);
    }

    @Override
    public void processPerBroker(boolean separate) {
        processPerBroker = separate;
    }

    @Override
    public List<String> brokerSources() {
        synchronized (brokerLock) {
            if (kafka == null || !kafka.processPerNode()) {
                return List.of("local");
            }
            List<String> sources = new ArrayList<>();
            for (int i = 1; i <= kafka.size(); i++) {
                sources.add("local:" + i);
            }
            return sources;
        }
    }

    /** Serialized, and reading the flag inside: whichever of broker and workers starts last leaves the full answer. */
    private synchronized void sayShared() {
        WorkerServer.processSharedWith(embeddedBroker ? "coordinator, embedded broker" : "coordinator");
    }

    @Override
    public ClusterControl cluster() {
        EmbeddedKafka k;
        synchronized (brokerLock) {
            k = kafka;
        }
        if (k == null) {
            return null;
        }
        return new ClusterControl() {
            @Override
            public int brokers() {
                return k.size();
            }

            @Override
            public boolean processPerBroker() {
                return k.processPerNode();
            }

            @Override
            public void stopBroker(int id) {
                k.stopNode(id);
            }

            @Override
            public void startBroker(int id) {
                k.startNode(id);
            }
        };
    }

    @Override
    public String restartBroker(java.util.Map<String, String> brokerConfigs) {
        synchronized (brokerLock) {
            if (kafka == null) {
                throw new IllegalStateException("no embedded cluster to start again");
            }
            kafka.close();
            kafka = null;
            readNodes();
            try {
                kafka = builder(brokerConfigs).start();
                readNodes();
            } catch (RuntimeException e) {
                throw new io.kbench.coordinator.UserException("the embedded cluster did not start with " + brokerConfigs
                        + ": " + e.getMessage(), e);
            }
            io.kbench.embedded.GroupCoordinatorWarmUp.start(kafka);
            return kafka.bootstrapServers();
        }
    }

    @Override
    public String brokerConfigProblem(String name, String value) {
        return io.kbench.embedded.BrokerConfigs.problem(name, value);
    }

    @Override
    public io.kbench.coordinator.workload.ConfigCheck configCheck() {
        return CONFIG_CHECK;
    }

    /**
     * kafka-clients' own definitions of the producer's, consumer's and admin client's configs, and the broker's of a
     * topic's.
     */
    static final io.kbench.coordinator.workload.ConfigCheck CONFIG_CHECK =
            new io.kbench.coordinator.workload.ConfigCheck(new io.kbench.coordinator.workload.ConfigCheck.Defs() {
                @Override
                public java.util.Set<String> names(String section) {
                    return section.equals("topic") ? io.kbench.embedded.TopicConfigs.names()
                            : io.kbench.driver.kafka.ClientConfigDefs.names(section);
                }

                @Override
                public String valueProblem(String section, String name, String value) {
                    return section.equals("topic") ? io.kbench.embedded.TopicConfigs.valueProblem(name, value)
                            : io.kbench.driver.kafka.ClientConfigDefs.valueProblem(section, name, value);
                }

                @Override
                public String togetherProblem(String client, java.util.Map<String, String> settings,
                                              boolean transactional) {
                    return io.kbench.driver.kafka.ClientConfigDefs.togetherProblem(client, settings, transactional);
                }

                @Override
                public String recordProblem(java.util.Map<String, String> settings,
                                            io.kbench.coordinator.workload.ConfigCheck.RecordSize r, String what) {
                    return io.kbench.driver.kafka.RecordLimits.producerProblem(settings,
                            new io.kbench.driver.RecordShape(r.keyBytes(), r.valueBytes(), r.headers(),
                                    r.headerKeyBytes(), r.headerValueBytes(), r.stamped(), r.verified()), what);
                }
            });

    @Override
    public List<String> startWorkers(int count) {
        synchronized (workerLock) {
            List<String> addresses = new ArrayList<>();
            // the workers' CPU and heap figures are this process's: say what else runs in it
            sayShared();
            for (int i = 1; i <= count; i++) {
                // over gRPC's in-process transport: the snapshots reach the coordinator as objects, without a
                // socket, Netty's threads or protobuf's encoding in between
                WorkerServer w = WorkerServer.startInProcess("local-" + i, MicrosClock.SYSTEM);
                workers.add(w);
                addresses.add(w.address());
            }
            return addresses;
        }
    }

    @Override
    public void close() {
        synchronized (workerLock) {
            workers.forEach(WorkerServer::close);
            workers.clear();
        }
        synchronized (brokerLock) {
            if (kafka != null) {
                kafka.close();
                kafka = null;
                readNodes();
            }
        }
    }
}
