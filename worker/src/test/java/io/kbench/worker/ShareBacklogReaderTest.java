package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.Driver;
import io.kbench.driver.DriverException;
import io.kbench.driver.ManualNanoClock;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerListener;
import io.kbench.driver.ProducerOptions;
import io.kbench.driver.TopicSpec;
import org.junit.jupiter.api.Test;

/** The backlog reader on a simulated clock: one read an interval, stale or failed readings are not known. */
class ShareBacklogReaderTest {
    private static final long INTERVAL_MICROS = 1_000_000;

    /** A clock that only moves when the reader waits (by as long as it waits, yielding the core); the test reads it. */
    private static ManualNanoClock simulated() {
        ManualNanoClock clock = new ManualNanoClock(1_000_000_000L);
        clock.onPark(nanos -> Thread.onSpinWait());
        return clock;
    }

    /** Answers the backlog from a script, one answer per read; fails where the script says -2. */
    private static final class ScriptedDriver implements Driver {
        final AtomicInteger reads = new AtomicInteger();
        final long[] answers;
        volatile Map<String, String> asked;
        /** The run's members left in the groups, one answer per question (the last repeats); -2 fails. */
        int[] members = {0};
        final AtomicInteger memberQuestions = new AtomicInteger();
        /** Member questions asked before the first backlog read; -1 until it is read. */
        volatile int questionsBeforeRead = -1;
        volatile String askedPrefix;
        volatile java.util.Set<String> askedGroups;

        ScriptedDriver(long... answers) {
            this.answers = answers;
        }

        @Override
        public int shareGroupMembers(java.util.Set<String> groups, String clientIdPrefix, Duration timeout) {
            askedGroups = groups;
            askedPrefix = clientIdPrefix;
            int a = members[Math.min(memberQuestions.getAndIncrement(), members.length - 1)];
            if (a == -2) {
                throw new DriverException("the cluster did not answer");
            }
            return a;
        }

        @Override
        public long shareGroupBacklog(Map<String, String> groupTopics, Duration timeout) {
            asked = groupTopics;
            if (questionsBeforeRead < 0) {
                questionsBeforeRead = memberQuestions.get();
            }
            int i = reads.getAndIncrement();
            long a = answers[Math.min(i, answers.length - 1)];
            if (a == -2) {
                throw new DriverException("the cluster did not answer");
            }
            return a;
        }

        @Override
        public void checkReachable(Duration timeout) {
        }

        @Override
        public List<String> createTopics(List<TopicSpec> topics, Duration timeout) {
            return List.of();
        }

        @Override
        public Map<String, Integer> describeTopics(List<String> topics, Duration timeout) {
            return Map.of();
        }

        @Override
        public void deleteTopics(List<String> topics, Duration timeout) {
        }

