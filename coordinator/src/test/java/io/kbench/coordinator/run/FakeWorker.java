package io.kbench.coordinator.run;

import java.util.ArrayList;
import java.util.List;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.AdjustClockRequest;
import io.kbench.protocol.rpc.AdjustClockResponse;
import io.kbench.protocol.rpc.ClockPingRequest;
import io.kbench.protocol.rpc.ClockPingResponse;
import io.kbench.protocol.rpc.ConsumerState;
import io.kbench.protocol.rpc.Counters;
import io.kbench.protocol.rpc.Histograms;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.PrepareResponse;
import io.kbench.protocol.rpc.PrepareStatusRequest;
import io.kbench.protocol.rpc.RenewLeaseRequest;
import io.kbench.protocol.rpc.RenewLeaseResponse;
import io.kbench.protocol.rpc.RunRequest;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.StartConsumersRequest;
import io.kbench.protocol.rpc.StartConsumersResponse;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.StopResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import org.HdrHistogram.Histogram;

/**
 * A worker played by the test, on the simulated clock: it accepts its share, and once the run starts emits
 * one snapshot per interval as time passes (its producers' share of the rate, every message acknowledged and
 * received, 2 ms latencies). It keeps the protocol's rules — the lease expires 5 s after the last renewal, a
 * stop ends the stream after a last snapshot — and can misbehave on cue: fall silent, lose its connection,
 * fail sends.
 */
final class FakeWorker extends WorkerGrpc.WorkerImplBase {
    static final long LEASE_MICROS = 5_000_000;

    private final String id;
    private final SimulatedClock clock;
    private final String clockId;
    private PrepareRequest spec;
    private StreamObserver<Snapshot> stream;
    private long startMicros;
    private long endMicros;
    private long intervalMicros;
    private long rate;
    private long limit;
    private long sent;
    private long sequence;
    private long lastRenewal;
    private boolean ended;
    /** Emits nothing from this interval on (a hung process, a cut network), -1 never. */
    long silentFrom = -1;
    /** Breaks the connection when this interval is due, -1 never. */
    long disconnectAt = -1;
    /** Reports every send of this interval on as failed, -1 never. */
    long failFrom = -1;
    /** Partitions each of its consumers owns once joined (the test knows how many consumers share a group). */
    int partitionsPerConsumer = 6;
    final List<String> events = new ArrayList<>();
    /**
     * Says its producers are done only in the snapshot after the planned end, as a real worker does (its last sends
     * complete after the boundary); otherwise already in the one that ends there.
     */
    boolean doneLate;
    /** Answers Progress with its counts so far; false: as a worker of an older build (UNIMPLEMENTED). */
    boolean knowsProgress = true;
    /** When each Progress call of a running run came, µs after the run's start. */
    final List<Long> progressCalls = new ArrayList<>();
    /** Clock time of the Stop call, 0 before. */
    long stoppedAtMicros;

    FakeWorker(String id, SimulatedClock clock, String clockId) {
        this.id = id;
        this.clock = clock;
        this.clockId = clockId;
        clock.onAdvance(this::advance);
    }

    /** The run's planned end (RunRequest.end_micros), 0 before Run. */
    synchronized long plannedEndMicros() {
        return endMicros;
    }

    @Override
    public void identify(IdentifyRequest r, StreamObserver<IdentifyResponse> out) {
        out.onNext(IdentifyResponse.newBuilder().setWorkerId(id).setVersion(Versions.kbench()).setHost("sim")
                .setCores(2).setProtocolVersion(Versions.PROTOCOL).setClockId(clockId).build());
        out.onCompleted();
    }

    @Override
    public void clockPing(ClockPingRequest r, StreamObserver<ClockPingResponse> out) {
        out.onNext(ClockPingResponse.newBuilder().setWorkerTimeMicros(clock.micros()).build());
        out.onCompleted();
    }

    @Override
    public synchronized void prepare(PrepareRequest r, StreamObserver<PrepareResponse> out) {
        spec = r;
        intervalMicros = r.getIntervalMicros();
        rate = r.getProducersList().stream().mapToLong(p -> p.getRatePerSecond()).sum();
        limit = r.getProducersList().stream().mapToLong(p -> p.getRecordLimit()).sum();
        events.add("prepare");
        out.onNext(readiness());
        out.onCompleted();
    }

    private PrepareResponse readiness() {
        PrepareResponse.Builder b = PrepareResponse.newBuilder().setReady(true);
        int partitions = partitionsPerConsumer;
        spec.getCreateTopicsList().forEach(t -> b.putTopicPartitions(t.getName(), t.getPartitions()));
        spec.getConsumersList().forEach(c -> b.addConsumers(ConsumerState.newBuilder().setConsumerIndex(c.getConsumerIndex())
                .setGroup(c.getGroup()).setAssignedPartitions(partitions).setJoined(true).setJoinMicros(1000)));
        return b.build();
    }

    @Override
    public synchronized void prepareStatus(PrepareStatusRequest r, StreamObserver<PrepareResponse> out) {
        out.onNext(readiness());
        out.onCompleted();
    }

