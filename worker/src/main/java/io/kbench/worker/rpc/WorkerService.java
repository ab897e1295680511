package io.kbench.worker.rpc;

import java.net.InetAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.kbench.driver.DriverConfig;
import io.kbench.driver.TopicSpec;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.ClockPingRequest;
import io.kbench.protocol.rpc.ClockPingResponse;
import io.kbench.protocol.rpc.ConsumerAssignment;
import io.kbench.protocol.rpc.ConsumerState;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.PrepareResponse;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.protocol.rpc.RunRequest;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.StopResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import io.kbench.worker.Keys;
import io.kbench.worker.PrepareStatus;
import io.kbench.worker.RunManager;
import io.kbench.worker.RunSpec;
import io.kbench.worker.SnapshotSink;
import io.kbench.worker.WorkerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the Worker gRPC service: translates between protobuf messages and the worker's plain types and
 * delegates to {@link RunManager}. Refusals cross the wire as a {@link Status} with a description; stack
 * traces stay in this worker's log.
 *
 * <p>Threads: gRPC's handler executor.
 */
public final class WorkerService extends WorkerGrpc.WorkerImplBase {
    /** Largest generated value a worker builds (the workload's own limit). */
    static final int MAX_MESSAGE_SIZE = 100 * 1024 * 1024;
    /** Most payload values a worker accepts (the payload file's own limit). */
    static final int MAX_PAYLOAD_VALUES = 1_000_000;

    private static final Logger LOG = LoggerFactory.getLogger(WorkerService.class);

    private final RunManager runs;

    public WorkerService(RunManager runs) {
        this.runs = runs;
    }

    /** The interceptor this service needs installed (it records each caller's address). */
    public static io.grpc.ServerInterceptor interceptor() {
        return ServerCallAddress.interceptor();
    }

    @Override
    public void identify(IdentifyRequest request, StreamObserver<IdentifyResponse> response) {
        if (request.getProtocolVersion() != Versions.PROTOCOL) {
            response.onError(Status.FAILED_PRECONDITION.withDescription("worker " + runs.workerId()
                    + " speaks protocol " + Versions.PROTOCOL + " (kbench " + Versions.kbench() + "), the coordinator "
                    + request.getProtocolVersion() + " (kbench " + request.getCoordinatorVersion()
                    + "): run the same kbench version on both").asRuntimeException());
            return;
        }
        response.onNext(IdentifyResponse.newBuilder()
                .setWorkerId(runs.workerId())
                .setVersion(Versions.kbench())
                .setProtocolVersion(Versions.PROTOCOL)
                .setHost(hostName())
                .setCores(Runtime.getRuntime().availableProcessors())
                .setBusyRunId(runs.busyRunId())
                .setBusyCoordinator(runs.busyCoordinator())
                .setClockId(runs.clock().id())
                .setHostFacts(Host.FACTS)
                .putAllDrivers(io.kbench.worker.RunManager.drivers())
                .setCommit(Versions.commit())
                .build());
        response.onCompleted();
    }

    private static io.kbench.protocol.rpc.ClusterFacts cluster(io.kbench.driver.ClusterFacts c) {
        io.kbench.protocol.rpc.ClusterFacts.Builder b = io.kbench.protocol.rpc.ClusterFacts.newBuilder()
                .setClusterId(c.clusterId()).putAllFeatures(c.features()).setError(c.error());
        for (io.kbench.driver.ClusterFacts.Broker broker : c.brokers()) {
            b.addBrokers(io.kbench.protocol.rpc.BrokerFacts.newBuilder().setId(broker.id()).setEndpoint(broker.endpoint())
                    .setRack(broker.rack()).putAllConfigs(broker.configs()));
        }
        c.topics().forEach((name, t) -> b.putTopics(name, io.kbench.protocol.rpc.TopicFacts.newBuilder()
                .setPartitions(t.partitions()).setReplicationFactor(t.replicationFactor()).putAllConfigs(t.configs())
                .build()));
        return b.build();
    }

    @Override
    public void clockPing(ClockPingRequest request, StreamObserver<ClockPingResponse> response) {
        response.onNext(ClockPingResponse.newBuilder().setWorkerTimeMicros(runs.clock().micros()).build());
        response.onCompleted();
    }

    @Override
    public void prepare(PrepareRequest request, StreamObserver<PrepareResponse> response) {
        try {
            answer(runs.prepare(toSpec(request, remote())), response);
        } catch (RuntimeException e) {
            response.onError(toStatus(e));
        }
    }

    @Override
    public void prepareStatus(io.kbench.protocol.rpc.PrepareStatusRequest request,
                              StreamObserver<PrepareResponse> response) {
        try {
            answer(runs.prepareStatus(request.getRunId()), response);
        } catch (RuntimeException e) {
            response.onError(toStatus(e));
        }
    }

