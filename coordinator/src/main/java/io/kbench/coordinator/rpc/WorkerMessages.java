package io.kbench.coordinator.rpc;

import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.ByteString;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.workload.Profile;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.rpc.ConsumerAssignment;
import io.kbench.protocol.rpc.ConsumerStart;
import io.kbench.protocol.rpc.ConsumerState;
import io.kbench.protocol.rpc.DriverConfig;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.KeyDistribution;
import io.kbench.protocol.rpc.KeySpec;
import io.kbench.protocol.rpc.PayloadSpec;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.PrepareResponse;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.SnapshotMessages;
import io.kbench.protocol.rpc.TopicSpec;

/**
 * The coordinator's side of the wire format: protobuf messages to and from the coordinator's plain records,
 * field for field, with no decisions of its own (those are the {@link Plan}'s). Pure.
 */
public final class WorkerMessages {
    /** The clients' windowed-metrics setting the plan fills in unless the profile sets it. */
    static final String METRICS_WINDOW = "metrics.sample.window.ms";

    private WorkerMessages() { }

    public static WorkerClient.Identity identity(IdentifyResponse r) {
        io.kbench.protocol.HostFacts host = null;
        if (r.hasHostFacts()) {
            io.kbench.protocol.rpc.HostFacts h = r.getHostFacts();
            host = new io.kbench.protocol.HostFacts(h.getHostName(), h.getCores(), h.getMemoryBytes(), h.getOs(),
                    h.getJvm(), h.getMaxHeapBytes());
        }
        return new WorkerClient.Identity(r.getWorkerId(), r.getVersion(), r.getHost(), r.getCores(), r.getBusyRunId(),
                r.getBusyCoordinator(), r.getClockId(), host, new java.util.TreeMap<>(r.getDriversMap()), r.getCommit());
    }

    /** The profile's driver and client settings, bootstrap servers included, as a worker takes them. */
    static DriverConfig driverConfig(Profile p) {
        return DriverConfig.newBuilder().setName(p.driver())
                .putAllCommon(p.common()).putCommon("bootstrap.servers", p.bootstrapServers())
                .putAllProducer(p.producer()).putAllConsumer(p.consumer()).putAllAdmin(p.admin()).build();
    }

    public static PrepareRequest prepareRequest(WorkerClient.Share share) {
        Profile p = share.profile();
        Plan.ClientSettings clients = share.clients();
        DriverConfig.Builder driver = driverConfig(p).toBuilder();
        if (!p.common().containsKey(METRICS_WINDOW)) {
            String window = Long.toString(clients.metricsWindowMillis());
            if (!p.producer().containsKey(METRICS_WINDOW)) {
                driver.putProducer(METRICS_WINDOW, window);
            }
            if (!p.consumer().containsKey(METRICS_WINDOW)) {
                driver.putConsumer(METRICS_WINDOW, window);
            }
        }
        var w = share.workload();
        io.kbench.coordinator.workload.KeysAndHeaders extras = w.messages().keysAndHeaders();
        PrepareRequest.Builder b = PrepareRequest.newBuilder()
                .setRunId(share.runId())
                .setWorkload(w.name())
                .setClockOffsetMicros(share.clockOffsetMicros())
                .setDriver(driver)
                .setMessageSize(w.messages().messageSize())
                .setIntervalMicros(share.intervalMicros())
                .setPayloads(payloads(share))
                .addAllExistingTopics(share.existingTopics())
                .setConsumerStart(clients.consumersFromCommitted() ? ConsumerStart.CONSUMER_START_COMMITTED
                        : clients.consumersFromBeginning() ? ConsumerStart.CONSUMER_START_BEGINNING
                        : ConsumerStart.CONSUMER_START_END)
                .setHoldConsumers(clients.holdConsumers())
                .setTransactionRecords(w.transactions().transactionRecords())
                .setTransactionMillis(w.transactions().transactionMillis())
                .setVerification(w.verification())
                .setNoStamp(!w.stampMessages())
                // only to the worker that runs both ends of the loop (the planner's first); the others run nothing
                .setRoundTrip(w.roundTrip() && !share.assignment().producers().isEmpty())
                .setDumpClientMetrics(share.dumpClientMetrics())
                .addAllBrokerSources(share.brokerSources())
                .setKeys(KeySpec.newBuilder().setDistribution(switch (w.messages().keyDistribution()) {
                    case none -> KeyDistribution.KEY_NONE;
                    case roundRobin -> KeyDistribution.KEY_ROUND_ROBIN;
                    case random -> KeyDistribution.KEY_RANDOM;
                    case zipf -> KeyDistribution.KEY_ZIPF;
                }).setCount(w.messages().keys()).setZipfExponent(w.messages().zipfExponent()).setSize(extras.keySize()))
                .setHeaders(io.kbench.protocol.rpc.HeaderSpec.newBuilder().setCount(extras.headersPerMessage())
                        .setKeySize(extras.headerKeySize()).setValueSize(extras.headerValueSize()));
        for (Plan.Topic t : share.createTopics()) {
            b.addCreateTopics(TopicSpec.newBuilder().setName(t.name()).setPartitions(t.partitions())
                    .setReplicationFactor(p.replicationFactor()).putAllConfig(p.topic()));
        }
        for (Plan.ProducerTask t : share.assignment().producers()) {
            b.addProducers(ProducerAssignment.newBuilder().setProducerIndex(t.index()).setTopic(t.topic())
                    .setRatePerSecond(t.ratePerSecond()).setRecordLimit(t.recordLimit()));
        }
        boolean shareConsumers = false;
        for (Plan.ConsumerTask t : share.assignment().consumers()) {
            b.addConsumers(ConsumerAssignment.newBuilder().setConsumerIndex(t.index()).setTopic(t.topic())
                    .setGroup(t.group()).setShare(t.share()));
            shareConsumers |= t.share();
        }
        if (shareConsumers) {
            var g = w.shareGroups();
            java.util.Map<String, String> configs = new java.util.TreeMap<>(g.groupConfigs());
            if (!w.existingTopics() || w.producerCount() == 0) {
                // the run's own new topics hold only its messages: the groups read them from the start, whenever
                // their share partitions are first initialized (with the broker's default, latest, a group whose
                // first fetch came after the first sends would never see those); a run without producers reads
                // what the topics hold, from the start, as its classic consumers do
                configs.putIfAbsent("share.auto.offset.reset", "earliest");
            }
            b.setShare(io.kbench.protocol.rpc.ShareSettings.newBuilder().setExplicit(g.explicit())
                    .setReleasePpm((int) Math.round(g.releaseRatio() * 1_000_000))
                    .setRejectPpm((int) Math.round(g.rejectRatio() * 1_000_000))
                    .setCommitSync(g.commitSync())
                    .putAllGroupConfigs(configs)
                    .putAllBacklogGroups(share.shareBacklogGroups()));
        }
        b.setConsumerProcessingMicros(w.consumerProcessingMicros()).setConsumerProcessingDistribution(
                switch (w.consumerProcessing().distribution()) {
                    case fixed -> io.kbench.protocol.rpc.ProcessingDistribution.PROCESSING_FIXED;
                    case uniform -> io.kbench.protocol.rpc.ProcessingDistribution.PROCESSING_UNIFORM;
                    case exponential -> io.kbench.protocol.rpc.ProcessingDistribution.PROCESSING_EXPONENTIAL;
                });
        return b.build();
    }

