package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerHandle;
import io.kbench.protocol.MicrosClock;
import org.junit.jupiter.api.Test;

/**
 * The send loop on a manual clock: time moves only when the loop parks (by the park's length) or when the
 * fake client takes time to send, so every schedule decision is checked exactly and nothing sleeps.
 */
class ProducerLoopTest {
    private static final long MS = 1_000_000L;
    private static final long START = 1_000 * MS;

    /** Time that moves only when told; {@link #park} moves it by the park. */
    static final class ManualClock implements NanoClock {
        long now;
        final List<long[]> parks = new ArrayList<>(); // {at, length}

        ManualClock(long now) {
            this.now = now;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        /** Park number {@code lateAtPark} (from 0) returns {@code lateNanos} later than asked. */
        int lateAtPark = -1;
        long lateNanos;

        @Override
        public void park(long nanos) {
            parks.add(new long[] {now, nanos});
            now += Math.max(0, nanos) + (parks.size() - 1 == lateAtPark ? lateNanos : 0);
        }
    }

    /** A client that records each send and may take time over one (a blocked send()). */
    static final class Client implements ProducerHandle {
        final ManualClock clock;
        final List<long[]> sends = new ArrayList<>(); // {intended, sent}
        long stallAtSend = -1;
        long stallNanos;
        long perSendNanos;
        long commitNanos;
        int commits;
        int flushes;

        Client(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public void send(byte[] key, byte[] value, long stampMicros, long intendedNanos, long sendNanos) {
            sends.add(new long[] {intendedNanos, sendNanos});
            clock.now += perSendNanos;
            if (sends.size() - 1 == stallAtSend) {
                clock.now += stallNanos;
            }
        }

        @Override
        public void beginTransaction() {
        }

        @Override
        public void commitTransaction() {
            commits++;
            clock.now += commitNanos;
        }

        @Override
        public void flush() {
            flushes++;
        }

        @Override
        public Map<String, Double> metrics() {
            return Map.of();
        }

        @Override
        public void close(Duration timeout) {
        }
    }

    private static ProducerLoop loop(ManualClock clock, Client client, long rate, long limit, long endNanos) {
        RunClock runClock = new RunClock(MicrosClock.SYSTEM, 0, clock);
        ProducerLoop l = new ProducerLoop("p0", client, new ProducerMetrics(clock, new ErrorSlot()), runClock, rate,
                limit, Payloads.generate(10, 0, 1), Keys.NONE, 0, 0, new ErrorSlot());
        l.window(START, endNanos);
        return l;
    }

    @Test
    void shouldSendEveryMessageAtItsDueTimeAndWaitBetweenBursts() {
        ManualClock clock = new ManualClock(START - 5 * MS);
        Client client = new Client(clock);
        ProducerLoop l = loop(clock, client, 1000, 0, START + 1000 * MS);
        l.run();
        assertEquals(1000, client.sends.size(), "one second at 1,000 msg/s");
        RateSchedule schedule = new RateSchedule(START, 1000);
        for (int i = 0; i < 1000; i++) {
            assertEquals(schedule.intendedNanos(i), client.sends.get(i)[0], "intended time of message " + i);
            assertTrue(client.sends.get(i)[1] >= client.sends.get(i)[0], "never sent before it is due: " + i);
            assertTrue(client.sends.get(i)[1] - client.sends.get(i)[0] < ProducerLoop.SLICE_NANOS + 1,
                    "sent within a slice of its due time: " + i);
        }
        assertEquals(1, client.flushes);
        assertTrue(l.done());
        for (long[] p : clock.parks.subList(1, clock.parks.size())) {
            assertTrue(p[1] >= ProducerLoop.SLICE_NANOS || p[0] + p[1] == START + 1000 * MS,
                    "parks last at least a slice (or up to the end): " + p[1]);
        }
    }

