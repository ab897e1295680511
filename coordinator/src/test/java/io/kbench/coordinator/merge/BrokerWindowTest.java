package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.kbench.protocol.BrokerSample;
import org.junit.jupiter.api.Test;

class BrokerWindowTest {
    private static BrokerSample sample(double bytesIn, double idle, double urp) {
        return new BrokerSample("b1:9999", Map.of("bytesInPerSec", bytesIn, "bytesOutPerSec", bytesIn,
                "requestHandlerIdle", idle, "networkProcessorIdle", 0.8, "underReplicatedPartitions", urp,
                "isrShrinks", urp > 0 ? 1.0 : 0.0, "produceTotalTimeMsMean", 2.0), "");
    }

    @Test
    void shouldSummariseTheWindowPerSourceAndCountIntervalsWithoutFigures() {
        BrokerWindow w = new BrokerWindow();
        w.add(List.of(sample(2 * 1048576, 0.9, 0)));
        w.add(List.of(sample(4 * 1048576, 0.5, 3)));
        w.add(List.of(new BrokerSample("b1:9999", Map.of(), "not read within 500 ms")));
        assertEquals(3 * 1048576, w.mean("b1:9999", "bytesInPerSec"), 1e-6);
        List<String> lines = w.lines(2.5);
        assertEquals(1, lines.size());
        String l = lines.get(0);
        assertTrue(l.contains("bytes in 3.00 MB/s, out"), "two intervals' mean is not set against three's: " + l);
        assertTrue(l.contains("request handlers idle 70% (lowest 50%)"), l);
        assertTrue(l.contains("under-replicated partitions at most 3, ISR shrinks 1"), l);
        assertTrue(l.contains("1 interval(s) without figures (not read within 500 ms)"), l);
        assertTrue(!w.complete("bytesInPerSec"), "a source missed an interval");
        assertEquals(List.of(2, 3), java.util.Arrays.stream(w.coverage()).boxed().toList(), "read in 2 of 3");
        BrokerWindow whole = new BrokerWindow();
        whole.add(List.of(sample(2 * 1048576, 0.9, 0)));
        whole.add(List.of(sample(4 * 1048576, 0.5, 3)));
        assertTrue(whole.complete("bytesInPerSec"));
        assertEquals(List.of(2, 2), java.util.Arrays.stream(whole.coverage()).boxed().toList());
        assertEquals(List.of(0, 0), java.util.Arrays.stream(new BrokerWindow().coverage()).boxed().toList());
        assertTrue(!whole.complete("replicationBytesInPerSec"), "a figure no interval had");
        assertTrue(whole.lines(2.5).get(0).contains("bytes in 3.00 MB/s (1.20x the 2.50 MB/s of values acknowledged)"),
                whole.lines(2.5).get(0));
        // gzip of half-random values: the brokers take in about half of what was acknowledged, and the line says why
        assertTrue(whole.lines(6.0, 0.49).get(0).contains("bytes in 3.00 MB/s (0.50x the 6.00 MB/s of values "
                + "acknowledged, which the producers compressed to 49%)"), whole.lines(6.0, 0.49).get(0));
        assertEquals(whole.lines(2.5), whole.lines(2.5, 1.0), "uncompressed (rate 1): no word of it");
        assertTrue(whole.coversCluster(true, 0, "bytesInPerSec"), "the embedded cluster's one source");
        assertTrue(whole.coversCluster(false, 1, "bytesInPerSec"), "one source for the cluster's one broker");
        assertTrue(!whole.coversCluster(false, 3, "bytesInPerSec"), "one broker of three is not the cluster");
        assertTrue(!w.coversCluster(true, 0, "bytesInPerSec"), "a source missed an interval");
        assertTrue(new BrokerWindow().lines(1).isEmpty(), "no source, no line");
        BrokerWindow silent = new BrokerWindow();
        silent.add(List.of(new BrokerSample("b2:1", Map.of(), "not read: ConnectException")));
        assertEquals(List.of("  broker b2:1: no figures in the measured window (not read: ConnectException)"), silent.lines(1));
    }

    private static BrokerSample of(String source, double bytesIn) {
        return new BrokerSample(source, Map.of("bytesInPerSec", bytesIn, "bytesOutPerSec", 2 * bytesIn), "");
    }

