package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole coordinator and N workers in one JVM: the real {@link RunController} over gRPC's in-process
 * transport, workers played by {@link FakeWorker}s, time from a {@link SimulatedClock}. A run of tens of
 * seconds of clock time takes milliseconds; end conditions, lost and silent workers and leases are checked
 * without waiting for anything.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MiniClusterTest {
    private static final long START = 1_800_000_000_000_000L;

    @TempDir
    Path dir;

    private final SimulatedClock clock = new SimulatedClock(START);
    private final List<FakeWorker> workers = new ArrayList<>();
    private final List<Server> servers = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    private void cluster(int n) throws IOException {
        cluster(n, i -> "w" + i);
    }

    private void cluster(int n, java.util.function.IntFunction<String> id) throws IOException {
        for (int i = 0; i < n; i++) {
            String name = InProcessServerBuilder.generateName();
            FakeWorker w = new FakeWorker(id.apply(i), clock, clock.id());
            w.partitionsPerConsumer = 6 / n; // one consumer per worker shares the topic's 6 partitions
            servers.add(InProcessServerBuilder.forName(name).directExecutor().addService(w).build().start());
            workers.add(w);
            names.add(name);
        }
    }

    @AfterEach
    void stop() {
        servers.forEach(Server::shutdownNow);
    }

    private Workload workload(String yaml) throws IOException {
        Path f = dir.resolve("w.yaml");
        Files.writeString(f, yaml);
        return Workload.load(f);
    }

    /** Runs the workload to its end on the simulated clock; returns the outcome. */
    private RunOutcome run(Workload w) throws InterruptedException {
        return run(w, Profile.defaults());
    }

    private RunOutcome run(Workload w, Profile profile) throws InterruptedException {
        RunReporter out = event -> {
            if (event instanceof RunEvent.Info e) {
                lines.add(e.line());
            } else if (event instanceof RunEvent.Summarized e) {
                lines.add(e.title());
            }
        };
        RunController c = new RunController(w, profile.withBootstrapServers("sim:9092"), names,
                a -> new WorkerClient(a, false, InProcessChannelBuilder.forName(a).directExecutor().build()), null,
                new RunOptions(dir.resolve("out"), false, 1_000_000), out, clock);
        AtomicReference<RunOutcome> outcome = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                outcome.set(c.run());
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "test-coordinator");
        long real = System.nanoTime();
        long simulated = clock.micros();
        t.start();
        while (t.isAlive()) {
            clock.nudge(); // moves time if the last running thread ended instead of sleeping
            LockSupport.parkNanos(50_000);
        }
        System.out.printf("MiniClusterTest: %.1f s of clock time in %d ms%n", (clock.micros() - simulated) / 1e6,
                (System.nanoTime() - real) / 1_000_000);
        if (thrown.get() != null) {
            throw new AssertionError("the run threw", thrown.get());
        }
        return outcome.get();
    }

    private JsonNode result() throws IOException {
        return new ObjectMapper().readTree(dir.resolve("out/result.json").toFile());
    }

    private static final String TIMED = "name: sim\ntopics: 1\npartitionsPerTopic: 6\nmessageSize: 100\n"
            + "producersPerTopic: 3\nsubscriptionsPerTopic: 1\nconsumersPerSubscription: 3\nproducerRate: 3000\n"
            + "warmupSeconds: 2\n";

    /** What a run's settings change in its figures is said before the first interval: acks=0, keys fewer than partitions. */
    @Test
    void shouldSayWhatAcksZeroAndFewKeysMeanBeforeTheLoad() throws Exception {
        cluster(3);
        RunOutcome o = run(workload(TIMED + "durationSeconds: 3\nkeyDistribution: random\nkeys: 4\n"),
                Profile.defaults().with(java.util.Map.of("producer.acks", "0")));
        assertTrue(o.completed(), o.error() + " " + lines);
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("start ")).findFirst().orElseThrow());
        List<String> before = lines.subList(0, start);
        assertTrue(before.contains("note: producer acks=0: the brokers acknowledge nothing — Kafka completes an acks=0 "
                + "send once its request is written, so 'acked' counts the messages sent and publish latency ends there; "
                + "only the consumers (verification) can tell a message lost"), before.toString());
        assertTrue(before.contains("warning: keys: 4 for 6 partitions per topic: at least 2 of them get no message, as "
                + "every message of a key goes to the partition of its hash; more keys, or no keyDistribution, load them "
                + "all"), before.toString());
    }

    /** Two workers answering with one id would have their figures merged as one worker's: refused before any load. */
    @Test
    void shouldRefuseTwoWorkersWithOneIdAndAnIdItCannotUse() throws Exception {
        cluster(2, i -> "same");
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> run(workload(TIMED + "durationSeconds: 5\n")));
        assertEquals("workers " + names.get(0) + " and " + names.get(1) + " both answer as worker same: list each "
                + "worker once, and give workers on one host their own --id", e.getCause().getMessage());
        assertTrue(e.getCause() instanceof io.kbench.coordinator.UserException, e.getCause().toString());
        assertTrue(workers.stream().allMatch(w -> w.events.isEmpty()), "nothing was asked of the workers: " + workers.get(0).events);

        stop();
        servers.clear();
        workers.clear();
        names.clear();
        cluster(1, i -> "red\u001b[31m");
        e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> run(workload(TIMED + "durationSeconds: 5\n")));
        assertEquals("worker " + names.get(0) + " answers with an id kbench cannot use ('red\\u001b[31m': it holds a "
                + "control character (one word of printable characters)); start it with another --id",
                e.getCause().getMessage());
    }

    @Test
    void shouldRunATimedRunAcrossThreeWorkersToItsEndInMilliseconds() throws Exception {
        cluster(3);
        RunOutcome o = run(workload(TIMED + "durationSeconds: 30\n"));
        assertTrue(o.completed(), o.error() + " " + lines);
        assertEquals(3000.0, o.summary().publishRate(), 1.0);
        assertEquals(3000L * 32, o.summary().acked(), "2 s warm-up + 30 s at 3,000 msg/s, all of it");
        assertTrue(lines.stream().noneMatch(l -> l.contains("acks=0") || l.startsWith("warning: ")), lines.toString());
        assertEquals(o.summary().acked(), o.summary().received());
        for (FakeWorker w : workers) {
            assertEquals(List.of("prepare", "run", "stop"), w.events, "renewed throughout: no lease expired");
        }
        JsonNode r = result();
        assertEquals("COMPLETED", r.get("status").asText());
        assertTrue(r.get("intervals").size() >= 32, "one interval per second of the run");
        // preparing and the schedule are said before the first interval
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("prepare: 1 topic(s) ready (6 partitions); worker 1/3's "
                + "clients built (")), lines.toString());
        assertTrue(lines.contains("prepare: clients built on all 3 workers (0.0 s)") || lines.stream().anyMatch(
                l -> l.startsWith("prepare: clients built on all 3 workers (")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("prepare: ready in [0-9.]+ s \\(1 consumer group owns "
                + "its 6 partitions; slowest consumer assigned after [0-9.]+ s\\)")), lines.toString());
        java.util.regex.Matcher eta = java.util.regex.Pattern.compile("start (\\d\\d:\\d\\d:\\d\\d) \\S+, measuring "
                + "from (\\d\\d:\\d\\d:\\d\\d), producers stop (\\d\\d:\\d\\d:\\d\\d); done about .*").matcher(
                lines.stream().filter(l -> l.startsWith("start ")).findFirst().orElse(""));
        assertTrue(eta.matches(), lines.toString());
        assertEquals(2, Math.floorMod(seconds(eta.group(2)) - seconds(eta.group(1)), 86_400), "2 s warm-up");
        assertEquals(30, Math.floorMod(seconds(eta.group(3)) - seconds(eta.group(2)), 86_400), "30 s measured");
    }

    private static long seconds(String hms) {
        return java.time.LocalTime.parse(hms).toSecondOfDay();
    }

    @Test
    void shouldSayWhatWasNotWrittenWhenTheResultCannotBeWritten() throws Exception {
        cluster(3);
        // a directory where result.json's temporary file goes: the write fails, as on a full disk
        Files.createDirectories(dir.resolve("out/result.json.tmp"));
        RunOutcome o = run(workload(TIMED + "durationSeconds: 3\n"));
        assertTrue(o.completed(), o.error() + " " + lines);
        assertFalse(o.written().complete(), "a result that was not written is not a complete outcome");
        String problem = o.written().problem();
        assertTrue(problem.matches("not written: result\\.json \\([^)]+\\); written: 4 histogram log\\(s\\), "
                + "intervals\\.csv, report\\.html"), problem); // one per metric
        assertFalse(Files.exists(dir.resolve("out/result.json")));
        assertTrue(Files.isDirectory(dir.resolve("out/result.json.tmp")), "what was in the way is left as it was");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("could not write every file to ")), lines.toString());
        assertFalse(lines.stream().anyMatch(l -> l.startsWith("result: ")), "no result line for a result not written");
    }

    @Test
    void shouldEndARecordCountRunWhenItsProducersAreDone() throws Exception {
        cluster(3);
        RunOutcome o = run(workload(TIMED + "numRecords: 15000\n"));
        assertTrue(o.completed(), o.error() + " " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("start ") && l.contains(", 15,000 records at 3,000 msg/s: "
                + "producers done about ")), lines.toString());
        assertEquals(15_000, o.summary().acked());
        assertEquals(15_000, o.summary().received());
        JsonNode r = result();
        long measured = r.get("measureEndMillis").asLong() - r.get("measureStartMillis").asLong();
        assertEquals(3000, measured, 1000, "15,000 at 3,000 msg/s: 5 s of sending, 2 of them warm-up");
    }

    /**
     * A record-count run reads the workers' live counts only once it may end within a few intervals: 30,000 at 3,000
     * msg/s (10 s of sending) are asked for until the first interval is merged (a short run may end within it), then
     * not until 9,000 are left (3 intervals' worth, reached at 7 s; the snapshots that say so arrive after it).
     */
    @Test
    void shouldNotReadLiveCountsOfACountRunUntilItsEndIsNear() throws Exception {
        cluster(3);
        RunOutcome o = run(workload(TIMED + "numRecords: 30000\n"));
        assertTrue(o.completed(), o.error() + " " + lines);
        assertEquals(30_000, o.summary().acked());
        for (FakeWorker w : workers) {
            assertFalse(w.progressCalls.isEmpty(), "asked near the end");
            assertTrue(w.progressCalls.stream().noneMatch(t -> t >= 2_000_000 && t < 6_000_000),
                    "asked between 2 and 6 s in: " + w.progressCalls);
            assertTrue(w.progressCalls.size() <= 60, "every 100 ms throughout would be over 100: " + w.progressCalls);
        }
    }

    /**
     * Runs 5 s at 3,000 msg/s on 3 workers whose snapshots say their producers are done only an interval after the
     * planned end (their last sends complete after the boundary), worker 2 knowing the live counts call or not;
     * checks the figures are whole and returns how long after the planned end the run was stopped (µs).
     */
    private long stoppedAfterPlannedEnd(boolean thirdKnowsProgress) throws Exception {
        cluster(3);
        workers.forEach(w -> w.doneLate = true);
        workers.get(2).knowsProgress = thirdKnowsProgress;
        RunOutcome o = run(workload(TIMED + "durationSeconds: 5\n"));
        assertTrue(o.completed(), o.error() + " " + lines);
        assertEquals(3000L * 7, o.summary().acked());
        assertEquals(o.summary().acked(), o.summary().received());
        assertTrue(lines.stream().noneMatch(l -> l.contains("stopped making progress")), lines.toString());
        FakeWorker w0 = workers.get(0);
        return w0.stoppedAtMicros - w0.plannedEndMicros();
    }

    /** Read live, the workers' counts end the run as soon as the consumers have everything. */
    @Test
    void shouldEndAsSoonAsTheWorkersLiveCountsShowEverythingReadAndNotWaitForTheNextSnapshot() throws Exception {
        long after = stoppedAfterPlannedEnd(true);
        assertTrue(after >= 0 && after <= 300_000, "stopped " + after + " µs after the planned end");
    }

    /** A worker that does not know the call (an older build) leaves the end to the snapshots. */
    @Test
    void shouldEndWithTheNextSnapshotsWhenAWorkerDoesNotKnowTheLiveCountsCall() throws Exception {
        long after = stoppedAfterPlannedEnd(false);
        assertTrue(after >= 1_000_000 && after <= 1_300_000, "stopped " + after + " µs after the planned end");
    }

    /**
     * A backlog run's consumers are released once the live counts show the backlog built, not at the next interval's
     * snapshots: 10,000 at 3,000 msg/s is reached 3.33 s in; the snapshots would say so at 4 s, with 12,000.
     */
    @Test
    void shouldReleaseABacklogRunsConsumersOnceTheLiveCountsShowTheBacklogBuilt() throws Exception {
        long acked = backlogReleasedAt(true);
        assertTrue(acked >= 10_000 && acked <= 10_000 + 3000 * 2 / 10, "released at " + acked + " acknowledged");
    }

    @Test
    void shouldReleaseABacklogRunsConsumersWithTheSnapshotsWhenAWorkerDoesNotKnowTheLiveCountsCall() throws Exception {
        assertEquals(12_000, backlogReleasedAt(false), "at the snapshot after the backlog was built");
    }

    /** The acknowledged count the backlog run's release line gives, worker 2 knowing the live counts call or not. */
    private long backlogReleasedAt(boolean thirdKnowsProgress) throws Exception {
        cluster(3);
        workers.get(2).knowsProgress = thirdKnowsProgress;
        RunOutcome o = run(workload(TIMED.replace("warmupSeconds: 2\n", "") + "durationSeconds: 6\n"
                + "consumerBacklogRecords: 10000\n"));
        assertTrue(o.completed(), o.error() + " " + lines);
        String line = lines.stream().filter(l -> l.startsWith("backlog built (")).findFirst().orElseThrow();
        return Long.parseLong(line.replaceFirst("backlog built \\(([0-9,]+) of .*", "$1").replace(",", ""));
    }

    @Test
    void shouldPollLiveCountsEveryTenthOfASecondAndLessOftenWithManyWorkers() {
        assertEquals(100_000, RunController.livePollMicros(1, 1_000_000));
        assertEquals(100_000, RunController.livePollMicros(50, 1_000_000));
        assertEquals(400_000, RunController.livePollMicros(200, 1_000_000));
        assertEquals(0, RunController.livePollMicros(500, 1_000_000), "as often as the snapshots: not at all");
        assertEquals(0, RunController.livePollMicros(1_000, 1_000_000));
        assertEquals(0, RunController.livePollMicros(1, 100_000), "--interval 0.1s: the snapshots are as fresh");
    }

    @Test
    void shouldFailTheRunAndStopTheOthersWhenAWorkersConnectionBreaks() throws Exception {
        cluster(3);
        workers.get(1).disconnectAt = 5;
        workers.get(0).failFrom = 5; // its sends of the interval the run failed in: after the window, not its limit
        RunOutcome o = run(workload(TIMED + "durationSeconds: 30\n"));
        assertFalse(o.completed());
        assertTrue(o.error().startsWith("lost the connection to worker "), o.error());
        assertEquals(List.of("prepare", "run", "stop (run failed)"), workers.get(0).events);
        assertEquals(List.of("prepare", "run", "disconnected"), workers.get(1).events);
        JsonNode lost = result().get("lostWorkers");
        assertEquals(1, lost.size());
        assertEquals("w1", lost.get(0).get("id").asText());
        assertEquals(4, lost.get(0).get("lastInterval").asLong());
        assertEquals("FAILED", result().get("status").asText());
        assertTrue(result().get("summary").get("failed").asLong() > 0, "the whole run's count keeps them");
        assertWindowEndsBeforeTheFailure();
    }

    /**
     * A failed run's measured window ends with the last interval that ended before the failure, so its rate is the
     * rate the run kept while whole: 3,000 msg/s, not diluted by the interval of the stop and the time after it.
     */
    private void assertWindowEndsBeforeTheFailure() throws IOException {
        JsonNode r = result();
        long end = r.get("measureEndMillis").asLong();
        double seconds = r.get("summary").get("measuredSeconds").asDouble();
        assertEquals((end - r.get("measureStartMillis").asLong()) / 1000.0, seconds, 0.001);
        assertTrue(seconds >= 1 && seconds < 30 && seconds == Math.rint(seconds), "whole intervals only: " + seconds);
        assertEquals(3000.0, r.get("summary").get("publishRate").asDouble(), 1.0, r.get("summary").toString());
        JsonNode last = null;
        for (JsonNode i : r.get("intervals")) {
            if (i.get("endMillis").asLong() > end) {
                assertTrue(i.get("startMillis").asLong() >= end, "no interval straddles the window's end");
            } else {
                last = i;
            }
        }
        assertTrue(last != null && last.get("endMillis").asLong() == end, "the window ends with an interval");
        // judged on that window: it kept its target, and the failure is the run's status, not a limit of the cluster
        assertEquals("none", r.get("diagnosis").get("limit").asText(), r.get("diagnosis").toString());
    }

    @Test
    void shouldDeclareASilentWorkerLostAndLetItsLeaseExpire() throws Exception {
        cluster(2);
        workers.get(1).silentFrom = 4; // a hung worker: its connection stays open, nothing comes
        RunOutcome o = run(workload(TIMED.replace("3", "2") + "durationSeconds: 30\n"));
        assertFalse(o.completed());
        assertTrue(o.error().matches("lost the connection to worker .*: no snapshot for 4\\.\\d s \\(one is due every 1 s\\)"),
                o.error());
        assertFalse(workers.get(1).events.contains("lease expired"), "renewed until it was given up");
        // the coordinator no longer renews the lost worker's lease: 5 s later the worker stops by itself
        clock.sleep(java.time.Duration.ofSeconds(6));
        assertTrue(workers.get(1).events.contains("lease expired"), workers.get(1).events.toString());
        assertFalse(workers.get(0).events.contains("lease expired"), "the stopped worker had nothing to expire");
    }

    @Test
    void shouldFailOnceMoreSendsFailThanMaxSendErrors() throws Exception {
        cluster(3);
        workers.get(2).failFrom = 6;
        RunOutcome o = run(workload(TIMED + "durationSeconds: 30\nmaxSendErrors: 100\n"));
        assertFalse(o.completed());
        assertTrue(o.error().matches("[\\d,]+ sends failed, more than maxSendErrors \\(100\\)"), o.error());
        assertTrue(result().get("summary").get("failed").asLong() > 100);
        JsonNode r = result();
        double seconds = r.get("summary").get("measuredSeconds").asDouble();
        assertTrue(seconds >= 1 && seconds < 30 && seconds == Math.rint(seconds), "whole intervals only: " + seconds);
        assertTrue(r.get("diagnosis").get("limit").asText().equals("send-errors"),
                "the intervals whose failures failed the run are in the window: " + r.get("diagnosis"));
    }
}
