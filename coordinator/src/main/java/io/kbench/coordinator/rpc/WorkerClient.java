package io.kbench.coordinator.rpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.AdjustClockRequest;
import io.kbench.protocol.rpc.ClockPingRequest;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.PrepareStatusRequest;
import io.kbench.protocol.rpc.RenewLeaseRequest;
import io.kbench.protocol.rpc.RenewLeaseResponse;
import io.kbench.protocol.rpc.RunRequest;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.StartConsumersRequest;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.WorkerGrpc;

/**
 * The coordinator's calls to one worker, over any gRPC {@link Channel} (the network one from
 * {@link WorkerChannels}, an in-process one in tests). Messages are mapped by {@link WorkerMessages}, failures
 * by {@link CallFailures} into {@link WorkerCallException}s with one-line messages.
 *
 * <p>Threads: unary calls from any thread; Run's snapshots arrive on gRPC threads.
 *
 * <p>Size: just over 300 lines because it has one short method per call of the protocol (ten) and the
 * records those calls carry; mapping and failure translation live in their own classes.
 */
public final class WorkerClient implements AutoCloseable {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(120);
    /** Stop closes clients (bounded at 15 s each on the worker) and deletes topics (30 s). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    /** A renewal not answered within this is the stream watch's business, not the renewer's. */
    private static final Duration RENEW_TIMEOUT = Duration.ofSeconds(2);