    /** This host and JVM, read once, at the first Identify (the host name lookup may be slow). */
    private static final class Host {
        static final io.kbench.protocol.rpc.HostFacts FACTS = facts(io.kbench.protocol.HostFacts.local());

        private static io.kbench.protocol.rpc.HostFacts facts(io.kbench.protocol.HostFacts h) {
            return io.kbench.protocol.rpc.HostFacts.newBuilder().setHostName(h.hostName()).setCores(h.cores())
                    .setMemoryBytes(h.memoryBytes()).setOs(h.os()).setJvm(h.jvm()).setMaxHeapBytes(h.maxHeapBytes())
                    .build();
        }
    }

    private static void answer(PrepareStatus status, StreamObserver<PrepareResponse> response) {
        PrepareResponse.Builder b = PrepareResponse.newBuilder().setReady(status.ready())
                .putAllTopicPartitions(status.topicPartitions());
        if (status.cluster() != null) {
            b.setCluster(cluster(status.cluster()));
        }
        for (PrepareStatus.Consumer c : status.consumers()) {
            b.addConsumers(ConsumerState.newBuilder().setConsumerIndex(c.index()).setGroup(c.group())
                    .setAssignedPartitions(c.assignedPartitions()).setJoined(c.joined())
                    .setJoinMicros(c.joinMicros()));
        }
        response.onNext(b.build());
        response.onCompleted();
    }

    @Override
    public void run(RunRequest request, StreamObserver<Snapshot> response) {
        ServerCallStreamObserver<Snapshot> call = (ServerCallStreamObserver<Snapshot>) response;
        SnapshotSink[] self = new SnapshotSink[1];
        SnapshotStream sink = new SnapshotStream(call, SnapshotStream.MAX_PENDING,
                reason -> runs.leaseLost(request.getRunId(), self[0], reason));
        self[0] = sink;
        call.setOnCancelHandler(() -> runs.leaseLost(request.getRunId(), sink,
                "lease lost: the coordinator's stream closed"));
        try {
            runs.run(request.getRunId(), request.getStartMicros(), request.getMeasureStartMicros(),
                    request.getEndMicros(), sink);
        } catch (RuntimeException e) {
            response.onError(toStatus(e));
        }
    }

    @Override
    public void adjustClock(io.kbench.protocol.rpc.AdjustClockRequest request,
                            StreamObserver<io.kbench.protocol.rpc.AdjustClockResponse> response) {
        runs.adjustClock(request.getRunId(), request.getClockOffsetMicros());
        response.onNext(io.kbench.protocol.rpc.AdjustClockResponse.getDefaultInstance());
        response.onCompleted();
    }

    @Override
    public void renewLease(io.kbench.protocol.rpc.RenewLeaseRequest request,
                           StreamObserver<io.kbench.protocol.rpc.RenewLeaseResponse> response) {
        response.onNext(io.kbench.protocol.rpc.RenewLeaseResponse.newBuilder()
                .setRunning(runs.renewLease(request.getRunId())).build());
        response.onCompleted();
    }

    @Override
    public void startConsumers(io.kbench.protocol.rpc.StartConsumersRequest request,
                               StreamObserver<io.kbench.protocol.rpc.StartConsumersResponse> response) {
        runs.startConsumers(request.getRunId());
        response.onNext(io.kbench.protocol.rpc.StartConsumersResponse.getDefaultInstance());
        response.onCompleted();
    }

    @Override
    public void stop(StopRequest request, StreamObserver<StopResponse> response) {
        try {
            runs.stop(request.getRunId(), request.getDeleteTopicsList(), request.getRunFailed());
            response.onNext(StopResponse.getDefaultInstance());
            response.onCompleted();
        } catch (RuntimeException e) {
            response.onError(toStatus(e));
        }
    }

