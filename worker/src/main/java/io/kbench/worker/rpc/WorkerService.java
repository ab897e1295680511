package io.kbench.worker.rpc;

import java.net.InetAddress;
import java.net.SocketAddress;
import java.util.List;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.ClockPingRequest;
import io.kbench.protocol.rpc.ClockPingResponse;
import io.kbench.protocol.rpc.ConsumerState;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.PrepareResponse;
import io.kbench.protocol.rpc.RunRequest;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.StopResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import io.kbench.worker.PrepareStatus;
import io.kbench.worker.RunManager;
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
            answer(runs.prepare(PrepareRequests.toSpec(request, remote())), response);
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
    public void progress(io.kbench.protocol.rpc.ProgressRequest request,
                         StreamObserver<io.kbench.protocol.rpc.ProgressResponse> response) {
        io.kbench.protocol.rpc.ProgressResponse p = runs.progress(request.getRunId());
        response.onNext(p == null ? io.kbench.protocol.rpc.ProgressResponse.getDefaultInstance() : p);
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

    @Override
    public void listTopics(io.kbench.protocol.rpc.ListTopicsRequest request,
                           StreamObserver<io.kbench.protocol.rpc.ListTopicsResponse> response) {
        try {
            PrepareRequests.TopicQuery q = PrepareRequests.topicQuery(request);
            List<String> names = runs.listTopics(q.driverName(), q.config(), q.regex());
            response.onNext(io.kbench.protocol.rpc.ListTopicsResponse.newBuilder()
                    .addAllTopics(names.subList(0, Math.min(q.limit(), names.size()))).setMatched(names.size()).build());
            response.onCompleted();
        } catch (RuntimeException e) {
            response.onError(toStatus(e));
        }
    }

    @Override
    public void alterBrokerConfigs(io.kbench.protocol.rpc.AlterBrokerConfigsRequest request,
                                   StreamObserver<io.kbench.protocol.rpc.AlterBrokerConfigsResponse> response) {
        try {
            PrepareRequests.BrokerConfigChange c = PrepareRequests.brokerConfigChange(request);
            java.util.Map<String, String> previous = runs.alterBrokerConfigs(c.driverName(), c.config(), c.set(),
                    c.delete(), c.validateOnly(), c.timeout());
            response.onNext(io.kbench.protocol.rpc.AlterBrokerConfigsResponse.newBuilder().putAllPrevious(previous).build());
            response.onCompleted();
        } catch (RuntimeException e) {
            response.onError(toStatus(e));
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