    /**
     * A record-count run's window ends inside its last interval (its producers stopped half way through it): the
     * broker's rate for that interval is over all of it, so the window's rate is bytes over the window's seconds — as
     * the clients' figure is — not the mean of the interval rates, which read 0.93x the values acknowledged for
     * 300,000 records of 1 KiB on the embedded broker (after it: 1.01x).
     */
    @Test
    void shouldTakeARateOverTheWindowsSecondsWhenItEndsInsideAnInterval() {
        BrokerWindow w = new BrokerWindow();
        w.add(List.of(sample(10 * 1048576, 0.9, 0)), false, 1, 1);
        w.add(List.of(sample(10 * 1048576, 0.9, 0)), false, 1, 1);
        w.add(List.of(sample(5 * 1048576, 0.5, 0)), false, 1, 0.5);
        assertEquals(10 * 1048576, w.mean("b1:9999", "bytesInPerSec"), 1e-6, "25 MB over 2.5 s");
        assertEquals((0.9 + 0.9 + 0.5) / 3, w.mean("b1:9999", "requestHandlerIdle"), 1e-9, "not a rate: over the intervals");
        assertTrue(w.lines(10).get(0).contains("bytes in 10.00 MB/s (1.00x the 10.00 MB/s of values acknowledged)"),
                w.lines(10).get(0));
    }

    @Test
    void shouldSetTheSourcesSumNotEachSourceAgainstWhatWasAcknowledged() {
        BrokerWindow w = new BrokerWindow();
        w.add(List.of(of("embedded-1", 1048576), of("embedded-2", 2 * 1048576), of("embedded-3", 3 * 1048576)));
        w.add(List.of(of("embedded-1", 1048576), of("embedded-2", 2 * 1048576), of("embedded-3", 3 * 1048576)));
        List<String> lines = w.lines(5.0);
        assertEquals(4, lines.size(), lines.toString());
        assertEquals("  brokers (3 sources together): bytes in 6.00 MB/s (1.20x the 5.00 MB/s of values acknowledged), "
                + "out 12.00 MB/s", lines.get(0));
        assertTrue(lines.get(1).startsWith("  broker embedded-1: bytes in 1.00 MB/s, out 2.00 MB/s;"), lines.get(1));
        assertTrue(lines.stream().skip(1).noneMatch(l -> l.contains("acknowledged")), "one broker of three: " + lines);
        // a source that missed an interval: no sum
        w.add(List.of(of("embedded-1", 1048576), new BrokerSample("embedded-2", Map.of(), "broker 2 is stopped"),
                of("embedded-3", 3 * 1048576)));
        assertEquals("  brokers (3 sources together): not every source answered in every measured interval: no sum",
                w.lines(5.0).get(0));
    }
    /**
     * Partitions under min.insync.replicas, where a source reports them: the most of an interval, per source on its line
     * and over the sources with the first that reported it; unknown (not 0) where no source did.
     */
    @Test
    void shouldKeepTheMostPartitionsUnderMinIsrPerSourceAndOverAll() {
        BrokerWindow w = new BrokerWindow();
        w.add(List.of(minIsr("embedded-1", 0), minIsr("embedded-3", 0), of("old", 1)));
        w.add(List.of(minIsr("embedded-1", 2), minIsr("embedded-3", 4), of("old", 1)));
        w.add(List.of(minIsr("embedded-1", 3), minIsr("embedded-3", 1), of("old", 1)));
        assertEquals(Map.entry("embedded-3", 4.0), w.underMinIsrMax());
        List<String> lines = w.lines(1);
        String one = lines.stream().filter(l -> l.contains("broker embedded-1:")).findFirst().orElseThrow();
        assertTrue(one.contains("; partitions under min.insync.replicas at most 3 (their acks=all writes refused)"), one);
        assertTrue(lines.stream().filter(l -> l.contains("broker old:")).noneMatch(l -> l.contains("min.insync")), lines.toString());
        BrokerWindow none = new BrokerWindow();
        none.add(List.of(of("old", 1)));
        assertEquals(null, none.underMinIsrMax(), "no source reported it: unknown");
        BrokerWindow healthy = new BrokerWindow();
        healthy.add(List.of(minIsr("embedded-1", 0)));
        assertEquals(Map.entry("embedded-1", 0.0), healthy.underMinIsrMax());
        assertTrue(healthy.lines(1).stream().noneMatch(l -> l.contains("min.insync")), "0: not said");
    }

    private static BrokerSample minIsr(String source, double partitions) {
        return new BrokerSample(source, Map.of("bytesInPerSec", 1.0, "underMinIsrPartitions", partitions), "");
    }

    private static BrokerSample replicas(String source, double urp, double shrinks) {
        return new BrokerSample(source, Map.of("bytesInPerSec", 1.0, "underReplicatedPartitions", urp, "isrShrinks",
                shrinks), "");
    }