    private static RunSpec toSpec(PrepareRequest r, String coordinator) {
        if (r.getRunId().isEmpty()) {
            throw new WorkerException(WorkerException.Kind.INVALID, "run_id is empty");
        }
        if (r.getPayloads().getMonotonicProducers() < 0 || r.getPayloads().getMonotonicProducers() > 0
                && r.getPayloads().getMonotonicProducers() <= r.getProducersList().stream()
                        .mapToInt(ProducerAssignment::getProducerIndex).max().orElse(-1)) {
            throw new WorkerException(WorkerException.Kind.INVALID, "payloads.monotonic_producers must be 0 or more "
                    + "than every producer index, got " + r.getPayloads().getMonotonicProducers());
        }
        if (r.getMessageSize() < 1 && r.getPayloads().getValuesCount() == 0 && r.getPayloads().getMonotonicProducers() == 0
                || r.getIntervalMicros() < 1000) {
            throw new WorkerException(WorkerException.Kind.INVALID,
                    "message_size must be >= 1 (or payload values given) and interval_micros >= 1000");
        }
        if (r.getMessageSize() > MAX_MESSAGE_SIZE || r.getPayloads().getValuesCount() > MAX_PAYLOAD_VALUES) {
            throw new WorkerException(WorkerException.Kind.INVALID, "message_size must be at most " + MAX_MESSAGE_SIZE
                    + " bytes and payload values at most " + MAX_PAYLOAD_VALUES);
        }
        double ratio = r.getPayloads().getRandomBytesRatio();
        if (ratio < 0 || ratio > 1) {
            throw new WorkerException(WorkerException.Kind.INVALID, "random_bytes_ratio must be 0..1, got " + ratio);
        }
        Keys.Distribution keys = switch (r.getKeys().getDistribution()) {
            case KEY_ROUND_ROBIN -> Keys.Distribution.ROUND_ROBIN;
            case KEY_RANDOM -> Keys.Distribution.RANDOM;
            case KEY_ZIPF -> Keys.Distribution.ZIPF;
            default -> Keys.Distribution.NONE;
        };
        if (keys != Keys.Distribution.NONE && r.getKeys().getCount() < 1
                || keys == Keys.Distribution.ZIPF && !(r.getKeys().getZipfExponent() > 0)) {
            throw new WorkerException(WorkerException.Kind.INVALID, "keys: count must be >= 1 and zipf_exponent > 0");
        }
        List<byte[]> payloads = new ArrayList<>();
        for (ByteString v : r.getPayloads().getValuesList()) {
            payloads.add(v.toByteArray());
        }
        List<TopicSpec> topics = new ArrayList<>();
        for (io.kbench.protocol.rpc.TopicSpec t : r.getCreateTopicsList()) {
            topics.add(new TopicSpec(t.getName(), t.getPartitions(), t.getReplicationFactor(), t.getConfigMap()));
        }
        List<RunSpec.Producer> producers = new ArrayList<>();
        for (ProducerAssignment p : r.getProducersList()) {
            if (p.getRatePerSecond() == 0 || p.getRatePerSecond() < -1) {
                throw new WorkerException(WorkerException.Kind.INVALID,
                        "producer " + p.getProducerIndex() + ": rate must be -1 or >= 1, got " + p.getRatePerSecond());
            }
            if (p.getRecordLimit() < 0) {
                throw new WorkerException(WorkerException.Kind.INVALID,
                        "producer " + p.getProducerIndex() + ": record_limit must be >= 0, got " + p.getRecordLimit());
            }
            producers.add(new RunSpec.Producer(p.getProducerIndex(), p.getTopic(), p.getRatePerSecond(),
                    p.getRecordLimit()));
        }
        List<RunSpec.Consumer> consumers = new ArrayList<>();
        for (ConsumerAssignment c : r.getConsumersList()) {
            consumers.add(new RunSpec.Consumer(c.getConsumerIndex(), c.getTopic(), c.getGroup(), c.getShare()));
        }
        RunSpec.Share share = RunSpec.Share.NONE;
        if (r.hasShare()) {
            io.kbench.protocol.rpc.ShareSettings s = r.getShare();
            if (s.getReleasePpm() < 0 || s.getRejectPpm() < 0 || (long) s.getReleasePpm() + s.getRejectPpm() > 1_000_000) {
                throw new WorkerException(WorkerException.Kind.INVALID, "share settings out of range: release "
                        + s.getReleasePpm() + " and reject " + s.getRejectPpm() + " ppm (0 to 1,000,000 together)");
            }
            if (s.getBacklogGroupsCount() > MAX_BACKLOG_GROUPS) {
                throw new WorkerException(WorkerException.Kind.INVALID, "backlog_groups: at most " + MAX_BACKLOG_GROUPS
                        + " share groups, got " + s.getBacklogGroupsCount());
            }
            share = new RunSpec.Share(s.getExplicit(), s.getReleasePpm(), s.getRejectPpm(), s.getGroupConfigsMap(),
                    s.getBacklogGroupsMap(), s.getCommitSync());
        }
        if (r.getConsumerProcessingMicros() < 0 || r.getConsumerProcessingMicros() > MAX_PROCESSING_MICROS) {
            throw new WorkerException(WorkerException.Kind.INVALID, "consumer_processing_micros must be 0 to "
                    + MAX_PROCESSING_MICROS + ", got " + r.getConsumerProcessingMicros());
        }
        DriverConfig driver = new DriverConfig(r.getDriver().getCommonMap(), r.getDriver().getProducerMap(),
                r.getDriver().getConsumerMap(), r.getDriver().getAdminMap());
        String name = r.getDriver().getName().isEmpty() ? "kafka" : r.getDriver().getName();
        if (r.getVerification() && r.getNoStamp()) {
            throw new WorkerException(WorkerException.Kind.INVALID, "verification needs stamped messages (no_stamp is set)");
        }
        if (r.getWorkload().length() > 200) {
            throw new WorkerException(WorkerException.Kind.INVALID, "workload name longer than 200 characters");
        }
        if (r.getBrokerSourcesCount() > MAX_BROKER_SOURCES) {
            throw new WorkerException(WorkerException.Kind.INVALID, "at most " + MAX_BROKER_SOURCES
                    + " broker sources, got " + r.getBrokerSourcesCount());
        }
        for (String source : r.getBrokerSourcesList()) {
            boolean url = source.matches("https?://[^\\s]{1,2000}");
            if (!source.equals("local") && !url && !source.matches(
                    "(jmx\\+tls://)?([^@\\s/]{1,2000}@)?([A-Za-z0-9.\\-]{1,253}:[0-9]{1,5}|\\[[0-9A-Fa-f:.]{2,45}\\]:[0-9]{1,5})")) {
                String shown = source.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", "$1")
                        .replaceFirst("^[^@\\s/]*@", ""); // no credentials
                throw new WorkerException(WorkerException.Kind.INVALID, "broker source must be \"local\", HOST:PORT or an "
                        + "http(s) URL, got \"" + (shown.length() > 100 ? shown.substring(0, 100) + "..." : shown) + "\"");
            }
        }
        return new RunSpec(r.getRunId(), coordinator, r.getWorkload(), r.getClockOffsetMicros(), name, driver, topics, producers,
                consumers, r.getMessageSize(), r.getIntervalMicros(), payloads, ratio, keys, r.getKeys().getCount(),
                r.getKeys().getZipfExponent(), r.getExistingTopicsList(),
                r.getConsumerStart() == io.kbench.protocol.rpc.ConsumerStart.CONSUMER_START_BEGINNING,
                r.getHoldConsumers(), r.getTransactionRecords(), r.getTransactionMillis(), r.getVerification(),
                !r.getNoStamp(), digest(r), r.getPayloads().getMonotonicProducers(), r.getDumpClientMetrics(),
                r.getConsumerStart() == io.kbench.protocol.rpc.ConsumerStart.CONSUMER_START_COMMITTED,
                r.getBrokerSourcesList(), share, r.getConsumerProcessingMicros(),
                switch (r.getConsumerProcessingDistribution()) {
                    case PROCESSING_UNIFORM -> io.kbench.worker.Processing.Distribution.UNIFORM;
                    case PROCESSING_EXPONENTIAL -> io.kbench.worker.Processing.Distribution.EXPONENTIAL;
                    default -> io.kbench.worker.Processing.Distribution.FIXED;
                });
    }

