package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IntervalSpoolTest {
    @TempDir
    Path dir;

    private static MergedInterval interval(long i) {
        Map<Metric, LatencyStats> stats = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            stats.put(m, new LatencyStats(i, i * 1.5, i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6));
        }
        return new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L, new Counters(i, i, 0, i * 100, i, i * 100, 1, 2),
                stats, 3, i % 7 == 0 ? List.of("w1: boom " + i) : List.of(), i % 2 == 0 ? -1 : i,
                new ClientSample(2, Map.of("record-queue-time-avg", 1.25 * i, "batch-size-avg", 16384.0)),
                new ClientSample(1, Map.of("records-lag-max", (double) i)));
    }

    @Test
    void shouldGiveBackEveryIntervalAsItWasInIndexOrderReadingBlockByBlock() {
        IntervalSpool spool = new IntervalSpool(dir.resolve("s"));
        int n = 3 * IntervalSpool.BLOCK + 17;
        for (long i = 0; i < n; i += 2) { // merged on several threads: pairs arrive swapped
            if (i + 1 < n) {
                spool.append(interval(i + 1));
            }
            spool.append(interval(i));
        }
        List<MergedInterval> back = spool.list();
        assertEquals(n, back.size());
        assertNull(spool.problem());
        for (int i = 0; i < n; i++) { // in order, as the result reads it
            assertEquals(interval(i), back.get(i), "interval " + i);
        }
        // out of order, as the page reads buckets (and subLists of them) again
        assertEquals(interval(5), back.get(5));
        assertEquals(interval(n - 1), back.get(n - 1));
        assertEquals(interval(IntervalSpool.BLOCK), back.get(IntervalSpool.BLOCK));
        assertEquals(interval(3), back.subList(2, 9).get(1));
        List<MergedInterval> iterated = new ArrayList<>(back);
        assertEquals(n, iterated.size());
    }

    @Test
    void shouldKeepIntervalsInMemoryAndSaySoWhenTheSpoolCannotBeWritten() throws Exception {
        Path inTheWay = Files.createDirectories(dir.resolve("spool"));
        IntervalSpool spool = new IntervalSpool(inTheWay);
        for (long i = 0; i < 10; i++) {
            spool.append(interval(i));
        }
        List<MergedInterval> back = spool.list();
        assertEquals(10, back.size());
        assertEquals(interval(9), back.get(9));
        assertTrue(spool.problem().startsWith("the run's intervals: could not keep values on disk in " + inTheWay), spool.problem());
    }

    /** A device that takes {@code room} bytes, then refuses the rest of a write as a full disk does. */
    private static java.io.OutputStream filling(java.io.OutputStream file, long room) {
        return new java.io.FilterOutputStream(file) {
            private long left = room;

            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                int fits = (int) Math.min(len, left);
                out.write(b, off, fits); // a full disk takes what fits, then says so
                left -= fits;
                if (fits < len) {
                    throw new java.io.IOException("No space left on device");
                }
            }

            @Override
            public void write(int b) throws java.io.IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }
        };
    }

    @Test
    void shouldLoseNoIntervalWhenTheDiskFillsUpMidRun() {
        for (long room : new long[] {0, 1, 150_000, 400_000, 1_000_000}) { // before, in and after the first blocks
            IntervalSpool spool = new IntervalSpool(dir.resolve("full-" + room), f -> filling(f, room));
            int n = 2 * IntervalSpool.BLOCK + 300;
            for (long i = 0; i < n; i++) {
                spool.append(interval(i));
            }
            List<MergedInterval> back = spool.list();
            assertEquals(n, back.size(), "room " + room);
            for (int i = 0; i < n; i++) {
                assertEquals(interval(i), back.get(i), "room " + room + ", interval " + i);
            }
            assertTrue(spool.problem() != null && spool.problem().contains("No space left on device"), spool.problem());
            spool.append(interval(n));
            assertEquals(interval(n), spool.list().get(n), "and after it, in memory");
        }
    }

    @Test
    void shouldListTheIntervalsAfterAGapWhenTheRunEndedWithOneMissing() {
        IntervalSpool spool = new IntervalSpool(dir.resolve("gap"));
        spool.append(interval(0));
        spool.append(interval(2)); // interval 1 never came (a lost worker's last interval, forced out)
        spool.append(interval(3));
        assertEquals(List.of(interval(0), interval(2), interval(3)), spool.list());
    }
}
