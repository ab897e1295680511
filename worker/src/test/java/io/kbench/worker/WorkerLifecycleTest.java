package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.kbench.driver.DriverConfig;
import io.kbench.driver.TopicSpec;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.MicrosClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's whole lifecycle — prepare, start, intervals, lease renewals and their loss, stop — on simulated
 * time ({@link SimClock}) with an in-memory driver ({@link FakeDriver}): the worker's real {@link RunManager},
 * {@link LoadRun}, load threads and snapshot stream, seconds of run time in milliseconds, nothing asleep.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerLifecycleTest {
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    /** The threads of a run with one producer and one consumer that wait on the clock: those and the stream. */
    private static final int RUN_THREADS = 3;

    private final SimClock clock = new SimClock(System.nanoTime());
    private final MicrosClock micros = MicrosClock.SYSTEM; // maps the simulated nanoTime to epoch µs
    private final FakeDriver driver = new FakeDriver(clock);
    private final RunManager manager = new RunManager("w1", micros, clock, name -> driver, false);

    /** What the run's stream received. */
    static final class Sink implements SnapshotSink {
        final List<IntervalSnapshot> snapshots = new CopyOnWriteArrayList<>();
        volatile boolean ended;
        volatile String aborted;

        @Override
        public void onSnapshot(IntervalSnapshot s) {
            snapshots.add(s);
        }

        @Override
        public void onEnd() {
            ended = true;
        }

        @Override
        public void onAbort(String reason) {
            aborted = reason;
        }

        long sent() {
            return snapshots.stream().mapToLong(s -> s.counters().sent()).sum();
        }
    }

    private static RunSpec spec(String runId, long rate) {
        return spec(runId, rate, 0, false);
    }

    private static RunSpec spec(String runId, long rate, long limit, boolean roundTrip) {
        return new RunSpec(runId, "coord:1", "wl", 0, "fake", new DriverConfig(Map.of(), Map.of(), Map.of(), Map.of()),
                List.of(new TopicSpec("t", 1, 1, Map.of())), List.of(), List.of(new RunSpec.Producer(0, "t", rate, limit)),
                List.of(new RunSpec.Consumer(0, "t", "g")), 1_000_000, RunSpec.Values.generated(100, 0),
                RunSpec.KeyChoice.NONE, RunSpec.ConsumerStart.AT_END, RunSpec.Transactions.NONE, true, true,
                "digest-" + runId, false, List.of(), RunSpec.Share.NONE, RunSpec.ConsumerWork.NONE, roundTrip);
    }

    /** Coordinator time (µs) {@code nanosFromNow} of simulated time from now. */
    private long at(long nanosFromNow) {
        return micros.toMicros(clock.nanoTime() + nanosFromNow);
    }

    @Test
    void shouldSendEachIntervalItsShareThenEndInOrderAndDeleteWhatItCreated() throws Exception {
        assertTrue(manager.prepare(spec("run-1", 1_000)).ready(), "the fake consumer joins at once");
        assertEquals("run-1", manager.busyRunId());
        Sink sink = new Sink();
        long start = at(100 * MS);
        assertNull(manager.progress("run-1"), "prepared, not running: no live counts");
        manager.run("run-1", start, 0, start + 3_000_000, sink);
        for (int s = 0; s < 31; s++) {
            clock.advance(100 * MS, RUN_THREADS);
            assertTrue(manager.renewLease("run-1")); // every 100 ms, as the coordinator's renewals
            if (s == 20) {
                // 2.1 s on the clock, 2.0 s into the run (it starts 0.1 s after "now"): still sending, 2,000 acknowledged
                io.kbench.protocol.rpc.ProgressResponse p = manager.progress("run-1");
                assertTrue(p.getRunning());
                assertFalse(p.getProducersDone(), "still sending");
                assertTrue(Math.abs(p.getTotals().getAcked() - 2_000) <= 1, p.toString());
            }
        }
        // 3.1 s after the start was 3 s ahead: the producer has sent its 3,000 and is done
        io.kbench.protocol.rpc.ProgressResponse done = manager.progress("run-1");
        assertTrue(done.getProducersDone());
        assertEquals(3_000, done.getTotals().getAcked(), "live, not as of the last snapshot");
        assertEquals(3_000, done.getTotals().getSent());
        assertNull(manager.progress("run-2"), "another run: no counts");
        assertEquals(3, sink.snapshots.size(), "one snapshot per whole interval so far");
        for (int i = 0; i < 3; i++) {
            IntervalSnapshot s = sink.snapshots.get(i);
            assertEquals(i, s.sequence());
            assertEquals(start + i * 1_000_000L, s.startMicros());
            assertEquals(1_000, s.counters().sent(), "interval " + i + " sent its second at 1,000 msg/s");
            // an ack is counted in the interval whose harvest it precedes: the fake acknowledges on send, and the
            // message due on a boundary races the harvest at that same instant
            assertTrue(Math.abs(s.counters().acked() - 1_000) <= 1, "interval " + i + " acked " + s.counters().acked());
        }
        manager.stop("run-1", List.of("t"), false);
        assertTrue(sink.ended);
        assertNull(sink.aborted);
        IntervalSnapshot last = sink.snapshots.get(sink.snapshots.size() - 1);
        assertTrue(last.last(), "the stop sends the last snapshot");
        assertEquals(3_000, sink.sent());
        assertEquals(3_000, sink.snapshots.stream().mapToLong(s -> s.counters().acked()).sum());
        assertEquals(3_000, driver.appended());
        assertEquals(3_000, sink.snapshots.stream().mapToLong(s -> s.counters().received()).sum(),
                "the consumer read every message");
        assertEquals(3_000, sink.snapshots.stream().mapToLong(s -> s.counters().verified()).sum(),
                "every message verified in sequence");
        assertEquals(0, sink.snapshots.stream().mapToLong(s -> s.counters().lost() + s.counters().duplicated()
                + s.counters().outOfOrder()).sum());
        assertEquals(List.of("t"), driver.deletedTopics, "the topic it created is deleted");
        assertEquals(1, driver.closed);
        assertEquals("", manager.busyRunId(), "the worker is free");
        assertNull(manager.progress("run-1"), "an ended run: no counts");
        manager.stop("run-1", List.of("t"), false); // a repeated stop is harmless
        assertEquals(1, driver.closed);
    }

    @Test
    void shouldRunAClosedLoopWithOneMessageInFlightAndSendTheFirstMessagesRoundTrip() throws Exception {
        manager.prepare(spec("run-rt", -1, 12, true));
        Sink sink = new Sink();
        long start = at(100 * MS);
        manager.run("run-rt", start, 0, start + 60_000_000, sink);
        for (int s = 0; s < 100 && driver.appended() < 12; s++) {
            clock.advance(50 * MS, RUN_THREADS);
            assertTrue(manager.renewLease("run-rt"));
        }
        clock.advance(SECOND, RUN_THREADS); // the last one comes back, an interval ends
        manager.stop("run-rt", List.of(), false);
        assertNull(sink.aborted);
        assertEquals(12, driver.appended(), "unthrottled, yet only its 12: one at a time, each after the last came back");
        assertEquals(1, driver.largestPoll, "never two messages in flight");
        assertEquals(12, sink.snapshots.stream().mapToLong(s -> s.counters().received()).sum());
        List<io.kbench.protocol.RoundTripSample> samples = sink.snapshots.stream()
                .flatMap(s -> s.roundTrips().stream()).toList();
        assertEquals(1, samples.size(), "message 0's, as the tool prints every 1000th: " + samples);
        assertEquals(0, samples.get(0).index());
        // sent at the start, read by the consumer's next poll on the simulated clock: 0 to 100 ms later
        assertTrue(samples.get(0).latencyMicros() > 0 && samples.get(0).latencyMicros() <= 100_000, samples.toString());
    }

    @Test
    void shouldKeepARenewedRunPastTheLeaseTimeoutAndAbortItWhenRenewalsStopThenSendNothingMore() throws Exception {
        manager.prepare(spec("run-1", 100)); // 10 ms between sends: 1,300 steps of the clock, not 13,000
        Sink sink = new Sink();
        long start = at(100 * MS);
        manager.run("run-1", start, 0, start + 120_000_000, sink);
        for (int i = 0; i < 16; i++) { // 8 s, past the 5-s timeout, renewed every 500 ms
            clock.advance(500 * MS, RUN_THREADS);
            manager.checkTimeouts();
            assertTrue(manager.renewLease("run-1"), "renewed while running, " + (i + 1) * 500 + " ms in");
        }
        assertNull(sink.aborted, "a renewed run outlives the timeout");
        clock.advance(RunManager.LEASE_TIMEOUT_MILLIS * MS, RUN_THREADS);
        manager.checkTimeouts();
        assertNull(sink.aborted, "not at the timeout itself");
        clock.advance(MS, RUN_THREADS);
        manager.checkTimeouts();
        assertTrue(sink.aborted != null && sink.aborted.startsWith("lease expired"), String.valueOf(sink.aborted));
        assertFalse(sink.ended);
        assertTrue(sink.snapshots.get(sink.snapshots.size() - 1).last(), "an abort still sends the last snapshot");
        int appended = driver.appended();
        assertEquals(1_291, appended, "sent from the start (0.1 s in) to the abort (13.001 s in), at 100 msg/s");
        clock.advance(2 * SECOND, 0);
        assertEquals(appended, driver.appended(), "nothing is sent after the abort");
        assertEquals("", manager.busyRunId());
        assertFalse(manager.renewLease("run-1"), "an ended run is not renewed");
        // free for the next coordinator; a repeated Prepare of its run is answered, not refused
        assertTrue(manager.prepare(spec("run-2", 1_000)).ready());
        assertTrue(manager.prepare(spec("run-2", 1_000)).ready());
        WorkerException busy = assertThrows(WorkerException.class, () -> manager.prepare(spec("run-3", 1_000)));
        assertEquals(WorkerException.Kind.BUSY, busy.kind());
        manager.stop("run-2", List.of(), false);
        assertEquals("", manager.busyRunId());
    }

    @Test
    void shouldAbortWhenTheHolderOfTheLeaseGoesAwayButNotForAStaleStream() throws Exception {
        manager.prepare(spec("run-1", 1_000));
        Sink first = new Sink();
        long start = at(100 * MS);
        manager.run("run-1", start, 0, start + 120_000_000, first);
        clock.advance(1_100 * MS, RUN_THREADS);
        Sink second = new Sink();
        manager.run("run-1", start, 0, start + 120_000_000, second); // a coordinator retransmitting Run
        clock.advance(1_000 * MS, RUN_THREADS);
        assertEquals(1, second.snapshots.size(), "the stream moved to the new holder");
        manager.leaseLost("run-1", first, "stream cancelled"); // the old stream's cancel: ignored
        assertEquals("run-1", manager.busyRunId());
        manager.leaseLost("run-1", second, "stream cancelled");
        assertEquals("stream cancelled", second.aborted);
        assertNull(first.aborted);
        assertEquals("", manager.busyRunId());
        IntervalSnapshot last = second.snapshots.get(second.snapshots.size() - 1);
        assertTrue(last.last(), "an abort still sends the last snapshot");
    }

    @Test
    void shouldDeleteAFailedRunsTopicsWhileItsConsumersClose() throws Exception {
        assertTrue(manager.prepare(spec("run-1", 1_000)).ready());
        Sink sink = new Sink();
        long start = at(100 * MS);
        manager.run("run-1", start, 0, start + 10_000_000, sink);
        clock.advance(1_100 * MS, RUN_THREADS);
        // a cluster that went away makes a consumer's close and the deletion each wait out their bounds: in turn, 10 s
        driver.closeAwaitsDeletionMillis = 2_000;
        manager.stop("run-1", List.of("t"), true);
        assertTrue(driver.deletedWhileClosing, "the topics went while the consumer closed, not after");
        assertEquals(List.of("t"), driver.deletedTopics);
        assertTrue(sink.ended);
        assertEquals("", manager.busyRunId(), "the worker is free");
    }

    @Test
    void shouldDropARunPreparedButNeverStarted() throws Exception {
        manager.prepare(spec("run-1", 1_000));
        clock.advance(RunManager.PREPARED_TIMEOUT_SECONDS * SECOND, 1); // the consumer polls meanwhile
        manager.checkTimeouts();
        assertEquals("run-1", manager.busyRunId(), "not before the timeout");
        clock.advance(MS, 1);
        manager.checkTimeouts();
        assertEquals("", manager.busyRunId());
        assertEquals(1, driver.closed);
    }
}