    /** Most share groups one worker reads the backlog of (a run's most groups). */
    static final int MAX_BACKLOG_GROUPS = 100_000;
    /** Longest processing time per message a consumer takes (one minute). */
    static final long MAX_PROCESSING_MICROS = 60_000_000L;

    /** Most broker sources one worker reads. */
    static final int MAX_BROKER_SOURCES = 100;

    /** SHA-256 of the request's deterministic encoding (map entries in key order), hex. */
    static String digest(PrepareRequest r) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(r.getSerializedSize());
            com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
            out.useDeterministicSerialization();
            r.writeTo(out);
            out.flush();
            return java.util.HexFormat.of().formatHex(sha.digest(bytes.toByteArray()));
        } catch (java.security.NoSuchAlgorithmException | java.io.IOException e) {
            throw new IllegalStateException("cannot fingerprint the prepare request", e);
        }
    }

    private static StatusRuntimeException toStatus(RuntimeException e) {
        if (e instanceof WorkerException w) {
            Status s = switch (w.kind()) {
                case INVALID -> Status.INVALID_ARGUMENT;
                case BUSY -> Status.FAILED_PRECONDITION;
                case NOT_FOUND -> Status.NOT_FOUND;
                case UNAVAILABLE -> Status.UNAVAILABLE;
                case FAILED -> Status.INTERNAL;
            };
            return s.withDescription(w.getMessage()).asRuntimeException();
        }
        LOG.warn("request failed", e);
        return Status.INTERNAL.withDescription(e.getClass().getSimpleName() + ": " + e.getMessage()).asRuntimeException();
    }

    private static String remote() {
        SocketAddress a = ServerCallAddress.current();
        return a == null ? "unknown" : a.toString().replaceFirst("^/", "");
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