    @Test
    void shouldNoteHowLateTheLoadThreadWokeFromItsParks() {
        ManualClock clock = new ManualClock(START);
        clock.lateAtPark = 40; // the host gives the thread no core for 23 ms after its 40th park
        clock.lateNanos = 23 * MS;
        Client client = new Client(clock);
        ProducerMetrics metrics = new ProducerMetrics(clock, new ErrorSlot());
        ProducerLoop l = new ProducerLoop("p0", client, metrics, new RunClock(MicrosClock.SYSTEM, 0, clock), 1000, 0,
                Payloads.generate(10, 0, 1), Keys.NONE, 0, 0, new ErrorSlot());
        l.window(START, START + 500 * MS);
        l.run();
        assertEquals(23_000, metrics.takeOversleptMicros(), "the longest overrun, µs");
        assertEquals(-1, metrics.takeOversleptMicros(), "taken: no park since");
        assertEquals(500, client.sends.size(), "caught up: nothing skipped");

        ManualClock onTime = new ManualClock(START);
        ProducerMetrics m2 = new ProducerMetrics(onTime, new ErrorSlot());
        ProducerLoop l2 = new ProducerLoop("p0", new Client(onTime), m2, new RunClock(MicrosClock.SYSTEM, 0, onTime),
                1000, 0, Payloads.generate(10, 0, 1), Keys.NONE, 0, 0, new ErrorSlot());
        l2.window(START, START + 100 * MS);
        l2.run();
        assertEquals(0, m2.takeOversleptMicros(), "parked, and every park on time");

        ManualClock free = new ManualClock(START);
        ProducerMetrics m3 = new ProducerMetrics(free, new ErrorSlot(), false);
        ProducerLoop l3 = new ProducerLoop("p0", new Client(free), m3, new RunClock(MicrosClock.SYSTEM, 0, free), -1,
                50, Payloads.generate(10, 0, 1), Keys.NONE, 0, 0, new ErrorSlot());
        l3.window(START, START + 100 * MS);
        l3.run();
        assertEquals(-1, m3.takeOversleptMicros(), "unthrottled: never parks, nothing to say");
    }

    @Test
    void shouldCatchUpAfterAStallWithoutParkingAndWithoutSkipping() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.stallAtSend = 100; // send() of message 100 blocks for 250 ms (buffer full, broker stalled)
        client.stallNanos = 250 * MS;
        ProducerLoop l = loop(clock, client, 1000, 0, START + 1000 * MS);
        l.run();
        assertEquals(1000, client.sends.size(), "nothing skipped");
        long stallEnd = client.sends.get(100)[1] + 250 * MS;
        // messages 101..350 fell due during the stall: sent back to back at the stall's end, each keeping its
        // own intended time, so publish delay shows the stall
        for (int i = 101; i <= 350; i++) {
            long[] s = client.sends.get(i);
            assertEquals(new RateSchedule(START, 1000).intendedNanos(i), s[0]);
            assertEquals(stallEnd, s[1], "sent at once after the stall: " + i);
        }
        assertEquals(250 * MS - 1 * MS, client.sends.get(101)[1] - client.sends.get(101)[0]);
        for (long[] p : clock.parks) {
            assertTrue(p[0] < client.sends.get(100)[1] || p[0] >= client.sends.get(350)[1],
                    "no park while behind schedule (parked at " + (p[0] - START) / MS + " ms)");
        }
    }

    @Test
    void shouldStopAtTheRecordLimitAndSendUnthrottledBackToBack() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        loop(clock, client, 1000, 37, START + 1000 * MS).run();
        assertEquals(37, client.sends.size(), "record limit");

        ManualClock c2 = new ManualClock(START);
        Client unthrottled = new Client(c2);
        unthrottled.stallAtSend = 9;
        unthrottled.stallNanos = 2 * MS;
        loop(c2, unthrottled, -1, 50, START + 1000 * MS).run();
        assertEquals(50, unthrottled.sends.size());
        assertTrue(unthrottled.sends.stream().allMatch(s -> s[0] == s[1]), "unthrottled: intended = sent");
        assertTrue(c2.parks.isEmpty(), "unthrottled never parks");
    }

