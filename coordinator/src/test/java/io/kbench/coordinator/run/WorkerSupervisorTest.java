package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.protocol.rpc.AdjustClockRequest;
import io.kbench.protocol.rpc.AdjustClockResponse;
import io.kbench.protocol.rpc.ClockPingRequest;
import io.kbench.protocol.rpc.ClockPingResponse;
import io.kbench.protocol.rpc.RenewLeaseRequest;
import io.kbench.protocol.rpc.RenewLeaseResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One worker's supervisor against a fake worker on gRPC's in-process transport; the supervisor's turns are
 * called with chosen instants, so renewal, silence and clock re-checks are checked without waiting.
 */
class WorkerSupervisorTest {
    private static final long S = 1_000_000;
    private static final long START = 1_000 * S;

    /** Counts renewals, answers pings with a clock {@link #offset} ahead of the caller's, records adjustments. */
    static final class FakeWorker extends WorkerGrpc.WorkerImplBase {
        final AtomicInteger renewals = new AtomicInteger();
        final AtomicLong offset = new AtomicLong();
        /** Whether a renewal is answered holding the run. */
        volatile boolean running;
        final List<Long> adjusted = new ArrayList<>();
        volatile long nowMicros;

        @Override
        public void renewLease(RenewLeaseRequest r, StreamObserver<RenewLeaseResponse> out) {
            renewals.incrementAndGet();
            out.onNext(RenewLeaseResponse.newBuilder().setRunning(running).build());
            out.onCompleted();
        }

        @Override
        public void clockPing(ClockPingRequest r, StreamObserver<ClockPingResponse> out) {
            out.onNext(ClockPingResponse.newBuilder().setWorkerTimeMicros(nowMicros + offset.get()).build());
            out.onCompleted();
        }

        @Override
        public synchronized void adjustClock(AdjustClockRequest r, StreamObserver<AdjustClockResponse> out) {
            adjusted.add(r.getClockOffsetMicros());
            out.onNext(AdjustClockResponse.getDefaultInstance());
            out.onCompleted();
        }
    }

    /** A clock that reads {@link #micros} and never waits. */
    static final class ManualClock implements CoordinatorClock {
        volatile long micros = START;

        @Override
        public long micros() {
            return micros;
        }

        @Override
        public String id() {
            return "manual";
        }

        @Override
        public void sleep(Duration duration) {
            micros += duration.toNanos() / 1000;
        }
    }

    private final FakeWorker fake = new FakeWorker();
    private final ManualClock clock = new ManualClock();
    private final List<String> silences = new ArrayList<>();
    private final AtomicInteger clockChanges = new AtomicInteger();
    private Server server;
    private WorkerClient client;

