package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.kbench.driver.NanoClock;
import io.kbench.protocol.BrokerSample;

/** When a run's broker sources are read, on the run's clock. */
class BrokerReadsTest {
    private static final long MS = 1_000_000L;

    /** Time the test sets; a park waits a millisecond of real time, as a spurious wake-up may. */
    private static final class SetClock implements NanoClock {
        final AtomicLong now = new AtomicLong();

        @Override
        public long nanoTime() {
            return now.get();
        }

        @Override
        public void park(long nanos) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void shouldReadTheBaselineAtTheRunsStartNotWhenTheRunIsAsked() throws Exception {
        SetClock clock = new SetClock();
        AtomicInteger reads = new AtomicInteger();
        long startNanos = 500 * MS;
        // a broker that takes 5 MB/s from the run's start, nothing before it
        BrokerScraper.Source source = new BrokerScraper.Source() {
            @Override
            public Map<String, Double> read() {
                reads.incrementAndGet();
                return Map.of("bytesInPerSec.count", 5e6 * Math.max(0, clock.nanoTime() - startNanos) / 1e9);
            }

            @Override
            public void close() {
            }
        };
        try (BrokerReads r = new BrokerReads(List.of(new BrokerScraper("b", source)), "t", 5_000, clock)) {
            r.baseline(startNanos); // asked 500 ms before the start, as a Run call is
            Thread.sleep(50);
            assertEquals(0, reads.get(), "not read before the start");
            clock.now.set(startNanos);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reads.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(1, reads.get(), "read at the start");
            clock.now.set(startNanos + 1_000 * MS); // the first interval's end
            List<BrokerSample> first = r.read();
            while ("an earlier read has not returned".equals(first.get(0).error()) && System.nanoTime() < deadline) {
                first = r.read(); // the baseline's read returned, its task not ended yet: not read again until it has
            }
            assertEquals("", first.get(0).error());
            // from a baseline read as the run was asked, 5 MB over 1.5 s: 3.33 MB/s
            assertEquals(5e6, first.get(0).values().get("bytesInPerSec"), 1.0, "5 MB in the interval's 1 s");
            assertEquals(2, reads.get());
        }
    }
}