    @Test
    void shouldNotSendAfterTheEndInstant() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.stallAtSend = 0;
        client.stallNanos = 2000 * MS; // the first send blocks past the end
        loop(clock, client, 1000, 0, START + 1000 * MS).run();
        assertEquals(1000, client.sends.size(), "what fell due before the end is still sent (late), nothing after");
        assertTrue(client.sends.stream().allMatch(s -> s[0] < START + 1000 * MS));
    }

    @Test
    void shouldSkipWhatTheWarmupStillOwesWhenMeasuringBeginsSoTheWindowStartsOnSchedule() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.stallAtSend = 100; // a cold start: send() of message 100 blocks 2.5 s, past the 2 s warm-up
        client.stallNanos = 2_500 * MS;
        ProducerLoop l = loop(clock, client, 1000, 0, START + 3000 * MS);
        l.window(START, START + 2000 * MS, START + 3000 * MS);
        l.run();
        assertEquals(1899, l.skippedInWarmup(), "messages 101..1999 were owed from the warm-up");
        assertEquals(101 + 1000, client.sends.size(), "the warm-up's first 101 and every message of the window");
        long[] first = client.sends.get(101);
        assertEquals(new RateSchedule(START, 1000).intendedNanos(2000), first[0], "the window starts at its own first");
        assertEquals(START + 2000 * MS, first[0]);
        // what fell due inside the window during the stall's last 0.6 s is sent late, never skipped
        assertEquals(START + 2600 * MS, first[1]);
        for (int i = 101; i < client.sends.size(); i++) {
            assertTrue(client.sends.get(i)[0] >= START + 2000 * MS, "only the window's messages after the skip: " + i);
        }
    }

    @Test
    void shouldStopPayingAWarmupBacklogOffWhenMeasuringBegins() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.perSendNanos = 2 * MS; // a generator at half the speed of its 1,000 msg/s schedule
        ProducerLoop l = loop(clock, client, 1000, 0, START + 3000 * MS);
        l.window(START, START + 2000 * MS, START + 3000 * MS);
        l.run();
        assertTrue(l.skippedInWarmup() > 900, "about half the warm-up was owed: " + l.skippedInWarmup());
        int firstMeasured = 0;
        while (client.sends.get(firstMeasured)[0] < START + 2000 * MS) {
            firstMeasured++;
        }
        assertTrue(client.sends.get(firstMeasured - 1)[1] < START + 2000 * MS,
                "no message owed from the warm-up is sent once measuring has begun");
        assertTrue(client.sends.get(firstMeasured)[1] < START + 2000 * MS + 2 * MS,
                "the warm-up's burst ends with the send under way when measuring begins");
        assertEquals(START + 2000 * MS, client.sends.get(firstMeasured)[0]);
    }

    @Test
    void shouldSendNothingOwedFromTheWarmupInsideTheWindowWhenCommitsHoldTheLoop() {
        // transactional, a commit every 100 messages taking 40 ms: at 5,000 msg/s the loop cannot keep up (20 ms of
        // sends per 40-ms commit), so the warm-up ends with a backlog, sent in bursts between commits
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.commitNanos = 40 * MS;
        RunClock runClock = new RunClock(MicrosClock.SYSTEM, 0, clock);
        ProducerLoop l = new ProducerLoop("p0", client, new ProducerMetrics(clock, new ErrorSlot()), runClock, 5_000,
                0, Payloads.generate(10, 0, 1), Keys.NONE, 100, 0, new ErrorSlot());
        l.window(START, START + 2000 * MS, START + 2100 * MS);
        l.run();
        assertTrue(l.skippedInWarmup() > 0, "the warm-up's backlog was skipped: " + l.skippedInWarmup());
        assertTrue(client.commits > 0);
        long measure = START + 2000 * MS;
        for (long[] sent : client.sends) {
            assertTrue(sent[0] >= measure || sent[1] < measure, "a message owed from the warm-up (due "
                    + (sent[0] - START) / MS + " ms) was sent inside the window, at " + (sent[1] - START) / MS + " ms");
        }
    }

    @Test
    void shouldCatchUpASmallLagAtTheEndOfTheWarmupRatherThanSkipIt() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.stallAtSend = 1_996; // 8 ms at 1,996 ms: 3 ms behind when measuring begins at 2,000 ms
        client.stallNanos = 8 * MS;
        ProducerLoop l = loop(clock, client, 1000, 0, START + 3000 * MS);
        l.window(START, START + 2000 * MS, START + 3000 * MS);
        l.run();
        assertEquals(0, l.skippedInWarmup());
        assertEquals(3000, client.sends.size(), "every message, the late ones sent at once");
    }

    @Test
    void shouldNeverSkipWithoutAWarmupOrWithARecordLimit() {
        ManualClock clock = new ManualClock(START);
        Client client = new Client(clock);
        client.stallAtSend = 100;
        client.stallNanos = 2_500 * MS;
        ProducerLoop limited = loop(clock, client, 1000, 2_500, START + 3000 * MS);
        limited.window(START, START + 2000 * MS, START + 3000 * MS);
        limited.run();
        assertEquals(0, limited.skippedInWarmup());
        assertEquals(2_500, client.sends.size(), "a record-count run sends every record");
    }
}