    @Test
    void shouldKeepApartWhatABrokerKbenchStoppedDidToReplicationUntilItHasCaughtUp() {
        BrokerWindow w = new BrokerWindow();
        w.add(List.of(replicas("embedded-1", 0, 0), replicas("embedded-2", 0, 0)), false);
        // broker 2 stopped: its partitions under-replicated, one shrink on broker 1
        w.add(List.of(replicas("embedded-1", 4, 1), new BrokerSample("embedded-2", Map.of(), "broker 2 is stopped")), true);
        w.add(List.of(replicas("embedded-1", 4, 0), new BrokerSample("embedded-2", Map.of(), "broker 2 is starting")), true);
        // serving again, catching up: still the fault's
        w.add(List.of(replicas("embedded-1", 3, 0), replicas("embedded-2", 1, 0)), false);
        assertEquals(0, w.urpMaxBeyondFaults("embedded-1"));
        assertEquals(0, w.isrShrinksBeyondFaults("embedded-1"));
        assertEquals(4, w.urpMaxInFaults("embedded-1"));
        assertEquals(1, w.isrShrinksInFaults("embedded-1"));
        assertEquals(1, w.urpMaxInFaults("embedded-2"));
        // caught up; what comes later is not the fault's
        w.add(List.of(replicas("embedded-1", 0, 0), replicas("embedded-2", 0, 0)), false);
        w.add(List.of(replicas("embedded-1", 2, 1), replicas("embedded-2", 0, 0)), false);
        assertEquals(2, w.urpMaxBeyondFaults("embedded-1"));
        assertEquals(1, w.isrShrinksBeyondFaults("embedded-1"));
        assertEquals(4, w.urpMaxInFaults("embedded-1"));
        assertEquals(4, w.urpMax("embedded-1"), "the whole window's is kept");
        assertEquals(2, w.isrShrinks("embedded-1"));
        assertTrue(w.lines(0).get(1).endsWith("under-replicated partitions at most 4, ISR shrinks 2, expands 0 (beyond "
                + "the intervals of a broker kbench stopped, down or catching up: at most 2, shrinks 1)"), w.lines(0).get(1));
    }

    /** Interval {@code i} of 1 s whose broker-1 read saw {@code urp} under-replicated partitions. */
    private static MergedInterval second(long i, double urp) {
        return new MergedInterval(i, i * 1_000_000, (i + 1) * 1_000_000, io.kbench.protocol.Counters.ZERO,
                MergedInterval.noStats(), 1, List.of(), -1, ClientSample.NONE, ClientSample.NONE, HostFigures.NONE,
                List.of(replicas("embedded-1", urp, 0)));
    }

    @Test
    void shouldTakeTheIntervalBeforeAStopAsItsOwnForItsFiguresAreReadAfterItsEnd() {
        // broker 2's stop requested at 2.3 s, down to the end; the read at the end of interval 1 ([1, 2) s), late under
        // load, already saw a leadership handed over; interval 0 saw nothing, and is not the fault's
        List<MergedInterval> intervals = List.of(second(0, 0), second(1, 1), second(2, 6), second(3, 6));
        BrokerWindow w = BrokerWindow.of(intervals, 0, 4_000_000, (from, to) -> to > 2_300_000);
        assertEquals(0, w.urpMaxBeyondFaults("embedded-1"), "interval 1 is the fault's: the stop came within the next");
        assertEquals(6, w.urpMaxInFaults("embedded-1"));
        // the same under-replicated partition two intervals before the stop: not the fault's
        List<MergedInterval> early = List.of(second(0, 1), second(1, 0), second(2, 6), second(3, 6));
        BrokerWindow e = BrokerWindow.of(early, 0, 4_000_000, (from, to) -> to > 2_300_000);
        assertEquals(1, e.urpMaxBeyondFaults("embedded-1"));
    }

    @Test
    void shouldCountEveryIntervalWhenNoFaultWasInForce() {
        BrokerWindow w = new BrokerWindow();
        w.add(List.of(replicas("b1:9999", 3, 2)));
        assertEquals(3, w.urpMaxBeyondFaults("b1:9999"));
        assertEquals(2, w.isrShrinksBeyondFaults("b1:9999"));
        assertEquals(0, w.urpMaxInFaults("b1:9999"));
        assertTrue(w.lines(0).get(0).endsWith("under-replicated partitions at most 3, ISR shrinks 2, expands 0"),
                w.lines(0).get(0));
    }
}