        @Override
        public ProducerHandle createProducer(ProducerOptions options, ProducerListener listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ConsumerHandle createConsumer(String topic, String group, String clientId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    private static void awaitReads(ScriptedDriver d, int n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (d.reads.get() < n && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(d.reads.get() >= n, "reads: " + d.reads.get());
    }

    @Test
    void shouldGiveTheLastReadingWhileFreshAndNotKnownOnceStaleOrFailed() throws Exception {
        ManualNanoClock clock = simulated();
        ScriptedDriver driver = new ScriptedDriver(120, -2);
        ShareBacklogReader r = new ShareBacklogReader(driver, Map.of("g1", "t1", "g2", "t2"), INTERVAL_MICROS, clock, "run", "kbench-run-");
        assertEquals(-1, r.latest(clock.nanoTime()), "nothing read yet");
        r.start();
        try {
            awaitReads(driver, 3); // 120, then failures
            assertEquals(Map.of("g1", "t1", "g2", "t2"), driver.asked);
            assertEquals(-1, r.latest(clock.nanoTime()), "the last read failed: not known");
        } finally {
            r.close();
        }
        int readsAtClose = driver.reads.get();
        Thread.sleep(20);
        assertEquals(readsAtClose, driver.reads.get(), "no read after close");
    }

    @Test
    void shouldCallAReadingOlderThanTwoIntervalsNotKnown() throws Exception {
        ManualNanoClock clock = simulated();
        ScriptedDriver driver = new ScriptedDriver(7);
        ShareBacklogReader r = new ShareBacklogReader(driver, Map.of("g", "t"), INTERVAL_MICROS, clock, "run", "kbench-run-");
        r.start();
        awaitReads(driver, 1);
        r.close();
        long now = clock.nanoTime();
        // the last reading was taken now or one interval ago (the reader waits an interval after each read)
        assertEquals(7, r.latest(now + INTERVAL_MICROS * 1000), "at most two intervals old");
        long readAt = now;
        assertEquals(-1, r.latest(readAt + 3 * INTERVAL_MICROS * 1000), "three intervals later: stale");
    }

    @Test
    void shouldReadAfreshForTheLastSnapshotOnTheCallersThread() {
        ManualNanoClock clock = simulated();
        ScriptedDriver driver = new ScriptedDriver(42, -2);
        ShareBacklogReader r = new ShareBacklogReader(driver, Map.of("g", "t"), INTERVAL_MICROS, clock, "run", "kbench-run-");
        assertEquals(42, r.readNow(), "never started: read on this thread");
        assertEquals(42, r.latest(clock.nanoTime()));
        assertEquals(-1, r.readNow(), "a failed read is not known");
        r.close();
    }

    @Test
    void shouldTakeTheLastReadingOnceTheRunsConsumersOnEveryWorkerHaveLeft() {
        ManualNanoClock clock = simulated();
        ScriptedDriver driver = new ScriptedDriver(0);
        driver.members = new int[] {2, 1, 0}; // another worker's consumers still closing
        ShareBacklogReader r = new ShareBacklogReader(driver, Map.of("g", "t"), INTERVAL_MICROS, clock, "run",
                "kbench-run-");
        long before = clock.nanoTime();
        assertEquals(0, r.readNow());
        assertEquals(3, driver.questionsBeforeRead, "read only once none was left");
        assertEquals("kbench-run-", driver.askedPrefix);
        assertEquals(java.util.Set.of("g"), driver.askedGroups);
        assertEquals(2 * ShareBacklogReader.MEMBERS_POLL_NANOS, clock.nanoTime() - before, "asked every 50 ms");
        r.close();
    }

    @Test
    void shouldReadAnywayOnceTheWaitForMembersIsOver() {
        ManualNanoClock clock = simulated();
        ScriptedDriver driver = new ScriptedDriver(9);
        driver.members = new int[] {1}; // a consumer that died stays a member until its session times out
        ShareBacklogReader r = new ShareBacklogReader(driver, Map.of("g", "t"), INTERVAL_MICROS, clock, "run",
                "kbench-run-");
        long before = clock.nanoTime();
        assertEquals(9, r.readNow(), "still read, with a warning");
        assertEquals(ShareBacklogReader.MEMBERS_WAIT_NANOS, clock.nanoTime() - before, "waited its bound, no more");
        r.close();
    }

    @Test
    void shouldReadAtOnceWhenTheMembersCannotBeTold() {
        for (int answer : new int[] {-1, -2}) { // the driver cannot tell; the cluster does not answer
            ManualNanoClock clock = simulated();
            ScriptedDriver driver = new ScriptedDriver(5);
            driver.members = new int[] {answer};
            ShareBacklogReader r = new ShareBacklogReader(driver, Map.of("g", "t"), INTERVAL_MICROS, clock, "run",
                    "kbench-run-");
            long before = clock.nanoTime();
            assertEquals(5, r.readNow());
            assertEquals(1, driver.questionsBeforeRead);
            assertEquals(0, clock.nanoTime() - before, "no wait: " + answer);
            r.close();
        }
    }
}