    /** A worker without producers is sent no payload values. */
    private static PayloadSpec.Builder payloads(WorkerClient.Share share) {
        PayloadSpec.Builder p = PayloadSpec.newBuilder()
                .setRandomBytesRatio(share.workload().messages().randomBytesRatio());
        if (share.workload().messages().monotonicPayloads()) {
            return p.setMonotonicProducers(share.workload().producerCount());
        }
        if (!share.assignment().producers().isEmpty()) {
            share.payloads().forEach(v -> p.addValues(ByteString.copyFrom(v)));
        }
        return p;
    }

    public static WorkerClient.Readiness readiness(PrepareResponse r) {
        List<WorkerClient.ConsumerReadiness> cs = new ArrayList<>();
        for (ConsumerState c : r.getConsumersList()) {
            cs.add(new WorkerClient.ConsumerReadiness(c.getConsumerIndex(), c.getGroup(), c.getAssignedPartitions(),
                    c.getJoined(), c.getJoinMicros()));
        }
        return new WorkerClient.Readiness(r.getReady(), cs, r.getTopicPartitionsMap(),
                r.hasCluster() ? cluster(r.getCluster()) : null);
    }

    /** The cluster facts a worker sent; whether kbench started the cluster is not the worker's to say. */
    static io.kbench.coordinator.report.result.ResultFile.Cluster cluster(io.kbench.protocol.rpc.ClusterFacts c) {
        List<io.kbench.coordinator.report.result.ResultFile.Broker> brokers = new ArrayList<>();
        for (io.kbench.protocol.rpc.BrokerFacts b : c.getBrokersList()) {
            brokers.add(new io.kbench.coordinator.report.result.ResultFile.Broker(b.getId(), b.getEndpoint(), b.getRack(),
                    new java.util.TreeMap<>(b.getConfigsMap())));
        }
        java.util.Map<String, io.kbench.coordinator.report.result.ResultFile.Topic> topics = new java.util.TreeMap<>();
        c.getTopicsMap().forEach((name, t) -> topics.put(name, new io.kbench.coordinator.report.result.ResultFile.Topic(
                t.getPartitions(), t.getReplicationFactor(), new java.util.TreeMap<>(t.getConfigsMap()))));
        return new io.kbench.coordinator.report.result.ResultFile.Cluster(false, 0, false, null, c.getClusterId(),
                new java.util.TreeMap<>(c.getFeaturesMap()), brokers, topics, c.getError().isEmpty() ? null : c.getError());
    }

    public static IntervalSnapshot snapshot(Snapshot s) {
        return SnapshotMessages.fromProto(s);
    }
}