    private final String address;
    private final boolean tls;
    private final ManagedChannel owned;
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
                           String busyCoordinator, String clockId, io.kbench.protocol.HostFacts hostFacts,
                           Map<String, String> drivers, String commit) {
        /** An identity without host facts, drivers or commit (as an older worker answers). */
        public Identity(String id, String version, String host, int cores, String busyRunId, String busyCoordinator,
                        String clockId) {
            this(id, version, host, cores, busyRunId, busyCoordinator, clockId, null, Map.of(), "");
        }
    }

    /**
     * Readiness of a worker's share: every local consumer's group and partition count, and the partition
     * counts of the topics it created or checked, and (from that worker only, else null) the cluster as its
     * driver described it.
     */
    public record Readiness(boolean ready, List<ConsumerReadiness> consumers, Map<String, Integer> topicPartitions,
                            io.kbench.coordinator.report.result.ResultFile.Cluster cluster) {
        /** Readiness without cluster facts. */
        public Readiness(boolean ready, List<ConsumerReadiness> consumers, Map<String, Integer> topicPartitions) {
            this(ready, consumers, topicPartitions, null);
        }
    }

    /** One consumer's assignment state; {@code joinMicros} from building it to its first assignment. */
    public record ConsumerReadiness(int index, String group, int assignedPartitions, boolean joined, long joinMicros) { }

    /**
     * Everything a worker needs to prepare its share; {@code payloads} are a payload file's values or empty;
     * {@code createTopics}, {@code existingTopics}, {@code brokerSources} and {@code shareBacklogGroups} (every share
     * group of the run and the topic it reads, for the worker to read their backlog) are given to one worker only.
     */
    public record Share(String runId, long clockOffsetMicros, Profile profile, List<Plan.Topic> createTopics,
                        List<String> existingTopics, Plan.WorkerAssignment assignment, Plan.ClientSettings clients,
                        Workload workload, List<byte[]> payloads, long intervalMicros, boolean dumpClientMetrics,
                        List<String> brokerSources, java.util.Map<String, String> shareBacklogGroups) {
        public Share {
            brokerSources = brokerSources == null ? List.of() : List.copyOf(brokerSources);
            shareBacklogGroups = shareBacklogGroups == null ? java.util.Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(shareBacklogGroups));
        }

        /** A share that reads no share group's backlog. */
        public Share(String runId, long clockOffsetMicros, Profile profile, List<Plan.Topic> createTopics,
                     List<String> existingTopics, Plan.WorkerAssignment assignment, Plan.ClientSettings clients,
                     Workload workload, List<byte[]> payloads, long intervalMicros, boolean dumpClientMetrics,
                     List<String> brokerSources) {
            this(runId, clockOffsetMicros, profile, createTopics, existingTopics, assignment, clients, workload, payloads,
                    intervalMicros, dumpClientMetrics, brokerSources, java.util.Map.of());
        }

        /** A share whose last snapshot carries no client metrics dumps and that reads no broker's metrics. */
        public Share(String runId, long clockOffsetMicros, Profile profile, List<Plan.Topic> createTopics,
                     List<String> existingTopics, Plan.WorkerAssignment assignment, Plan.ClientSettings clients,
                     Workload workload, List<byte[]> payloads, long intervalMicros) {
            this(runId, clockOffsetMicros, profile, createTopics, existingTopics, assignment, clients, workload, payloads,
                    intervalMicros, false, List.of());
        }
    }

    /** Receives one Run stream's events, on gRPC threads. */
    public interface RunListener {
        void onSnapshot(IntervalSnapshot snapshot);

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
     * A client on a network channel of its own ({@link WorkerChannels#open}), shut down by {@link #close()}.
     *
     * @param address  {@code host:port} of the worker
     * @param security token and TLS settings ({@link ClientSecurity#check() checked} by the caller)
     */
    public WorkerClient(String address, ClientSecurity security) {
        this(address, security.tls(), WorkerChannels.open(address, security));
    }

    /**
     * A client on {@code channel}; a {@link ManagedChannel} is shut down by {@link #close()}, any other is the
     * caller's.
     *
     * @param address the worker's name in messages
     * @param tls     the channel uses TLS (messages about dropped connections say so)
     */
    public WorkerClient(String address, boolean tls, Channel channel) {
        this.address = address;
        this.tls = tls;
        this.owned = channel instanceof ManagedChannel m ? m : null;
        this.blocking = WorkerGrpc.newBlockingStub(channel);
        this.async = WorkerGrpc.newStub(channel);
    }

    public String address() {
        return address;
    }

    private WorkerGrpc.WorkerBlockingStub call(Duration timeout) {
        return blocking.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private WorkerCallException failure(StatusRuntimeException e, String what) {
        return CallFailures.translate(e, address, tls, what);
    }

    public Identity identify() {
        IdentifyResponse r;
        try {
            r = call(CALL_TIMEOUT).identify(IdentifyRequest.newBuilder()
                    .setCoordinatorVersion(Versions.kbench()).setProtocolVersion(Versions.PROTOCOL).build());
        } catch (StatusRuntimeException e) {
            throw failure(e, "identify");
        }
        if (r.getProtocolVersion() != Versions.PROTOCOL) {
            // a worker older than the protocol check would answer without refusing: check here too
            throw new WorkerCallException(WorkerCallException.Kind.REFUSED, "worker " + address + " speaks protocol "
                    + r.getProtocolVersion() + " (kbench " + r.getVersion() + "), this coordinator "
                    + Versions.PROTOCOL + " (kbench " + Versions.kbench() + "): run the same kbench version on both",
                    null);
        }
        return WorkerMessages.identity(r);
    }

    /**
     * Estimates the worker's clock offset from {@code samples} pings, keeping the lowest round trip.
     *
     * @param micros the coordinator's clock
     */
    public ClockEstimator.Estimate clock(int samples, LongSupplier micros) {
        List<ClockEstimator.Sample> taken = new ArrayList<>();
        try {
            for (int i = 0; i < samples; i++) {
                long t0 = micros.getAsLong();
                long tw = call(CALL_TIMEOUT).clockPing(ClockPingRequest.getDefaultInstance()).getWorkerTimeMicros();
                long t1 = micros.getAsLong();
                taken.add(new ClockEstimator.Sample(t0, tw, t1));
            }
        } catch (StatusRuntimeException e) {
            throw failure(e, "clock ping");
        }
        return ClockEstimator.estimate(taken);
    }

    public Readiness prepare(Share share) {
        try {
            return WorkerMessages.readiness(call(PREPARE_TIMEOUT).prepare(WorkerMessages.prepareRequest(share)));
        } catch (StatusRuntimeException e) {
            throw failure(e, "prepare");
        }
    }

    /** The readiness of a run {@link #prepare} sent: a small poll that carries no spec (and no payloads). */
    public Readiness prepareStatus(String runId) {
        try {
            return WorkerMessages.readiness(call(PREPARE_TIMEOUT).prepareStatus(
                    PrepareStatusRequest.newBuilder().setRunId(runId).build()));
        } catch (StatusRuntimeException e) {
            throw failure(e, "prepare");
        }
    }

    /**
     * Opens the Run stream (the worker's lease). Events go to {@code listener}; {@link #cancelRun()} closes
     * the stream from this side, which makes the worker abort.
     */
    public void run(String runId, long startMicros, long measureStartMicros, long endMicros, RunListener listener) {
        RunRequest request = RunRequest.newBuilder().setRunId(runId).setStartMicros(startMicros)
                .setMeasureStartMicros(measureStartMicros).setEndMicros(endMicros).build();
        Context.CancellableContext ctx = Context.current().withCancellation();
        runContext = ctx;
        ctx.run(() -> async.run(request, new StreamObserver<>() {
            @Override
            public void onNext(Snapshot s) {
                listener.onSnapshot(WorkerMessages.snapshot(s));
            }

            @Override
            public void onError(Throwable t) {
                StatusRuntimeException e = t instanceof StatusRuntimeException sre ? sre
                        : Status.fromThrowable(t).asRuntimeException();
                // a worker ends its stream with ABORTED and a reason; a lost connection is the transport's
                CallFailures.connectionLost(e.getStatus(), address).ifPresentOrElse(
                        reason -> listener.onError(reason, true),
                        () -> listener.onError(failure(e, "run stream").getMessage(), false));
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
            call(CALL_TIMEOUT).adjustClock(AdjustClockRequest.newBuilder().setRunId(runId)
                    .setClockOffsetMicros(offsetMicros).build());
        } catch (StatusRuntimeException e) {
            throw failure(e, "adjust clock");
        }
    }

    /**
     * Renews the run's lease on the worker without waiting for the answer (a worker that does not answer
     * within 2 s is the stream watch's business, not this caller's).
     */
    public void renewLease(String runId) {
        renewLease(runId, running -> { });
    }

    /**
     * {@link #renewLease(String)}, and {@code answered} receives whether the worker still holds the run when it
     * answers (on a gRPC thread); nothing when it does not answer within the deadline.
     */
    public void renewLease(String runId, java.util.function.Consumer<Boolean> answered) {
        async.withDeadlineAfter(RENEW_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).renewLease(
                RenewLeaseRequest.newBuilder().setRunId(runId).build(),
                new StreamObserver<RenewLeaseResponse>() {
                    @Override
                    public void onNext(RenewLeaseResponse r) {
                        answered.accept(r.getRunning());
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
    }

    /**
     * The run's counts on the worker so far, live ({@code Progress}): completes with the answer ({@code running}
     * false for a run the worker does not hold), or exceptionally when the worker does not answer within
     * {@code timeout} or does not know the call (a worker of an older build: {@link Status.Code#UNIMPLEMENTED}).
     */
    public java.util.concurrent.CompletableFuture<io.kbench.protocol.rpc.ProgressResponse> progress(String runId,
                                                                                                 Duration timeout) {
        java.util.concurrent.CompletableFuture<io.kbench.protocol.rpc.ProgressResponse> f =
                new java.util.concurrent.CompletableFuture<>();
        async.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS).progress(
                io.kbench.protocol.rpc.ProgressRequest.newBuilder().setRunId(runId).build(),
                new StreamObserver<io.kbench.protocol.rpc.ProgressResponse>() {
                    @Override
                    public void onNext(io.kbench.protocol.rpc.ProgressResponse r) {
                        f.complete(r);
                    }

                    @Override
                    public void onError(Throwable t) {
                        f.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        f.completeExceptionally(new IllegalStateException("no answer")); // no-op after onNext
                    }
                });
        return f;
    }

    /** The topics a {@link #listTopics} call found: the first names asked for, sorted, and how many matched in all. */
    public record TopicList(List<String> names, int matched) { }

    /** Longest a topic listing takes: the worker waits up to 15 s for the cluster. */
    private static final Duration LIST_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The cluster's topics (internal ones left out) whose whole name {@code regex} matches, as the worker lists them
     * with the profile's client settings: at most {@code limit} names, sorted.
     */
    public TopicList listTopics(Profile profile, String regex, int limit) {
        try {
            io.kbench.protocol.rpc.ListTopicsResponse r = call(LIST_TIMEOUT).listTopics(
                    io.kbench.protocol.rpc.ListTopicsRequest.newBuilder().setDriver(WorkerMessages.driverConfig(profile))
                            .setRegex(regex).setLimit(limit).build());
            return new TopicList(List.copyOf(r.getTopicsList()), r.getMatched());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                throw new WorkerCallException(WorkerCallException.Kind.REFUSED, "worker " + address + " cannot list "
                        + "topics (an older kbench): run the same kbench version on both", e);
            }
            throw failure(e, "list topics");
        }
    }

    /** Longest the worker waits for every broker to report changed settings, and this call for the worker. */
    public static final Duration BROKER_CONFIG_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Sets ({@code set}) and removes ({@code delete}) cluster-wide dynamic broker configs through the worker, which
     * waits until every broker reports them; with {@code validateOnly} the cluster only checks them.
     *
     * @return each named config's cluster-wide value before the change; absent when none was set
     */
    public Map<String, String> alterBrokerConfigs(Profile profile, Map<String, String> set, List<String> delete,
                                                  boolean validateOnly) {
        try {
            return Map.copyOf(call(BROKER_CONFIG_TIMEOUT.plusSeconds(15)).alterBrokerConfigs(
                    io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder()
                            .setDriver(WorkerMessages.driverConfig(profile)).putAllSet(set).addAllDelete(delete)
                            .setValidateOnly(validateOnly).setTimeoutMillis(BROKER_CONFIG_TIMEOUT.toMillis()).build())
                    .getPreviousMap());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                throw new WorkerCallException(WorkerCallException.Kind.REFUSED, "worker " + address + " cannot change "
                        + "broker settings (an older kbench): run the same kbench version on both", e);
            }
            throw failure(e, "change broker settings");
        }
    }

    /** Releases the run's held consumers (a backlog run). */
    public void startConsumers(String runId) {
        try {
            call(CALL_TIMEOUT).startConsumers(StartConsumersRequest.newBuilder().setRunId(runId).build());
        } catch (StatusRuntimeException e) {
            throw failure(e, "start consumers");
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
            throw failure(e, "stop");
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

    @Override
    public void close() {
        cancelRun();
        if (owned != null) {
            owned.shutdownNow();
            try {
                owned.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