    @BeforeEach
    void start() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(fake).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        client = new WorkerClient("w1:7070", false, channel);
    }

    @AfterEach
    void stop() {
        client.close();
        server.shutdownNow();
    }

    private WorkerSupervisor supervisor(ClockEstimator.WorkerClock workerClock) {
        return new WorkerSupervisor(3, client, workerClock, "r1", clock, START, S, new WorkerSupervisor.Events() {
            @Override
            public void silent(int index, String reason) {
                silences.add(index + ": " + reason);
            }

            @Override
            public void clockChanged(int index) {
                clockChanges.incrementAndGet();
            }
        });
    }

    @Test
    void shouldRenewTheLeaseOncePerSecondOfItsClock() {
        WorkerSupervisor s = supervisor(ClockEstimator.WorkerClock.same());
        for (long t = START; t < START + 5 * S; t += 200_000) {
            assertTrue(s.heartbeat(t));
        }
        assertEquals(5, fake.renewals.get(), "25 turns of 200 ms: 5 renewals");
        s.lost();
        assertEquals(false, s.heartbeat(START + 6 * S), "a lost worker's heartbeat ends");
        assertEquals(5, fake.renewals.get(), "and it is not renewed any more");
    }

    @Test
    void shouldDeclareASilentWorkerLostAfterTwoIntervalsAndTwoSecondsButNotOnceItsStreamClosed() {
        WorkerSupervisor s = supervisor(ClockEstimator.WorkerClock.same());
        s.heard(START + S);
        s.heartbeat(START + 5 * S);
        assertEquals(List.of(), silences, "4 s quiet: not yet");
        s.heartbeat(START + 5 * S + 1);
        assertEquals(1, silences.size());
        assertEquals("3: lost the connection to worker w1:7070: no snapshot for 4.0 s (one is due every 1 s)",
                silences.get(0));

        WorkerSupervisor closed = supervisor(ClockEstimator.WorkerClock.same());
        closed.streamClosed();
        closed.heartbeat(START + 60 * S);
        WorkerSupervisor ended = supervisor(ClockEstimator.WorkerClock.same());
        ended.endOfRun();
        ended.heartbeat(START + 60 * S);
        assertEquals(1, silences.size(), "a closed stream, or a run whose end is decided, is not watched");
        assertTrue(fake.renewals.get() >= 3, "but the lease is still renewed after the end is decided");
    }

    /** A silence after a snapshot that showed the JVM collecting with its heap nearly full names the heap, not the CPU. */
    @Test
    void shouldNameTheHeapWhenTheLastSnapshotShowedTheJvmCollecting() {
        fake.running = true;
        WorkerSupervisor s = supervisor(ClockEstimator.WorkerClock.same());
        long mb = 1L << 20;
        // 534 ms of a 1-s interval collecting, 218 of 256 MB left after collection (measured, 2026-12-01)
        s.heard(START + S, new io.kbench.protocol.HostSample(2, 1_000_000, 780_000, 534_000, 6, 218 * mb, 256 * mb,
                "", 0));
        for (long t = START + S; silences.isEmpty() && t <= START + 7 * S; t += 200_000) {
            clock.micros = t;
            s.heartbeat(t);
        }
        assertEquals(1, silences.size(), silences.toString());
        assertTrue(silences.get(0).startsWith("3: worker w1:7070 holds the run and answers, but sent no snapshot for "),
                silences.get(0));
        assertTrue(silences.get(0).contains(": its JVM is most likely collecting garbage (its last snapshot: 53% of the "
                + "interval in collections, its heap 85% full after collection): a heap too small for its clients"),
                silences.get(0));
        // a calm last snapshot leaves the CPU as the likelier cause
        assertTrue(WorkerSupervisor.silenceCause(new io.kbench.protocol.HostSample(2, 1_000_000, 300_000, 10_000, 1,
                50 * mb, 256 * mb, "", 0)).startsWith("its process is starved of CPU"));
        assertTrue(WorkerSupervisor.silenceCause(null).startsWith("its process is starved of CPU"));
    }

    /**
     * 50 producers and 50 consumers in one in-process worker on 2 cores: its snapshot thread got too little CPU for
     * 4 s, and the run failed saying it had lost the connection to a worker that cannot lose it.
     */
    @Test
    void shouldSayAWorkerThatAnswersButSendsNoSnapshotIsStarvedNotDisconnected() {
        fake.running = true;
        WorkerSupervisor s = supervisor(ClockEstimator.WorkerClock.same());
        for (long t = START; silences.isEmpty() && t <= START + 5 * S; t += 200_000) {
            clock.micros = t;
            s.heartbeat(t);
        }
        assertEquals(1, silences.size(), silences.toString());
        assertEquals("3: worker w1:7070 holds the run and answers, but sent no snapshot for 4.2 s (one is due every "
                + "1 s): its process is starved of CPU (too many clients for its cores?) or its snapshot thread is "
                + "stuck", silences.get(0));

        // answers that stopped before the silence's threshold: not there any more
        silences.clear();
        WorkerSupervisor gone = supervisor(ClockEstimator.WorkerClock.same());
        clock.micros = START;
        gone.heartbeat(START);
        fake.running = false;
        for (long t = START + 200_000; silences.isEmpty() && t <= START + 5 * S; t += 200_000) {
            clock.micros = t;
            gone.heartbeat(t);
        }
        assertEquals(List.of("3: lost the connection to worker w1:7070: no snapshot for 4.2 s (one is due every 1 s)"),
                silences);
    }

    @Test
    void shouldReplaceAClockEstimateThatNoLongerHoldsAndTellTheWorker() {
        ClockEstimator.WorkerClock wc = ClockEstimator.WorkerClock.estimated(new ClockEstimator.Estimate(0, 50));
        WorkerSupervisor s = supervisor(wc);
        fake.offset.set(2 * S); // the worker's clock jumped 2 s ahead
        assertTrue(s.recheckClock(START + S));
        assertEquals(List.of(), fake.adjusted, "the first turn, right after the estimate: skipped");

        long t = START + 10 * S;
        clock.micros = t;
        fake.nowMicros = t;
        assertTrue(s.recheckClock(t));
        assertEquals(List.of(2 * S), fake.adjusted, "estimates that cannot both hold: the new one replaces");
        assertEquals(2 * S, wc.offset());
        assertEquals(1, clockChanges.get());
        assertTrue(s.recheckClock(t + 10 * S));
        assertEquals(1, fake.adjusted.size(), "the same estimate again changes nothing");

        s.endOfRun();
        assertEquals(false, s.recheckClock(t + 20 * S), "after the end of the run nothing is re-estimated");
    }
}
