package io.kbench.coordinator.rpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.Counters;
import io.kbench.coordinator.merge.WorkerSnapshot;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import com.google.protobuf.ByteString;
import io.kbench.protocol.rpc.KeyDistribution;
import io.kbench.protocol.rpc.KeySpec;
import io.kbench.protocol.rpc.PayloadSpec;
import io.kbench.protocol.ClusterToken;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.ClockPingRequest;
import io.kbench.protocol.rpc.ConsumerAssignment;
import io.kbench.protocol.rpc.ConsumerState;
import io.kbench.protocol.rpc.DriverConfig;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.PrepareResponse;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.protocol.rpc.RunRequest;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.TopicSpec;
import io.kbench.protocol.rpc.WorkerGrpc;

/**
 * The coordinator's connection to one worker: makes the protocol's calls and translates protobuf messages
 * to and from the coordinator's plain types. Failures surface as {@link WorkerCallException} with one-line
 * messages.
 *
 * <p>Keepalive pings detect a worker that vanished without closing the connection (gRPC keeps a client's
 * pings at least 10 s apart, whatever is asked; the coordinator's {@code StreamWatch} notices a silent run
 * stream sooner).
 * Threads: unary calls from the coordinator's thread; Run's snapshots arrive on gRPC threads.
 */
public final class WorkerClient implements AutoCloseable {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(120);
    /** Stop closes clients (bounded at 15 s each on the worker) and deletes topics (30 s). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final String METRICS_WINDOW = "metrics.sample.window.ms";

    private final String address;
    private final boolean tls;
    private final ManagedChannel channel;
    private final WorkerGrpc.WorkerBlockingStub blocking;
    private final WorkerGrpc.WorkerStub async;
    private volatile Context.CancellableContext runContext;
    private volatile Context.CancellableContext stopContext;

    /**
     * Worker identity as it answered Identify; {@code busyRunId} and {@code busyCoordinator} name the run
     * holding it and that run's coordinator (empty when idle); {@code clockId} names the clock it reads (equal
     * to the coordinator's own for an in-process worker).
     */
    public record Identity(String id, String version, String host, int cores, String busyRunId,
                           String busyCoordinator, String clockId) { }

    /**
     * Readiness of a worker's share: every local consumer's group and partition count, and the partition
     * counts of the topics it created or checked.
     */
    public record Readiness(boolean ready, List<ConsumerReadiness> consumers, Map<String, Integer> topicPartitions) { }

    /** One consumer's assignment state; {@code joinMicros} from building it to its first assignment. */
    public record ConsumerReadiness(int index, String group, int assignedPartitions, boolean joined, long joinMicros) { }

    /**
     * Everything a worker needs to prepare its share; {@code payloads} are a payload file's values or empty;
     * {@code createTopics} and {@code existingTopics} are given to one worker only.
     */
    public record Share(String runId, long clockOffsetMicros, Profile profile, List<Plan.Topic> createTopics,
                        List<String> existingTopics, Plan.WorkerAssignment assignment, Workload workload,
                        List<byte[]> payloads, long intervalMicros) { }

    /** Receives one Run stream's events, on gRPC threads. */
    public interface RunListener {
        void onSnapshot(WorkerSnapshot snapshot);

        /**
         * The stream failed; {@code reason} is one line. {@code lost} is true when the connection to the worker
         * failed (process gone, host or network down), false when the worker ended the stream with an error.
         */
        void onError(String reason, boolean lost);

        /** The stream completed normally after the last snapshot. */
        void onCompleted();
    }

    /** @param address {@code host:port} of a worker on loopback, reached in plaintext without a token */
    public WorkerClient(String address) {
        this(address, ClientSecurity.NONE);
    }