    @Override
    public synchronized void run(RunRequest r, StreamObserver<Snapshot> out) {
        stream = out;
        startMicros = r.getStartMicros();
        endMicros = r.getEndMicros();
        lastRenewal = clock.micros();
        events.add("run");
    }

    @Override
    public synchronized void renewLease(RenewLeaseRequest r, StreamObserver<RenewLeaseResponse> out) {
        lastRenewal = clock.micros();
        out.onNext(RenewLeaseResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public synchronized void progress(io.kbench.protocol.rpc.ProgressRequest r,
                                      StreamObserver<io.kbench.protocol.rpc.ProgressResponse> out) {
        if (!knowsProgress) {
            out.onError(Status.UNIMPLEMENTED.withDescription("unknown method").asRuntimeException());
            return;
        }
        if (stream == null || ended || failFrom >= 0) {
            out.onNext(io.kbench.protocol.rpc.ProgressResponse.getDefaultInstance());
            out.onCompleted();
            return;
        }
        long now = clock.micros();
        progressCalls.add(now - startMicros);
        long due = (Math.min(now, endMicros) - startMicros) * rate / 1_000_000;
        if (limit > 0) {
            due = Math.min(due, limit);
        }
        boolean done = now >= endMicros || limit > 0 && due >= limit;
        long received = spec.getConsumersCount() == 0 ? 0 : due;
        out.onNext(io.kbench.protocol.rpc.ProgressResponse.newBuilder().setRunning(true).setProducersDone(done)
                .setTotals(Counters.newBuilder().setSent(due).setAcked(due).setAckedBytes(due * 100)
                        .setReceived(received).setReceivedBytes(received * 100)).build());
        out.onCompleted();
    }

    @Override
    public void adjustClock(AdjustClockRequest r, StreamObserver<AdjustClockResponse> out) {
        out.onNext(AdjustClockResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public void startConsumers(StartConsumersRequest r, StreamObserver<StartConsumersResponse> out) {
        out.onNext(StartConsumersResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public synchronized void stop(StopRequest r, StreamObserver<StopResponse> out) {
        events.add(r.getRunFailed() ? "stop (run failed)" : "stop");
        stoppedAtMicros = clock.micros();
        if (stream != null && !ended) {
            emit(true);
            stream.onCompleted();
            ended = true;
        }
        out.onNext(StopResponse.getDefaultInstance());
        out.onCompleted();
    }

    /** Time moved: the lease may have run out, and every interval that ended is reported. */
    private synchronized void advance(long now) {
        if (stream == null || ended) {
            return;
        }
        if (now - lastRenewal > LEASE_MICROS) {
            events.add("lease expired");
            ended = true;
            try {
                stream.onError(Status.ABORTED.withDescription("worker " + id + ": lease expired").asRuntimeException());
            } catch (RuntimeException e) {
                // the coordinator gave up on this stream already
            }
            return;
        }
        while (startMicros + (sequence + 1) * intervalMicros <= now) {
            if (sequence == disconnectAt) {
                events.add("disconnected");
                ended = true;
                stream.onError(Status.UNAVAILABLE.withDescription("Connection reset by peer")
                        .withCause(new java.io.IOException("Connection reset by peer")).asRuntimeException());
                return;
            }
            if (silentFrom >= 0 && sequence >= silentFrom) {
                return;
            }
            emit(false);
        }
    }

    private void emit(boolean last) {
        long from = startMicros + sequence * intervalMicros;
        long to = last ? Math.max(from, clock.micros()) : from + intervalMicros;
        long due = to <= endMicros ? (to - startMicros) * rate / 1_000_000 : (endMicros - startMicros) * rate / 1_000_000;
        if (limit > 0) {
            due = Math.min(due, limit);
        }
        long n = Math.max(0, due - sent);
        sent += n;
        boolean failing = failFrom >= 0 && sequence >= failFrom;
        Histogram h = LatencyHistograms.create();
        if (n > 0 && !failing) {
            h.recordValueWithCount(2_000, n);
        }
        ByteString lat = ByteString.copyFrom(LatencyHistograms.encode(h));
        ByteString none = ByteString.copyFrom(LatencyHistograms.encode(LatencyHistograms.create()));
        boolean done = (doneLate ? from >= endMicros : to >= endMicros) || limit > 0 && sent >= limit;
        long received = failing || spec.getConsumersCount() == 0 ? 0 : n; // its consumer reads its producer's topic
        stream.onNext(Snapshot.newBuilder().setWorkerId(id).setSequence(sequence).setStartMicros(from).setEndMicros(to)
                .setCounters(Counters.newBuilder().setSent(n).setAcked(failing ? 0 : n).setFailed(failing ? n : 0)
                        .setAckedBytes(failing ? 0 : n * 100).setReceived(received).setReceivedBytes(received * 100))
                .setHistograms(Histograms.newBuilder().setPublishLatency(lat).setPublishResponse(lat)
                        .setPublishDelay(none).setEndToEnd(failing ? none : lat).setTransactionCommit(none))
                .setProducersDone(done).setProducersDoneMicros(done ? Math.min(to, endMicros) : 0)
                .setLastReceiveMicros(received > 0 ? to : 0).setLast(last).setConsumerLag(0)
                .setError(failing ? "send failed: simulated" : "").build());
        sequence++;
    }
}