    /**
     * @param address  {@code host:port} of the worker
     * @param security token and TLS settings ({@link ClientSecurity#check() checked} by the caller)
     */
    public WorkerClient(String address, ClientSecurity security) {
        this.address = address;
        this.tls = security.tls();
        NettyChannelBuilder builder = NettyChannelBuilder.forTarget(address);
        if (security.tls()) {
            builder.sslContext(security.sslContext()).useTransportSecurity();
            if (security.serverName() != null) {
                builder.overrideAuthority(security.serverName());
            }
        } else {
            builder.usePlaintext();
        }
        if (security.token() != null) {
            builder.intercept(new TokenHeader(security.token()));
        }
        this.channel = builder
                .keepAliveTime(2, TimeUnit.SECONDS)
                .keepAliveTimeout(2, TimeUnit.SECONDS)
                .keepAliveWithoutCalls(true)
                .maxInboundMessageSize(64 * 1024 * 1024)
                .maxInboundMetadataSize(64 * 1024)
                .build();
        this.blocking = WorkerGrpc.newBlockingStub(channel);
        this.async = WorkerGrpc.newStub(channel);
    }

    public String address() {
        return address;
    }

    private WorkerGrpc.WorkerBlockingStub call(Duration timeout) {
        return blocking.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public Identity identify() {
        try {
            IdentifyResponse r = call(CALL_TIMEOUT).identify(IdentifyRequest.newBuilder()
                    .setCoordinatorVersion(Versions.kbench()).setProtocolVersion(Versions.PROTOCOL).build());
            if (r.getProtocolVersion() != Versions.PROTOCOL) {
                // a worker older than the protocol check would answer without refusing: check here too
                throw new WorkerCallException(WorkerCallException.Kind.REFUSED, "worker " + address + " speaks protocol "
                        + r.getProtocolVersion() + " (kbench " + r.getVersion() + "), this coordinator "
                        + Versions.PROTOCOL + " (kbench " + Versions.kbench() + "): run the same kbench version on both",
                        null);
            }
            return new Identity(r.getWorkerId(), r.getVersion(), r.getHost(), r.getCores(), r.getBusyRunId(),
                    r.getBusyCoordinator(), r.getClockId());
        } catch (StatusRuntimeException e) {
            throw translate(e, "identify");
        }
    }

    /** Estimates the worker's clock offset from {@code samples} pings, keeping the lowest round trip. */
    public ClockEstimator.Estimate clock(int samples, MicrosClock clock) {
        List<ClockEstimator.Sample> taken = new ArrayList<>();
        try {
            for (int i = 0; i < samples; i++) {
                long t0 = clock.micros();
                long tw = call(CALL_TIMEOUT).clockPing(ClockPingRequest.getDefaultInstance()).getWorkerTimeMicros();
                long t1 = clock.micros();
                taken.add(new ClockEstimator.Sample(t0, tw, t1));
            }
        } catch (StatusRuntimeException e) {
            throw translate(e, "clock ping");
        }
        return ClockEstimator.estimate(taken);
    }

    public Readiness prepare(Share share) {
        Profile p = share.profile();
        DriverConfig.Builder driver = DriverConfig.newBuilder().setName(p.driver())
                .putAllCommon(p.common()).putCommon("bootstrap.servers", p.bootstrapServers())
                .putAllProducer(p.producer()).putAllConsumer(p.consumer()).putAllAdmin(p.admin());
        // the clients' windowed metrics (averages, maxima) cover about one reporting interval, not 30 s
        if (!p.common().containsKey(METRICS_WINDOW)) {
            String window = Long.toString(Math.max(1, share.intervalMicros() / 1000));
            if (!p.producer().containsKey(METRICS_WINDOW)) {
                driver.putProducer(METRICS_WINDOW, window);
            }
            if (!p.consumer().containsKey(METRICS_WINDOW)) {
                driver.putConsumer(METRICS_WINDOW, window);
            }
        }
        PrepareRequest.Builder b = PrepareRequest.newBuilder()
                .setRunId(share.runId())
                .setClockOffsetMicros(share.clockOffsetMicros())
                .setDriver(driver)
                .setMessageSize(share.workload().messageSize())
                .setIntervalMicros(share.intervalMicros())
                .setPayloads(payloads(share))
                .addAllExistingTopics(share.existingTopics())
                .setConsumerStart(share.workload().producerCount() == 0
                        ? io.kbench.protocol.rpc.ConsumerStart.CONSUMER_START_BEGINNING
                        : io.kbench.protocol.rpc.ConsumerStart.CONSUMER_START_END)
                .setHoldConsumers(share.workload().consumerBacklogRecords() > 0)
                .setTransactionRecords(share.workload().transactionRecords())
                .setTransactionMillis(share.workload().transactionMillis())
                .setVerification(share.workload().verification())
                .setKeys(KeySpec.newBuilder().setDistribution(switch (share.workload().keyDistribution()) {
                    case none -> KeyDistribution.KEY_NONE;
                    case roundRobin -> KeyDistribution.KEY_ROUND_ROBIN;
                    case random -> KeyDistribution.KEY_RANDOM;
                    case zipf -> KeyDistribution.KEY_ZIPF;
                }).setCount(share.workload().keys()).setZipfExponent(share.workload().zipfExponent()));
        for (Plan.Topic t : share.createTopics()) {
            b.addCreateTopics(TopicSpec.newBuilder().setName(t.name()).setPartitions(t.partitions())
                    .setReplicationFactor(p.replicationFactor()).putAllConfig(p.topic()));
        }
        for (Plan.ProducerTask t : share.assignment().producers()) {
            b.addProducers(ProducerAssignment.newBuilder().setProducerIndex(t.index()).setTopic(t.topic())
                    .setRatePerSecond(t.ratePerSecond()).setRecordLimit(t.recordLimit()));
        }
        for (Plan.ConsumerTask t : share.assignment().consumers()) {
            b.addConsumers(ConsumerAssignment.newBuilder().setConsumerIndex(t.index()).setTopic(t.topic())
                    .setGroup(t.group()));
        }
        try {
            return readiness(call(PREPARE_TIMEOUT).prepare(b.build()));
        } catch (StatusRuntimeException e) {
            throw translate(e, "prepare");
        }
    }

    /** The readiness of a run {@link #prepare} sent: a small poll that carries no spec (and no payloads). */
    public Readiness prepareStatus(String runId) {
        try {
            return readiness(call(PREPARE_TIMEOUT).prepareStatus(
                    io.kbench.protocol.rpc.PrepareStatusRequest.newBuilder().setRunId(runId).build()));
        } catch (StatusRuntimeException e) {
            throw translate(e, "prepare");
        }
    }

    private static Readiness readiness(PrepareResponse r) {
        List<ConsumerReadiness> cs = new ArrayList<>();
        for (ConsumerState c : r.getConsumersList()) {
            cs.add(new ConsumerReadiness(c.getConsumerIndex(), c.getGroup(), c.getAssignedPartitions(), c.getJoined(),
                    c.getJoinMicros()));
        }
        return new Readiness(r.getReady(), cs, r.getTopicPartitionsMap());
    }

    private static PayloadSpec.Builder payloads(Share share) {
        PayloadSpec.Builder p = PayloadSpec.newBuilder().setRandomBytesRatio(share.workload().randomBytesRatio());
        if (!share.assignment().producers().isEmpty()) {
            share.payloads().forEach(v -> p.addValues(ByteString.copyFrom(v)));
        }
        return p;
    }

    /**
     * Opens the Run stream (the worker's lease). Events go to {@code listener}; {@link #cancelRun()} closes
     * the stream from this side, which makes the worker abort.
     */
    public void run(String runId, long startMicros, long endMicros, RunListener listener) {
        RunRequest request = RunRequest.newBuilder().setRunId(runId).setStartMicros(startMicros)
                .setEndMicros(endMicros).build();
        Context.CancellableContext ctx = Context.current().withCancellation();
        runContext = ctx;
        ctx.run(() -> async.run(request, new StreamObserver<>() {
            @Override
            public void onNext(Snapshot s) {
                io.kbench.protocol.rpc.Counters c = s.getCounters();
                listener.onSnapshot(new WorkerSnapshot(s.getWorkerId(), s.getSequence(), s.getStartMicros(),
                        s.getEndMicros(),
                        new Counters(c.getSent(), c.getAcked(), c.getFailed(), c.getAckedBytes(), c.getReceived(),
                                c.getReceivedBytes(), c.getClamped(), c.getNegativeEndToEnd(), c.getLost(),
                                c.getDuplicated(), c.getOutOfOrder(), c.getVerified(), c.getUntracked()),
                        s.getHistograms().getPublishLatency().toByteArray(),
                        s.getHistograms().getPublishResponse().toByteArray(),
                        s.getHistograms().getPublishDelay().toByteArray(),
                        s.getHistograms().getEndToEnd().toByteArray(),
                        s.getHistograms().getTransactionCommit().toByteArray(),
                        s.getProducersDone(), s.getProducersDoneMicros(), s.getLastReceiveMicros(), s.getLast(),
                        s.getError(), s.getConsumerLag(),
                        new ClientSample(s.getProducerMetrics().getClients(), s.getProducerMetrics().getValuesMap()),
                        new ClientSample(s.getConsumerMetrics().getClients(), s.getConsumerMetrics().getValuesMap())));
            }

            @Override
            public void onError(Throwable t) {
                StatusRuntimeException e = t instanceof StatusRuntimeException sre ? sre
                        : Status.fromThrowable(t).asRuntimeException();
                // a worker ends its stream with ABORTED and a reason; UNAVAILABLE means the connection is gone
                Status.Code code = e.getStatus().getCode();
                boolean lost = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
                        || code == Status.Code.UNKNOWN && e.getStatus().getCause() != null;
                if (lost) {
                    Throwable cause = e.getStatus().getCause();
                    String detail = cause != null && cause.getMessage() != null ? cause.getMessage()
                            : e.getStatus().getDescription() != null ? e.getStatus().getDescription() : code.toString();
                    listener.onError("lost the connection to worker " + address + ": "
                            + detail.replaceFirst("^.*failed with error\\(-?\\d+\\): ", ""), true);
                } else {
                    listener.onError(translate(e, "run stream").getMessage(), false);
                }
            }

            @Override
            public void onCompleted() {
                listener.onCompleted();
            }
        }));
    }

    /** Closes the Run stream from this side (the worker aborts its load). */
    public void cancelRun() {
        Context.CancellableContext ctx = runContext;
        if (ctx != null) {
            ctx.cancel(null);
        }
    }

    /** Hands the worker a newer estimate of its clock offset for the run. */
    public void adjustClock(String runId, long offsetMicros) {
        try {
            call(CALL_TIMEOUT).adjustClock(io.kbench.protocol.rpc.AdjustClockRequest.newBuilder().setRunId(runId)
                    .setClockOffsetMicros(offsetMicros).build());
        } catch (StatusRuntimeException e) {
            throw translate(e, "adjust clock");
        }
    }

    /**
     * Renews the run's lease on the worker without waiting for the answer (a worker that does not answer
     * within 2 s is the stream watch's business, not this caller's).
     */
    public void renewLease(String runId) {
        async.withDeadlineAfter(2, TimeUnit.SECONDS).renewLease(
                io.kbench.protocol.rpc.RenewLeaseRequest.newBuilder().setRunId(runId).build(),
                new StreamObserver<>() {
                    @Override
                    public void onNext(io.kbench.protocol.rpc.RenewLeaseResponse r) {
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
    }

    /** Releases the run's held consumers (a backlog run). */
    public void startConsumers(String runId) {
        try {
            call(CALL_TIMEOUT).startConsumers(io.kbench.protocol.rpc.StartConsumersRequest.newBuilder().setRunId(runId).build());
        } catch (StatusRuntimeException e) {
            throw translate(e, "start consumers");
        }
    }

    /**
     * Stops the run on the worker; returns once the worker has closed its clients (bounded), or when
     * {@link #abandon()} gives up on the worker. {@code runFailed} makes the worker stop at once instead of
     * draining.
     */
    public void stop(String runId, List<String> deleteTopics, boolean runFailed) {
        Context.CancellableContext ctx = Context.current().withCancellation();
        stopContext = ctx;
        Context previous = ctx.attach();
        try {
            call(STOP_TIMEOUT).stop(StopRequest.newBuilder().setRunId(runId)
                    .addAllDeleteTopics(deleteTopics).setRunFailed(runFailed).build());
        } catch (StatusRuntimeException e) {
            throw translate(e, "stop");
        } finally {
            ctx.detach(previous);
            ctx.cancel(null);
        }
    }

    /** Gives up on a worker whose connection is lost: cancels its run stream and any Stop call under way. */
    public void abandon() {
        cancelRun();
        Context.CancellableContext ctx = stopContext;
        if (ctx != null) {
            ctx.cancel(null);
        }
    }

    private WorkerCallException translate(StatusRuntimeException e, String what) {
        Status s = e.getStatus();
        String desc = s.getDescription() == null ? s.getCode().toString() : s.getDescription();
        javax.net.ssl.SSLException tlsFailure = cause(e, javax.net.ssl.SSLException.class);
        if (tlsFailure != null) {
            return new WorkerCallException(WorkerCallException.Kind.REFUSED, "TLS handshake with worker " + address
                    + " failed (" + what + "): " + tlsFailure.getMessage() + (tls
                    ? " (check --tls-ca, --tls-cert/--tls-key and the worker's certificate)"
                    : " (the worker serves TLS: give --tls and --tls-ca)"), e);
        }
        if (s.getCode() == Status.Code.UNAUTHENTICATED) {
            return new WorkerCallException(WorkerCallException.Kind.REFUSED, desc, e);
        }
        boolean transport = s.getCause() != null || s.getCode() == Status.Code.DEADLINE_EXCEEDED && what.equals("identify");
        if (s.getCode() == Status.Code.UNAVAILABLE && transport || s.getCode() == Status.Code.DEADLINE_EXCEEDED && transport) {
            String cause = s.getCause() != null && s.getCause().getMessage() != null ? s.getCause().getMessage() : desc;
            cause = cause.replaceFirst("^.*failed with error\\(-?\\d+\\): ", "");
            return new WorkerCallException(WorkerCallException.Kind.UNREACHABLE,
                    "cannot reach worker " + address + " (" + what + "): " + cause + tlsHint(cause), e);
        }
        if (s.getCode() == Status.Code.UNAVAILABLE && desc.contains("Network closed")) {
            return new WorkerCallException(WorkerCallException.Kind.UNREACHABLE, "worker " + address + " (" + what
                    + ") closed the connection: " + desc + tlsHint(desc), e);
        }
        WorkerCallException.Kind kind = switch (s.getCode()) {
            case INVALID_ARGUMENT, FAILED_PRECONDITION, NOT_FOUND -> WorkerCallException.Kind.REFUSED;
            case UNAVAILABLE -> WorkerCallException.Kind.CLUSTER_UNREACHABLE;
            default -> WorkerCallException.Kind.FAILED;
        };
        return new WorkerCallException(kind, "worker " + address + " (" + what + "): " + desc, e);
    }

    /**
     * A TLS worker answers a plaintext client by closing or resetting the connection, which looks like any
     * dropped connection: say what is the likely cause.
     */
    private String tlsHint(String failure) {
        boolean dropped = failure.contains("reset") || failure.contains("Network closed");
        return !tls && dropped ? " (if the worker serves TLS, give --tls and --tls-ca)" : "";
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** Adds the cluster token to the headers of every call on the channel. */
    private record TokenHeader(ClusterToken token) implements ClientInterceptor {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void start(Listener<R> listener, Metadata headers) {
                    token.addTo(headers);
                    super.start(listener, headers);
                }
            };
        }
    }

    @Override
    public void close() {
        cancelRun();
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
