package io.kbench.coordinator.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.kbench.coordinator.report.result.ResultFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Each rule of the diagnosis on recorded figures, at and around its threshold (docs/diagnosis.md). */
class DiagnosisTest {
    /** A throttled run that kept up at 10,000 msg/s with room everywhere. */
    static final WindowFigures HEALTHY = new WindowFigures(
            new WindowFigures.Load(10_000, 30, 10_000, 10_000, true, false, "", 30, 0, 10),
            new WindowFigures.Producers(1, 0.0, 3.0, 1.0, 0.5, 4_000, WindowFigures.Settings.DEFAULTS, 1),
            new WindowFigures.Hosts(0.3, "w1", 5_000, ""),
            new WindowFigures.Consumers(1, 6, 100, 110),
            new WindowFigures.Brokers(0.8, "embedded", 0.9, "embedded", "embedded", 1.0, 0.3, 0.4, 0.0, 0.1, 0.2, 0, 0,
                    Double.NaN, 0.3));

    static WindowFigures with(UnaryOperator<WindowFigures.Load> load, UnaryOperator<WindowFigures.Producers> producers,
                              UnaryOperator<WindowFigures.Consumers> consumers, UnaryOperator<WindowFigures.Brokers> brokers) {
        WindowFigures h = HEALTHY;
        return new WindowFigures(load.apply(h.load()), producers.apply(h.producers()), h.hosts(),
                consumers.apply(h.consumers()), h.brokers() == null ? null : brokers.apply(h.brokers()));
    }

    static WindowFigures.Load missed(WindowFigures.Load l) {
        return new WindowFigures.Load(l.targetRate(), l.seconds(), 9_000, 9_000, false, false, "", l.intervals(),
                l.saturated(), l.saturationMillis());
    }

    static WindowFigures.Load unthrottled(WindowFigures.Load l) {
        return new WindowFigures.Load(-1, l.seconds(), 80_000, 80_000, false, false, "", l.intervals(), l.saturated(),
                l.saturationMillis());
    }

    static WindowFigures.Load saturated(int n) {
        WindowFigures.Load l = HEALTHY.load();
        return new WindowFigures.Load(l.targetRate(), l.seconds(), l.sentRate(), l.ackedRate(), true, false, "", 30, n, 10);
    }

    static UnaryOperator<WindowFigures.Producers> waiting(double ratio) {
        return p -> new WindowFigures.Producers(p.count(), ratio, p.queueTimeMs(), p.requestLatencyMs(), p.inFlight(),
                p.batchBytes(), p.settings(), p.connections());
    }

    static UnaryOperator<WindowFigures.Producers> queued(double queueMs, double latencyMs) {
        return p -> new WindowFigures.Producers(p.count(), p.waitRatio(), queueMs, latencyMs, p.inFlight(),
                p.batchBytes(), p.settings(), p.connections());
    }

    /** Topics of this replication factor (0: not known, topics that existed before the run). */
    static UnaryOperator<WindowFigures.Producers> rf(int replicationFactor) {
        return p -> {
            WindowFigures.Settings s = p.settings();
            return new WindowFigures.Producers(p.count(), p.waitRatio(), p.queueTimeMs(), p.requestLatencyMs(),
                    p.inFlight(), p.batchBytes(), new WindowFigures.Settings(s.acks(), s.lingerMs(), s.batchSize(),
                    s.bufferMemory(), s.maxInFlight(), replicationFactor, s.compressionType()), p.connections());
        };
    }

    static UnaryOperator<WindowFigures.Producers> pipeline(double inFlight, int connections) {
        return p -> new WindowFigures.Producers(p.count(), p.waitRatio(), p.queueTimeMs(), p.requestLatencyMs(), inFlight,
                p.batchBytes(), p.settings(), connections);
    }

    static UnaryOperator<WindowFigures.Consumers> lag(double first, double last) {
        return c -> new WindowFigures.Consumers(c.count(), c.partitions(), first, last);
    }

    static UnaryOperator<WindowFigures.Consumers> unread(double first, double last, double unread) {
        return c -> new WindowFigures.Consumers(c.count(), c.partitions(), first, last, unread);
    }

    static UnaryOperator<WindowFigures.Brokers> idle(double handler, double network) {
        return b -> new WindowFigures.Brokers(handler, b.handlerSource(), network, b.networkSource(), b.timeSource(),
                b.produceTotalMs(), b.requestQueueMs(), b.localMs(), b.remoteMs(), b.responseQueueMs(),
                b.responseSendMs(), b.urpMax(), b.isrShrinks(), b.logFlushMs(), b.processCpu());
    }

    static UnaryOperator<WindowFigures.Brokers> times(double total, double local, double remote, double flush, double cpu) {
        return b -> new WindowFigures.Brokers(b.handlerIdle(), b.handlerSource(), b.networkIdle(), b.networkSource(),
                b.timeSource(), total, b.requestQueueMs(), local, remote, b.responseQueueMs(), b.responseSendMs(),
                b.urpMax(), b.isrShrinks(), flush, cpu);
    }

    /** Produce requests of {@code total} ms at the broker, {@code queue} of them waiting for a request handler. */
    static UnaryOperator<WindowFigures.Brokers> queue(double total, double queue, double handlerIdle) {
        return b -> new WindowFigures.Brokers(handlerIdle, b.handlerSource(), b.networkIdle(), b.networkSource(),
                b.timeSource(), total, queue, b.localMs(), 0, b.responseQueueMs(), b.responseSendMs(), b.urpMax(),
                b.isrShrinks(), b.logFlushMs(), b.processCpu());
    }

    static UnaryOperator<WindowFigures.Brokers> replicas(double urp, double shrinks) {
        return b -> new WindowFigures.Brokers(b.handlerIdle(), b.handlerSource(), b.networkIdle(), b.networkSource(),
                b.timeSource(), b.produceTotalMs(), b.requestQueueMs(), b.localMs(), b.remoteMs(), b.responseQueueMs(),
                b.responseSendMs(), urp, shrinks, b.logFlushMs(), b.processCpu());
    }

    static Arguments c(String name, String limit, WindowFigures f) {
        return Arguments.of(name, limit, f);
    }

    static Stream<Arguments> cases() {
        UnaryOperator<WindowFigures.Load> same = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Producers> p0 = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Consumers> c0 = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Brokers> b0 = UnaryOperator.identity();
        return Stream.of(
                c("kept up, room everywhere", "none", HEALTHY),
                c("handlers idle just below 20%", "broker-request-handlers", with(same, p0, c0, idle(0.199, 0.9))),
                c("handlers idle at 20%", "none", with(same, p0, c0, idle(0.2, 0.9))),
                c("network idle just below 30%", "broker-network-threads", with(same, p0, c0, idle(0.8, 0.299))),
                c("network idle at 30%", "none", with(same, p0, c0, idle(0.8, 0.3))),
                c("the busier of two broker limits first", "broker-network-threads",
                        with(same, p0, c0, idle(0.1, 0.06))),
                c("an under-replicated partition", "replication", with(same, p0, c0, replicas(1, 0))),
                c("an ISR shrink", "replication", with(same, p0, c0, replicas(0, 1))),
                c("producers waited while half the produce time went to followers", "replication",
                        with(DiagnosisTest::missed, waiting(0.05).andThen(queued(3, 12)).andThen(rf(3))::apply, c0,
                                times(10, 1, 5, Double.NaN, 0.3))),
                c("the same on topics that existed before the run (their replication unknown)", "replication",
                        with(DiagnosisTest::missed, waiting(0.05).andThen(queued(3, 12)).andThen(rf(0))::apply, c0,
                                times(10, 1, 5, Double.NaN, 0.3))),
                // remote time without followers: a transactional producer's requests wait there for the coordinator's
                // check of each partition new to a transaction (KIP-890), 3.98 of 5.63 ms measured on one broker
                c("half the produce time remote on replication factor 1: no followers, the client", "producer-client",
                        with(DiagnosisTest::missed, waiting(0.05).andThen(queued(3, 12)).andThen(rf(1))::apply, c0,
                                times(10, 1, 5, Double.NaN, 0.3))),
                c("producers waited, followers just under half the time: the client", "producer-client",
                        with(DiagnosisTest::missed, waiting(0.05).andThen(queued(3, 12))::apply, c0,
                                times(10, 1, 4.99, Double.NaN, 0.3))),
                c("followers took the time, 5 requests queued per connection behind each (acks=all, 2 brokers)",
                        "replication", with(DiagnosisTest::missed, waiting(0.5).andThen(queued(60, 50))
                                .andThen(pipeline(10, 2)).andThen(rf(3))::apply, c0, times(10, 1, 9, Double.NaN, 0.3))),
                c("broker time x requests per connection exactly half the producers' latency", "replication",
                        with(DiagnosisTest::missed, waiting(0.5).andThen(queued(60, 50)).andThen(pipeline(2.5, 1))
                                .andThen(rf(3))::apply,
                                c0, times(10, 1, 9, Double.NaN, 0.3))),
                c("broker time x requests per connection just under half: the client", "producer-client",
                        with(DiagnosisTest::missed, waiting(0.5).andThen(queued(60, 50)).andThen(pipeline(2.49, 1))::apply,
                                c0, times(10, 1, 9, Double.NaN, 0.3))),
                c("producers waited while half the produce time was spent waiting for a request handler",
                        "broker-request-handlers", with(DiagnosisTest::unthrottled, waiting(0.89).andThen(queued(440, 18))
                                .andThen(pipeline(4.5, 1))::apply, c0, queue(3.16, 1.58, 0.27))),
                c("producers waited, the request queue just under half: the client", "producer-client",
                        with(DiagnosisTest::unthrottled, waiting(0.89).andThen(queued(440, 18)).andThen(pipeline(4.5, 1))::apply,
                                c0, queue(3.16, 1.57, 0.27))),
                c("the request queue half, but the broker's time a fraction of the producers' latency: the client",
                        "producer-client", with(DiagnosisTest::unthrottled, waiting(0.89).andThen(queued(440, 40))
                                .andThen(pipeline(4.5, 1))::apply, c0, queue(3.16, 1.58, 0.27))),
                c("the request queue half, the producers never waited: not a limit", "unknown",
                        with(DiagnosisTest::missed, queued(3, 12), c0, queue(10, 6, 0.27))),
                c("followers took the time but the producers never waited: not a limit", "unknown",
                        with(DiagnosisTest::missed, queued(3, 12), c0, times(10, 1, 9, Double.NaN, 0.3))),
                c("busy handlers appending while the broker's CPU idles", "broker-disk",
                        with(same, p0, c0, idle(0.1, 0.9).andThen(times(2, 1.2, 0, Double.NaN, 0.3))::apply)),
                c("busy handlers appending, the broker's CPU busy", "broker-request-handlers",
                        with(same, p0, c0, idle(0.1, 0.9).andThen(times(2, 1.2, 0, Double.NaN, 0.5))::apply)),
                c("flushes longer than the appends, handlers idle: not the limit (KRaft flushes its metadata log)",
                        "producer-client", with(DiagnosisTest::missed, waiting(0.05), c0, times(3, 2, 0, 2.5, 0.3))),
                c("unthrottled, producers waiting on a broker with room", "producer-client",
                        with(DiagnosisTest::unthrottled, waiting(0.5), c0, b0)),
                c("unthrottled, producers waited just under 1%", "generator",
                        with(DiagnosisTest::unthrottled, waiting(0.0099), c0, b0)),
                c("unthrottled, producers waited 1%", "producer-client",
                        with(DiagnosisTest::unthrottled, waiting(0.01), c0, b0)),
                c("records queued beyond linger and a request", "producer-client",
                        with(DiagnosisTest::missed, queued(7.01, 2), c0, b0)),
                c("records queued exactly linger and a request", "unknown",
                        with(DiagnosisTest::missed, queued(7, 2), c0, b0)),
                c("lag grew two seconds of production", "consumers", with(same, p0, lag(0, 20_000), b0)),
                c("lag grew exactly one second", "none", with(same, p0, lag(0, 10_000), b0)),
                c("sampled lag flat, but 20,000 of the window's messages unread: two seconds", "consumers",
                        with(same, p0, unread(100, 110, 20_000), b0)),
                c("10,000 unread: exactly one second", "none", with(same, p0, unread(100, 110, 10_000), b0)),
                c("the consumers read more than was produced (a backlog): no growth", "none",
                        with(same, p0, unread(100, 110, -50_000), b0)),
                c("lag grew while the network threads were busy: the brokers", "broker-network-threads",
                        with(same, p0, lag(0, 20_000), idle(0.8, 0.1))),
                c("the generator fell behind", "generator", with(l -> new WindowFigures.Load(10_000, 30, 8_000, 8_000,
                        false, true, "the load generator sent 8,000 msg/s", 30, 20, 10), p0, c0, b0)),
                c("4 of 30 intervals saturated", "generator", with(l -> saturated(4), p0, c0, b0)),
                c("3 of 30 intervals saturated", "none", with(l -> saturated(3), p0, c0, b0)),
                c("1 of 4 intervals saturated: a pause, not a pattern", "none", with(l -> new WindowFigures.Load(10_000, 4,
                        10_000, 10_000, true, false, "", 4, 1, 10), p0, c0, b0)),
                c("3 of 4 intervals saturated", "generator", with(l -> new WindowFigures.Load(10_000, 4,
                        10_000, 10_000, true, false, "", 4, 3, 10), p0, c0, b0)),
                c("missed without any figure past its threshold", "unknown", with(DiagnosisTest::missed, p0, c0, b0)),
                c("limited with the worker's cores 80% busy", "generator", new WindowFigures(missed(HEALTHY.load()),
                        HEALTHY.producers(), new WindowFigures.Hosts(0.8, "w1", 0, ""), HEALTHY.consumers(), HEALTHY.brokers())),
                c("limited, the worker's cores just under 80% busy", "unknown", new WindowFigures(missed(HEALTHY.load()),
                        HEALTHY.producers(), new WindowFigures.Hosts(0.799, "w1", 0, ""), HEALTHY.consumers(),
                        HEALTHY.brokers())),
                c("kept up with the worker's cores 95% busy: not a limit", "none", new WindowFigures(HEALTHY.load(),
                        HEALTHY.producers(), new WindowFigures.Hosts(0.95, "w1", 0, ""), HEALTHY.consumers(),
                        HEALTHY.brokers())),
                c("kept up, brokers not read", "none", new WindowFigures(HEALTHY.load(), HEALTHY.producers(),
                        HEALTHY.hosts(), HEALTHY.consumers(), null)),
                c("unthrottled and waiting, brokers not read", "producer-client", new WindowFigures(
                        unthrottled(HEALTHY.load()), waiting(0.3).apply(HEALTHY.producers()), HEALTHY.hosts(),
                        HEALTHY.consumers(), null)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldNameTheLimit(String name, String limit, WindowFigures f) {
        ResultFile.Diagnosis d = Diagnosis.of(f);
        assertEquals(limit, d.limit(), name + ": " + d);
        assertTrue(Diagnosis.NAMES.contains(d.limit()));
        assertTrue(!d.evidence().isEmpty(), "every diagnosis says why: " + d);
        if (!limit.equals("none") && !limit.equals("unknown")) {
            assertTrue(!d.suggestions().isEmpty(), "a limit says what to turn: " + d);
            assertTrue(d.strength() >= 0 && d.strength() <= 1);
        }
    }

    @Test
    void shouldListEveryLimitThatHeldStrongestFirst() {
        ResultFile.Diagnosis d = Diagnosis.of(with(DiagnosisTest::unthrottled, UnaryOperator.identity(),
                UnaryOperator.identity(), idle(0.15, 0.2)));
        assertEquals("generator", d.limit(), "an unthrottled generator that never waited is the first limit: " + d);
        List<String> also = d.alsoLimitedBy().stream().map(ResultFile.Limit::limit).toList();
        assertEquals(List.of("broker-network-threads", "broker-request-handlers"), also,
                "network idle 20% (strength 0.33) before handler idle 15% (strength 0.25)");
        assertEquals(0.333, d.alsoLimitedBy().get(0).strength());
    }

    @Test
    void shouldShowTheComparisonThatDecided() {
        ResultFile.Diagnosis d = Diagnosis.of(with(UnaryOperator.identity(), UnaryOperator.identity(),
                UnaryOperator.identity(), idle(0.12, 0.9)));
        ResultFile.Evidence e = d.evidence().get(0);
        assertEquals("requestHandlerIdle", e.figure());
        assertEquals(0.12, e.value());
        assertEquals("<", e.op());
        assertEquals(0.2, e.threshold());
        List<String> lines = DiagnosisText.lines(d);
        assertEquals("  limited by: broker-request-handlers (strength 0.40)", lines.get(0));
        assertEquals("    request handlers idle 12% (embedded, window mean) [requestHandlerIdle 0.12 < 0.2]", lines.get(1));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("    next: num.io.threads")), String.join("\n", lines));
    }

    /**
     * Producers that waited for requests, with the brokers unread: num.io.threads=1 on a cluster of yours looked like
     * this. The name stays (its suggestions help either way) and says that a broker limit would look the same.
     */
    @Test
    void shouldSayAProducerLimitWasNamedWithoutTheBrokers() {
        WindowFigures f = with(DiagnosisTest::unthrottled, waiting(0.928).andThen(queued(817.23, 27.1))::apply,
                UnaryOperator.identity(), UnaryOperator.identity());
        ResultFile.Diagnosis unread = Diagnosis.of(new WindowFigures(f.load(), f.producers(), f.hosts(), f.consumers(),
                null));
        assertEquals("producer-client", unread.limit());
        assertTrue(Diagnosis.brokersUnread(unread));
        assertEquals("  limited by: producer-client (strength 0.96; the brokers were not read: a limit of theirs would "
                + "look the same from the producers)", DiagnosisText.lines(unread).get(0));
        ResultFile.Diagnosis read = Diagnosis.of(f);
        assertEquals("producer-client", read.limit());
        assertFalse(Diagnosis.brokersUnread(read), "the brokers had room");
        assertFalse(DiagnosisText.lines(read).get(0).contains("not read"), DiagnosisText.lines(read).get(0));

        // consumers that fell behind with no work of their own to explain it, the brokers unread: the same hedge; with
        // work per message that explains it (at most 6,000 msg/s against 3,000 produced: no; 1,000: yes), none
        WindowFigures.Load l3000 = new WindowFigures.Load(3_000, 30, 3_000, 3_000, false, false, "", 30, 0, 10);
        java.util.function.DoubleFunction<ResultFile.Diagnosis> consumers = micros -> {
            WindowFigures g = with(l -> l3000, UnaryOperator.identity(), c -> new WindowFigures.Consumers(6, 6, Double.NaN,
                    Double.NaN, 16_687, micros, false), UnaryOperator.identity());
            return Diagnosis.of(new WindowFigures(g.load(), g.producers(), g.hosts(), g.consumers(), null));
        };
        ResultFile.Diagnosis lagging = consumers.apply(0);
        assertEquals("consumers", lagging.limit());
        assertTrue(Diagnosis.brokersUnread(lagging), lagging.evidence().toString());
        assertTrue(DiagnosisText.lines(lagging).get(0).endsWith("a limit of theirs would look the same from the consumers)"),
                DiagnosisText.lines(lagging).get(0));
        ResultFile.Diagnosis working = consumers.apply(6_000);
        assertEquals("consumers", working.limit());
        assertFalse(Diagnosis.brokersUnread(working), "their own work explains it: " + working.evidence());
    }

    @Test
    void shouldNameFailedSendsFirstAndNotBlameTheGeneratorForThem() {
        WindowFigures behind = with(l -> new WindowFigures.Load(1_000, 12, 269, 257, false, true,
                "the load generator sent 269 msg/s over the window", 12, 1, 10), UnaryOperator.identity(),
                UnaryOperator.identity(), UnaryOperator.identity());
        assertEquals("generator", Diagnosis.of(behind).limit(), "without failures the shortfall is the generator's");
        ResultFile.Diagnosis d = Diagnosis.of(new WindowFigures(behind.load(), behind.producers(), behind.hosts(),
                behind.consumers(), behind.brokers(), new WindowFigures.Errors(147, 3_228,
                "local-1: TimeoutException: Expiring 12 record(s)")));
        assertEquals("send-errors", d.limit());
        assertEquals(1.0, d.strength());
        assertEquals("147 of the 3,228 sends in the window failed (4.55%); the first error: local-1: TimeoutException: "
                + "Expiring 12 record(s)", d.evidence().stream().filter(e -> e.figure().equals("failedSends"))
                .findFirst().orElseThrow().text());
        assertTrue(d.alsoLimitedBy().stream().noneMatch(l -> l.limit().equals("generator")), d.toString());
        // one failed send in 100,000: listed, weakly, after the limit that held; the generator rule still applies
        ResultFile.Diagnosis few = Diagnosis.of(new WindowFigures(behind.load(), behind.producers(), behind.hosts(),
                behind.consumers(), behind.brokers(), new WindowFigures.Errors(1, 100_000, "local-1: TimeoutException")));
        assertEquals("generator", few.limit(), few.toString());
        assertEquals("send-errors", few.alsoLimitedBy().get(few.alsoLimitedBy().size() - 1).limit());
        assertEquals(0.001, few.alsoLimitedBy().get(few.alsoLimitedBy().size() - 1).strength(), 1e-9);
    }

    /**
     * The only broker down for 12.8 s of a 30-s window at 1,000 msg/s: the sends blocked waiting for metadata, then went
     * out at once when it answered again, so the window still had its target acknowledged (measured with a workload's
     * faults on the embedded default: "limited by: none" before this rule, response p99 12.7 s).
     */
    @Test
    void shouldNameAClusterThatDidNotAnswerEvenWhenTheWindowCaughtUpAndNotBlameTheGeneratorOrTheProducers() {
        WindowFigures kept = with(UnaryOperator.identity(), queued(27.65, 1.61), UnaryOperator.identity(),
                UnaryOperator.identity());
        WindowFigures outage = new WindowFigures(saturated(3), kept.producers(), kept.hosts(), kept.consumers(),
                kept.brokers(), new WindowFigures.Errors(0, 300_000, "", 0.428, 13, 30,
                new io.kbench.coordinator.capacity.TrialVerdict.Unserved(13, 9_000_000, 22_000_000), 0));
        ResultFile.Diagnosis d = Diagnosis.of(outage);
        assertEquals("cluster-unavailable", d.limit(), d.toString());
        assertEquals(1.0, d.strength());
        assertEquals("the cluster acknowledged nothing in 13 of the window's 30 interval(s), from 9 s to 22 s of the run, "
                + "while the producers had messages outstanding or blocked in send(): it did not serve them",
                d.evidence().get(0).text());
        assertEquals("the producers' send() blocked 42.8% of the window (in 13 of 30 interval(s) half of the time or "
                + "more) and not for buffer room (that is 0.0%): the client waited for the cluster's metadata — no broker "
                + "answering, or a partition without a leader; each send waits up to max.block.ms",
                d.evidence().get(1).text());
        assertTrue(d.alsoLimitedBy().stream().noneMatch(l -> l.limit().equals("generator")
                || l.limit().equals("producer-client")), "the outage's queue times and delays: " + d);
        assertEquals("none", Diagnosis.of(kept).limit(), "the same window without the blocked sends");
        // 0.9% of the window (a leader moving once): below the threshold; 5%: half strength
        assertFalse(Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), HEALTHY.hosts(),
                HEALTHY.consumers(), HEALTHY.brokers(), new WindowFigures.Errors(0, 300_000, "", 0.009, 0, 30, null, 0)))
                .limit().equals("cluster-unavailable"));
        ResultFile.Diagnosis half = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), HEALTHY.hosts(),
                HEALTHY.consumers(), HEALTHY.brokers(), new WindowFigures.Errors(0, 300_000, "", 0.05, 1, 30, null, 0)));
        assertEquals("cluster-unavailable", half.limit());
        assertEquals(0.5, half.strength(), 1e-9);
    }

    /**
     * A broker frozen (SIGSTOP) for 15 s of a 40-s window at 5,000 msg/s, its connections open: the producers' sends
     * went out and waited, then kbench's flow control waited for their acknowledgements — a wait for buffer room, not
     * metadata — and nothing was acknowledged in 14 intervals. The cluster's, not the producers' settings.
     */
    @Test
    void shouldNameAFrozenClusterByTheIntervalsItAcknowledgedNothingInWhileTheProducersWaitedForRoom() {
        WindowFigures w = with(UnaryOperator.identity(), waiting(0.2), UnaryOperator.identity(), UnaryOperator.identity());
        ResultFile.Diagnosis d = Diagnosis.of(new WindowFigures(w.load(), w.producers(), w.hosts(), w.consumers(), null,
                new WindowFigures.Errors(0, 200_000, "", 0.0, 0, 40,
                        new io.kbench.coordinator.capacity.TrialVerdict.Unserved(14, 17_500_000, 31_500_000), 500_000)));
        assertEquals("cluster-unavailable", d.limit(), d.toString());
        assertEquals(1.0, d.strength());
        assertEquals("unservedIntervals", d.evidence().get(0).figure());
        assertEquals("the cluster acknowledged nothing in 14 of the window's 40 interval(s), from 17 s to 31 s of the run, "
                + "while the producers had messages outstanding or blocked in send(): it did not serve them",
                d.evidence().get(0).text());
        assertEquals(1, d.evidence().size(), "no metadata wait claimed: " + d.evidence());
        assertTrue(d.alsoLimitedBy().stream().noneMatch(l -> l.limit().equals("producer-client")), d.toString());
        // one interval in 40 without an acknowledgement: named, at a quarter of the strength
        ResultFile.Diagnosis one = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), HEALTHY.hosts(),
                HEALTHY.consumers(), HEALTHY.brokers(), new WindowFigures.Errors(0, 300_000, "", 0.0, 0, 40,
                        new io.kbench.coordinator.capacity.TrialVerdict.Unserved(1, 9_000_000, 10_000_000), 0)));
        assertEquals("cluster-unavailable", one.limit());
        assertEquals(0.25, one.strength(), 1e-9);
    }

    /**
     * One of 6 partitions not served for the rest of a 60-s window (a broker restart left the idempotent producer unable
     * to send to it until its records expired at delivery.timeout.ms; FaultsIT, 2026-12-01): 1,832 msg/s acknowledged
     * of 2,000, every acknowledgement in 150 ms or less, one send waiting 57 s. The window's latencies hold none of it.
     */
    @Test
    void shouldNameAPartitionLeftUnservedWhileTheOthersWereAndKeepTheGeneratorsOwnLimitBesideIt() {
        WindowFigures w = with(UnaryOperator.identity(), queued(27.65, 1.61), UnaryOperator.identity(),
                UnaryOperator.identity());
        io.kbench.coordinator.capacity.TrialVerdict.Unserved stalled = new io.kbench.coordinator.capacity.TrialVerdict
                .Unserved(0, -1, -1, 55, 5_000_000, 60_500_000, 57_012.5, 152.3, 1_000);
        ResultFile.Diagnosis d = Diagnosis.of(new WindowFigures(saturated(20), w.producers(), w.hosts(), w.consumers(),
                w.brokers(), new WindowFigures.Errors(0, 120_000, "", 0, 0, 60, stalled, 500_000)));
        ResultFile.Evidence e = d.evidence().stream().filter(x -> x.figure().equals("unackedAgeMs")).findFirst()
                .orElseThrow(() -> new AssertionError(d.toString()));
        assertEquals("cluster-unavailable", d.limit(), d.toString());
        assertEquals(1.0, d.strength(), "55 of 60 intervals");
        assertEquals("in 55 of the window's 60 interval(s), from 5 s to 60 s of the run, a send waited the whole interval "
                + "unacknowledged while younger ones were acknowledged: one had waited 57.0 s at an interval's end, longer "
                + "than that interval (1,000 ms) and its slowest acknowledgement (152.3 ms) together — part of the cluster "
                + "did not serve them (a partition without a leader, or without enough in-sync replicas for acks=all; the "
                + "client retries such a send until delivery.timeout.ms)", e.text());
        assertEquals(57_012.5, e.value(), 1e-9);
        assertEquals(1_152.3, e.threshold(), 1e-9);
        // the load threads were not held (the other partitions took their sends): the generator's own limit stands
        assertTrue(d.alsoLimitedBy().stream().anyMatch(l -> l.limit().equals("generator")), d.toString());
        // the brokers' side of it, where a source reports the partitions under min.insync.replicas
        ResultFile.Diagnosis why = Diagnosis.of(new WindowFigures(saturated(20), w.producers(), w.hosts(), w.consumers(),
                w.brokers(), new WindowFigures.Errors(0, 120_000, "", 0, 0, 60, stalled, 500_000, 4, "embedded-3")));
        assertEquals("embedded-3 led up to 4 partition(s) with fewer in-sync replicas than min.insync.replicas (the most "
                + "of any broker source in an interval): it refuses acks=all writes to them with NOT_ENOUGH_REPLICAS, and "
                + "the producer retries them until delivery.timeout.ms", why.evidence().stream().filter(x -> x.figure().equals("underMinIsrPartitions"))
                .findFirst().orElseThrow(() -> new AssertionError(why.toString())).text());
        assertTrue(d.evidence().stream().noneMatch(x -> x.figure().equals("underMinIsrPartitions")), "not read: not said");
        // one such interval in 60: named, weakly, after the rest
        ResultFile.Diagnosis once = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), HEALTHY.hosts(),
                HEALTHY.consumers(), HEALTHY.brokers(), new WindowFigures.Errors(0, 120_000, "", 0, 0, 60,
                new io.kbench.coordinator.capacity.TrialVerdict.Unserved(0, -1, -1, 1, 9_000_000, 10_000_000, 1_400, 80,
                        1_000), 0)));
        assertEquals("cluster-unavailable", once.limit(), once.toString());
        assertEquals(0.167, once.strength(), 1e-9, "1/60 against 10% of the window, rounded");
    }

    @Test
    void shouldShowTheBrokerFiguresBehindAClientLimit() {
        ResultFile.Diagnosis d = Diagnosis.of(with(DiagnosisTest::unthrottled, waiting(0.5), UnaryOperator.identity(),
                UnaryOperator.identity()));
        assertEquals("producer-client", d.limit());
        ResultFile.Evidence e = d.evidence().stream().filter(x -> x.figure().equals("brokers")).findFirst().orElseThrow();
        assertEquals("the brokers had room: no broker figure crossed its threshold (request handlers idle 80%, "
                + "network threads idle 90%, produce requests 1.00 ms at the broker)", e.text());
    }

    /**
     * The producers' suggestions follow the cap that bound them (recorded on the embedded default, num.io.threads=1,
     * 2 unthrottled producers of 1 KB: records 202.5 ms in the producer, 4.5 requests in flight on 1 connection each,
     * 1.12 ms per produce request at the broker, 5.46 ms at the client; batch.size 64 KiB then carried 1.76x as much,
     * buffer.memory 64 MiB did not).
     */
    @Test
    void shouldPutFirstTheProducerSettingThatBoundTheRun() {
        UnaryOperator<WindowFigures.Brokers> broker = times(1.12, 0.18, 0, Double.NaN, 0.89).andThen(idle(0.21, 0.6))::apply;
        ResultFile.Diagnosis pipeline = Diagnosis.of(with(DiagnosisTest::unthrottled, waiting(0.897).andThen(
                queued(202.54, 5.46)).andThen(pipeline(4.5, 1))::apply, UnaryOperator.identity(), broker));
        assertEquals("producer-client", pipeline.limit());
        List<String> s = pipeline.suggestions();
        assertEquals("batch.size (now 16.0 KiB): batches averaged 3.9 KiB: a request carries at most one batch per "
                + "partition, and records waited 202.5 ms for a request to carry them; a larger batch.size lets a request "
                + "carry more — not a longer linger.ms (now 5), which the records already waited far beyond", s.get(0));
        assertTrue(s.get(1).startsWith("more connections rather than max.in.flight.requests.per.connection (now 5; 4.5 "
                + "request(s) in flight per producer on average): a broker serves a connection's requests one at a time, "
                + "and 1.12 ms each at the broker × 4.5 per connection = 5.04 ms of the producers' 5.46 ms request "
                + "latency, so more in flight would wait there"),
                s.get(1));
        assertTrue(s.get(1).endsWith("(the request handlers were idle 21% of the time: what more connections can use)"),
                s.get(1));
        assertEquals("not buffer.memory (now 32 MiB): it held records waiting for a request (202.5 ms on average); more "
                + "of it lengthens that wait, not the rate", s.get(s.size() - 1));
        assertTrue(s.stream().noneMatch(x -> x.startsWith("buffer.memory")), s.toString());

        // the same waits with requests that took their time on the wire, not at the broker: more in flight can help
        ResultFile.Diagnosis network = Diagnosis.of(with(DiagnosisTest::unthrottled, waiting(0.897).andThen(
                queued(202.54, 20)).andThen(pipeline(4.5, 1))::apply, UnaryOperator.identity(), broker));
        assertTrue(network.suggestions().contains("max.in.flight.requests.per.connection (now 5; 4.5 request(s) in "
                + "flight per producer on average)"), network.suggestions().toString());

        // waits with nothing queued beyond a request: the buffer held what was in flight, and was the cap
        ResultFile.Diagnosis buffer = Diagnosis.of(with(DiagnosisTest::unthrottled, waiting(0.5).andThen(queued(6, 5))::apply,
                UnaryOperator.identity(), broker));
        assertTrue(buffer.suggestions().get(0).startsWith("buffer.memory (now 32 MiB; kbench holds a producer at half of "
                + "it): the bytes in flight are capped there"), buffer.suggestions().toString());
        assertTrue(buffer.suggestions().stream().noneMatch(x -> x.startsWith("not buffer.memory")),
                buffer.suggestions().toString());
    }

    /**
     * One unthrottled producer of 100-byte records keyed by 1,000 Zipf keys (exponent 1.5) over 6 partitions, on the
     * embedded default: partition 1 took 47.7%, batches averaged 6.9 KiB and records waited 99.4 ms. batch.size 64 KiB
     * then sent 1.3-1.8x as fast (two runs each), linger.ms 20 no faster: the suggestion names the hot partition and
     * batch.size, and no longer offers linger.ms.
     */
    @Test
    void shouldTellAHotPartitionsProducersToCarryMorePerRequest() {
        WindowFigures.Spread zipf = new WindowFigures.Spread("t0", 1, 0.477, 6, 2.862, 264_000, "1,000 keys drawn by "
                + "Zipf, exponent 1.5: key-0 the most frequent");
        WindowFigures f = with(DiagnosisTest::unthrottled, waiting(0.56).andThen(queued(99.44, 3.37)).andThen(
                p -> new WindowFigures.Producers(p.count(), p.waitRatio(), p.queueTimeMs(), p.requestLatencyMs(),
                        p.inFlight(), 7_066, p.settings(), p.connections()))::apply, UnaryOperator.identity(),
                UnaryOperator.identity());
        ResultFile.Diagnosis hot = Diagnosis.of(new WindowFigures(f.load(), f.producers(), f.hosts(), f.consumers(),
                f.brokers(), f.errors(), f.commits(), zipf));
        assertEquals("producer-client", hot.limit());
        assertEquals("batch.size (now 16.0 KiB): partition 1 of t0 took 47.7% of the acknowledged messages, so its "
                + "batches are the first to fill while the others' go out part-empty with them (batches averaged 6.9 "
                + "KiB): a request carries at most one batch per partition, and records waited 99.4 ms for a request to "
                + "carry them; a larger batch.size lets a request carry more — not a longer linger.ms (now 5), which the "
                + "records already waited far beyond", hot.suggestions().get(0));
    }

    /** A generator short of CPU with gzip producers: the codec first; with cores to spare, not at all. */
    @Test
    void shouldNameTheCodecWhenTheProducersCompressOnCoresThatWereTheLimit() {
        WindowFigures.Settings gzip = new WindowFigures.Settings("all", 5, 16_384, 33_554_432, 5, 1, "gzip");
        java.util.function.DoubleFunction<ResultFile.Diagnosis> at = cpu -> Diagnosis.of(new WindowFigures(
                new WindowFigures.Load(50_000, 20, 49_048, 49_048, false, true, "sent 49,048 msg/s", 20, 20, 10),
                new WindowFigures.Producers(1, 0.0, 3.0, 1.0, 0.5, 4_000, gzip, 1),
                new WindowFigures.Hosts(cpu, "w1", 5_000, ""), HEALTHY.consumers(), HEALTHY.brokers()));
        ResultFile.Diagnosis busy = at.apply(0.92);
        assertEquals("generator", busy.limit());
        assertTrue(busy.suggestions().get(0).startsWith("compression.type (now gzip): the producers compress on the "
                + "worker's cores, and gzip costs the most CPU per byte of Kafka's codecs: lz4 or zstd"),
                busy.suggestions().toString());
        ResultFile.Diagnosis idle = at.apply(0.3);
        assertEquals("generator", idle.limit(), "behind its schedule with cores to spare");
        assertTrue(idle.suggestions().stream().noneMatch(x -> x.startsWith("compression.type")), idle.suggestions().toString());
    }

    /**
     * {@code kbench compare} refuses a result whose generator fell behind by its diagnosis ({@link
     * Diagnosis#generatorFellBehind}): the evidence the rules write for a schedule missed, not for a generator named
     * only for running unthrottled or on busy cores, nor for a pause of a few intervals.
     */
    @Test
    void shouldTellAGeneratorThatFellBehindFromOneThatRanFlatOut() {
        UnaryOperator<WindowFigures.Producers> p0 = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Consumers> c0 = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Brokers> b0 = UnaryOperator.identity();
        ResultFile.Diagnosis four = Diagnosis.of(with(l -> saturated(4), p0, c0, b0));
        assertEquals("saturatedShare", Diagnosis.generatorFellBehind(four).figure(), four.toString());
        ResultFile.Diagnosis sentShort = Diagnosis.of(with(l -> new WindowFigures.Load(10_000, 30, 8_000, 8_000, false,
                true, "the load generator sent 8,000 msg/s", 30, 0, 10), p0, c0, b0));
        assertEquals("the load generator sent 8,000 msg/s", Diagnosis.generatorFellBehind(sentShort).text());
        ResultFile.Diagnosis coldWarmUp = Diagnosis.of(with(l -> new WindowFigures.Load(50_000, 15, 50_000, 51_018, true,
                false, "", 15, 1, 10, 1, 0.762), p0, c0, b0));
        assertEquals("ackedRate", Diagnosis.generatorFellBehind(coldWarmUp).figure(), coldWarmUp.toString());
        ResultFile.Diagnosis three = Diagnosis.of(with(l -> saturated(3), p0, c0, b0));
        assertEquals("none", three.limit());
        assertNull(Diagnosis.generatorFellBehind(three), "3 of 30: a pause, judged");
        ResultFile.Diagnosis flatOut = Diagnosis.of(with(DiagnosisTest::unthrottled, waiting(0.0099), c0, b0));
        assertEquals("generator", flatOut.limit());
        assertNull(Diagnosis.generatorFellBehind(flatOut), "unthrottled: no schedule to fall behind");
        ResultFile.Diagnosis busyCores = Diagnosis.of(new WindowFigures(missed(HEALTHY.load()), HEALTHY.producers(),
                new WindowFigures.Hosts(0.8, "w1", 0, ""), HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("generator", busyCores.limit());
        assertNull(Diagnosis.generatorFellBehind(busyCores), "named for its busy cores: " + busyCores);
        assertNull(Diagnosis.generatorFellBehind(null));
    }

    /**
     * A cold warm-up that sent 76% of its messages: the window's sends kept their schedule, but what the warm-up sent
     * late was acknowledged in it (102% of the target) — the sweep's "fell behind" column says so, and the verdict may
     * not say `none`. A warm-up that sent everything due, acknowledged late, is not the generator's doing.
     */
    @Test
    void shouldNameTheGeneratorWhenAColdWarmUpsBacklogWasAcknowledgedInTheWindow() {
        java.util.function.DoubleFunction<ResultFile.Diagnosis> warmup = share -> Diagnosis.of(with(l -> new WindowFigures.Load(
                50_000, 15, 50_000, 51_018, true, false, "", 15, 1, 10, 1, share), UnaryOperator.identity(),
                UnaryOperator.identity(), UnaryOperator.identity()));
        ResultFile.Diagnosis cold = warmup.apply(0.762);
        assertEquals("generator", cold.limit());
        assertEquals(0.05, cold.strength(), 1e-9);
        assertEquals("51,018 msg/s acknowledged against a target of 50,000 msg/s: the warm-up sent 76.2% of the messages "
                + "due in it (the load generator ran behind before the window) and what it sent late was acknowledged in "
                + "the window, whose first latencies include that backlog's wait", cold.evidence().get(0).text());
        assertEquals("none", warmup.apply(1.0).limit(), "the warm-up sent what was due: its acknowledgements came late");
        assertEquals("none", warmup.apply(Double.NaN).limit(), "no warm-up at a rate");
    }

    /**
     * share-vs-classic-slow-consumers: a classic group of 8 consumers on 2 partitions, 2 ms of work per message, at
     * 3,000 msg/s — what the group can take at most (2 × 500 msg/s) is evidence a reader checks by hand, and the
     * suggestions count the partitions needed instead of offering more per poll, which would not help.
     */
    @Test
    void shouldCountWhatConsumersWithWorkPerMessageCanTake() {
        WindowFigures.Load l3000 = new WindowFigures.Load(3_000, 10, 3_000, 3_000, false, false, "", 10, 0, 10);
        ResultFile.Diagnosis classic = Diagnosis.of(with(l -> l3000, UnaryOperator.identity(),
                c -> new WindowFigures.Consumers(8, 2, Double.NaN, Double.NaN, 20_708, 2_000, false),
                UnaryOperator.identity()));
        assertEquals("consumers", classic.limit());
        ResultFile.Evidence capacity = classic.evidence().get(1);
        assertEquals("consumerCapacity", capacity.figure());
        assertEquals(1_000.0, capacity.value());
        assertEquals("each consumer spends 2.00 ms on a message (consumerProcessingMillis, mean): at most 500 msg/s each, "
                + "1,000 msg/s for the 2 consumer(s) that read (2 partition(s): a classic group's consumers beyond them "
                + "have none), against 3,000 msg/s produced (the target)", capacity.text());
        assertEquals("more partitions and a consumer for each: at 2.00 ms a message a consumer takes 500 msg/s, so 3,000 "
                + "msg/s needs at least 6 reading (now 8 consumer(s) for 2 partition(s))", classic.suggestions().get(0));
        assertTrue(classic.suggestions().stream().noneMatch(x -> x.startsWith("max.poll.records")),
                classic.suggestions().toString());
        // a share group of 4 at 1 ms a message: 4,000 msg/s, enough for 3,000 — its lag is not the work's
        ResultFile.Diagnosis share = Diagnosis.of(with(l -> l3000, UnaryOperator.identity(),
                c -> new WindowFigures.Consumers(4, 2, Double.NaN, Double.NaN, 20_000, 1_000, true),
                UnaryOperator.identity()));
        assertEquals("consumers", share.limit());
        assertEquals(1, share.evidence().size(), share.evidence().toString());
        assertTrue(share.suggestions().contains("max.poll.records and fetch.max.bytes: more per poll"),
                share.suggestions().toString());
        assertTrue(share.suggestions().stream().noneMatch(x -> x.contains("classic") || x.startsWith("more partitions")
                || x.contains("shareGroupsPerTopic")), "a share group is not told of classic groups, or to become one: "
                + share.suggestions());
        // ... and of 2 at 1 ms: 2,000 msg/s
        ResultFile.Diagnosis small = Diagnosis.of(with(l -> l3000, UnaryOperator.identity(),
                c -> new WindowFigures.Consumers(2, 2, Double.NaN, Double.NaN, 20_000, 1_000, true),
                UnaryOperator.identity()));
        assertEquals("more consumers in the share group: at 1.00 ms a message each takes 1,000 msg/s, so 3,000 msg/s "
                + "needs at least 3 (now 2)", small.suggestions().get(0));
    }

    /**
     * 1,000 Zipf keys of exponent 1.5 over 6 partitions, 6 consumers at 1 ms a message, 3,000 msg/s (measured on the
     * embedded default): the group could take 6,000 msg/s, but partition 1 took 47.7% of the messages, 1,431 msg/s, and
     * its one consumer takes 1,000. More partitions would not split key-0's messages: the suggestions say so, and no
     * longer offer more partitions.
     */
    @Test
    void shouldNameAHotPartitionWhoseOneConsumerCannotKeepUp() {
        WindowFigures.Load l3000 = new WindowFigures.Load(3_000, 30, 3_000, 3_000, false, false, "", 30, 0, 10);
        WindowFigures.Spread zipf = new WindowFigures.Spread("t0", 1, 0.477, 6, 2.862, 1_431, "1,000 keys drawn by Zipf, "
                + "exponent 1.5: key-0 the most frequent");
        java.util.function.BiFunction<WindowFigures.Consumers, WindowFigures.Spread, ResultFile.Diagnosis> judge =
                (consumers, spread) -> {
                    WindowFigures f = with(l -> l3000, UnaryOperator.identity(), c -> consumers, UnaryOperator.identity());
                    return Diagnosis.of(new WindowFigures(f.load(), f.producers(), f.hosts(), f.consumers(), f.brokers(),
                            f.errors(), f.commits(), spread));
                };
        WindowFigures.Consumers six = new WindowFigures.Consumers(6, 6, Double.NaN, Double.NaN, 16_687, 1_000, false);
        ResultFile.Diagnosis hot = judge.apply(six, zipf);
        assertEquals("consumers", hot.limit());
        List<String> figures = hot.evidence().stream().map(ResultFile.Evidence::figure).toList();
        assertEquals(List.of("consumerLagGrowthSeconds", "partitionSkew", "busiestPartitionRate"), figures);
        ResultFile.Evidence rate = hot.evidence().get(2);
        assertEquals(1_431, rate.value(), 1e-9);
        assertEquals(">", rate.op());
        assertEquals(1_000, rate.threshold(), 1e-9);
        assertEquals("that partition took 1,431 msg/s; the one consumer of the group that reads it, at 1.00 ms a "
                + "message (consumerProcessingMillis, mean), takes at most 1,000 msg/s, while the group as a whole could "
                + "take 6,000", rate.text());
        assertTrue(hot.suggestions().get(0).startsWith("spread the messages over the partitions: partition 1 of t0 took "
                + "47.7% of them"), hot.suggestions().get(0));
        assertTrue(hot.suggestions().stream().noneMatch(x -> x.startsWith("more partitions")), hot.suggestions().toString());
        assertEquals(3, hot.suggestions().size(), hot.suggestions().toString());

        // the same spread with consumers fast enough for the busiest partition: evidence, not the cause; the regular
        // suggestions stay, spreading the messages second
        ResultFile.Diagnosis quick = judge.apply(new WindowFigures.Consumers(6, 6, Double.NaN, Double.NaN, 16_687, 500,
                false), zipf);
        assertEquals(List.of("consumerLagGrowthSeconds", "partitionSkew"), quick.evidence().stream()
                .map(ResultFile.Evidence::figure).toList());
        assertTrue(quick.suggestions().get(0).startsWith("more partitions"), quick.suggestions().toString());
        assertTrue(quick.suggestions().get(1).startsWith("spread the messages"), quick.suggestions().toString());

        // an even spread, or a share group (its consumers share the hot partition): as before
        WindowFigures.Spread even = new WindowFigures.Spread("t0", 1, 0.18, 6, 1.08, 540, "no keys");
        assertEquals(Diagnosis.of(with(l -> l3000, UnaryOperator.identity(), c -> six, UnaryOperator.identity()))
                .suggestions(), judge.apply(six, even).suggestions());
        // a share group of 6 on 6 partitions: Kafka's simple assignor gives each consumer one partition, so the busiest
        // has about one consumer, as a classic group's (measured: one of the 6 was delivered 50,136 of 105,000)
        ResultFile.Diagnosis share = judge.apply(new WindowFigures.Consumers(6, 6, Double.NaN, Double.NaN, 16_687, 1_000,
                true), zipf);
        assertEquals(List.of("consumerLagGrowthSeconds", "partitionSkew", "busiestPartitionRate"), share.evidence()
                .stream().map(ResultFile.Evidence::figure).toList());
        assertEquals("that partition took 1,431 msg/s; the share group's consumers on it — about 1 (Kafka's simple "
                + "assignor gives each consumer one partition, by its member id's hash), at 1.00 ms a message "
                + "(consumerProcessingMillis, mean), take at most 1,000 msg/s, while the group as a whole could take 6,000",
                share.evidence().get(2).text());
        assertEquals("more consumers in the share group, several per partition: Kafka's simple assignor "
                + "gives each consumer one partition, by its member id's hash, so about consumers ÷ partitions of them "
                + "share one — the busiest too, by the hash's luck (now 6 consumer(s) for 6 partition(s)): at 1.00 ms a "
                + "message the busiest partition needs 2 consumers on it (1,431 msg/s), so about 12 for 6 partitions",
                share.suggestions().get(1));
        // 24 of them: about 4 on each partition take 4,000 msg/s, the busiest's 1,431 too
        ResultFile.Diagnosis many = judge.apply(new WindowFigures.Consumers(24, 6, Double.NaN, Double.NaN, 16_687, 1_000,
                true), zipf);
        assertEquals(List.of("consumerLagGrowthSeconds", "partitionSkew"), many.evidence().stream()
                .map(ResultFile.Evidence::figure).toList());
    }

    /**
     * The max-rate search's trial at 2,156 msg/s (15-s window) of the hot-key workload: the group read 5% too slowly,
     * 1,079 unread at the end — less than a second of the target, so it was 'none'. The trend of the exact counts
     * names it, with TrialVerdict's rule.
     */
    @Test
    void shouldNameConsumersThatReadAFewPercentTooSlowly() {
        WindowFigures.Load l = new WindowFigures.Load(2_156, 15, 2_156, 2_157, true, false, "", 15, 0, 10);
        java.util.function.Function<io.kbench.coordinator.report.UnreadCount.Trend, ResultFile.Diagnosis> judge =
                trend -> Diagnosis.of(with(x -> l, UnaryOperator.identity(), c -> new WindowFigures.Consumers(6, 6,
                        Double.NaN, Double.NaN, 1_079, 1_000, false, trend), UnaryOperator.identity()));
        ResultFile.Diagnosis slow = judge.apply(new io.kbench.coordinator.report.UnreadCount.Trend(337, 1_416, 107.9));
        assertEquals("consumers", slow.limit());
        ResultFile.Evidence e = slow.evidence().get(0);
        assertEquals("consumerDeficitShare", e.figure());
        assertEquals(107.9 / 2_156, e.value(), 1e-3, "rounded as evidence is");
        assertEquals("a group's consumers fell behind by 108 msg/s (5.0% of the 2,156 msg/s target): their unread "
                + "messages grew from 337 to 1,416 (medians of the window's first and last thirds)", e.text());
        assertEquals("none", judge.apply(new io.kbench.coordinator.report.UnreadCount.Trend(10, 12, 0.2)).limit());
        assertEquals("none", judge.apply(null).limit(), "not counted");
    }

    /**
     * A broker kbench stopped took the embedded brokers' shared meters with it: the brokers were read in 7 of the 20
     * measured intervals, and what held is said of those, not of the window (no under-replicated partition was seen
     * while the broker was down because nothing was read then).
     */
    @Test
    void shouldSayWhatHeldOfTheIntervalsTheBrokersWereReadIn() {
        WindowFigures.Brokers b = HEALTHY.brokers();
        ResultFile.Diagnosis d = Diagnosis.of(with(UnaryOperator.identity(), UnaryOperator.identity(),
                UnaryOperator.identity(), x -> new WindowFigures.Brokers(b.handlerIdle(), b.handlerSource(),
                        b.networkIdle(), b.networkSource(), b.timeSource(), b.produceTotalMs(), b.requestQueueMs(),
                        b.localMs(), b.remoteMs(), b.responseQueueMs(), b.responseSendMs(), 0, 0, b.logFlushMs(),
                        b.processCpu(), 0, 0, 7, 20)));
        assertEquals("none", d.limit());
        List<String> texts = d.evidence().stream().map(ResultFile.Evidence::text).toList();
        assertTrue(texts.contains("no under-replicated partition, no ISR shrink in the 7 of 20 measured intervals the "
                + "brokers were read in (the others' are unknown)"), texts.toString());
        assertTrue(texts.contains("request handlers idle 80% (embedded, mean of the 7 of 20 measured intervals they were "
                + "read in)"), texts.toString());
        assertTrue(Diagnosis.of(HEALTHY).evidence().stream().anyMatch(e -> e.text().equals("no under-replicated "
                + "partition, no ISR shrink")), "read in every interval: said of the window");
    }

    @Test
    void shouldSayAPauseInAShortWindowHeldAsWhatItIs() {
        ResultFile.Diagnosis d = Diagnosis.of(with(l -> new WindowFigures.Load(10_000, 4, 10_000, 10_000, true, false, "",
                4, 2, 10), UnaryOperator.identity(), UnaryOperator.identity(), UnaryOperator.identity()));
        assertEquals("none", d.limit());
        ResultFile.Evidence e = d.evidence().stream().filter(x -> x.figure().equals("saturatedIntervals")).findFirst()
                .orElseThrow();
        assertEquals(2.0, e.value());
        assertEquals("<", e.op());
        assertEquals(3.0, e.threshold(), "2 of 4 is above 10%, so what held is the count: " + e);
    }

    @Test
    void shouldNotCallSaturatedIntervalsAPauseWhenTheProducersWaitedForTheCluster() {
        // 7 of 10 saturated while the producers waited for buffer room 14.6% of the time (a max-rate trial at
        // 170,000 msg/s on the embedded default): the generator rule does not apply, and not because 7 is "fewer
        // than 3"
        ResultFile.Diagnosis d = Diagnosis.of(with(l -> new WindowFigures.Load(10_000, 10, 9_000, 9_000, false, false,
                "", 10, 7, 10), waiting(0.146), UnaryOperator.identity(), UnaryOperator.identity()));
        assertEquals("producer-client", d.limit());
        assertTrue(d.held().stream().noneMatch(x -> x.figure().equals("saturatedIntervals")), d.held().toString());
        ResultFile.Evidence e = d.held().stream().filter(x -> x.text().startsWith("7 of 10 interval(s) saturated"))
                .findFirst().orElseThrow(() -> new AssertionError(d.held().toString()));
        assertEquals("producerWaitRatio", e.figure());
        assertEquals(">=", e.op());
        assertEquals("7 of 10 interval(s) saturated while the producers waited for buffer room 14.6% of the time: the "
                + "sends were held back by the producers' pipeline to the brokers (their buffer full), not by the load "
                + "generator", e.text());
    }

    @Test
    void shouldSayHowManySaturatedIntervalsTheWorkersProcessStalledIn() {
        WindowFigures.Hosts measured = new WindowFigures.Hosts(0.3, "w1", 5_000, "", 42_000);
        // 4 of 30 saturated, 3 of them with a load thread 10 ms or more late from a park: the host or a pause
        ResultFile.Diagnosis host = Diagnosis.of(new WindowFigures(new WindowFigures.Load(10_000, 30, 10_000, 10_000,
                true, false, "", 30, 4, 10, 3), HEALTHY.producers(), measured, HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("generator", host.limit());
        ResultFile.Evidence e = host.evidence().stream().filter(x -> x.figure().equals("saturatedShare")).findFirst()
                .orElseThrow();
        assertEquals("4 of 30 interval(s) saturated (publish delay p99 above 10 ms); in 3 of them a load thread woke "
                + "from a park 10 ms or more late (a collection paused the worker, or its host gave the thread no core in "
                + "time)", e.text());
        assertTrue(host.suggestions().stream().anyMatch(x -> x.startsWith("cores the workers do not share: in 3 of the 4 "
                + "saturated intervals a load thread woke from a park late (up to 42 ms)")), host.suggestions().toString());
        // that says more producers on the same host would not help: it is not also suggested (the window's mean CPU,
        // 30%, would have it that the cores have room)
        assertTrue(host.suggestions().stream().noneMatch(x -> x.startsWith("more producers (producersPerTopic)")),
                host.suggestions().toString());
        // 1 of 4: the send loop's own doing mostly; no such suggestion, and more load threads may help
        ResultFile.Diagnosis loop = Diagnosis.of(new WindowFigures(new WindowFigures.Load(10_000, 30, 10_000, 10_000,
                true, false, "", 30, 4, 10, 1), HEALTHY.producers(), measured, HEALTHY.consumers(), HEALTHY.brokers()));
        assertTrue(loop.suggestions().stream().noneMatch(x -> x.startsWith("cores the workers do not share")),
                loop.suggestions().toString());
        assertTrue(loop.suggestions().stream().anyMatch(x -> x.startsWith("more producers (producersPerTopic)")),
                loop.suggestions().toString());
        // 2 of 4, exactly half: the suggestion holds
        ResultFile.Diagnosis half = Diagnosis.of(new WindowFigures(new WindowFigures.Load(10_000, 30, 10_000, 10_000,
                true, false, "", 30, 4, 10, 2), HEALTHY.producers(), measured, HEALTHY.consumers(), HEALTHY.brokers()));
        assertTrue(half.suggestions().stream().anyMatch(x -> x.startsWith("cores the workers do not share")),
                half.suggestions().toString());
        // workers that do not measure stalls: nothing said of them
        ResultFile.Diagnosis unmeasured = Diagnosis.of(with(l -> new WindowFigures.Load(10_000, 30, 10_000, 10_000, true,
                false, "", 30, 4, 10), UnaryOperator.identity(), UnaryOperator.identity(), UnaryOperator.identity()));
        assertEquals("4 of 30 interval(s) saturated (publish delay p99 above 10 ms)", unmeasured.evidence().stream()
                .filter(x -> x.figure().equals("saturatedShare")).findFirst().orElseThrow().text());
        // the worker hosts' CPU in those intervals: busy with something else, and a hypervisor's steal
        WindowFigures.Hosts shared = new WindowFigures.Hosts(0.3, "w1", 5_000, "", 42_000, 0.962, 0.04);
        ResultFile.Diagnosis busy = Diagnosis.of(new WindowFigures(new WindowFigures.Load(10_000, 30, 10_000, 10_000,
                true, false, "", 30, 4, 10, 3), HEALTHY.producers(), shared, HEALTHY.consumers(), HEALTHY.brokers()));
        assertTrue(busy.evidence().stream().anyMatch(x -> x.text().endsWith("no core in time; in those intervals the "
                + "worker host was 96% busy on average, every process on it counted, and its hypervisor stole up to "
                + "4.0%)")), busy.evidence().toString());
        assertTrue(busy.suggestions().stream().anyMatch(x -> x.contains("the worker host was 96% busy on average")),
                busy.suggestions().toString());
        WindowFigures.Hosts noSteal = new WindowFigures.Hosts(0.3, "w1", 5_000, "", 42_000, 0.5, 0);
        ResultFile.Diagnosis idle = Diagnosis.of(new WindowFigures(new WindowFigures.Load(10_000, 30, 10_000, 10_000,
                true, false, "", 30, 4, 10, 3), HEALTHY.producers(), noSteal, HEALTHY.consumers(), HEALTHY.brokers()));
        assertTrue(idle.evidence().stream().anyMatch(x -> x.text().endsWith("50% busy on average, every process on it "
                + "counted)")), "no steal: not mentioned; " + idle.evidence());
        // none saturated: no stall sentence either
        ResultFile.Diagnosis calm = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), measured,
                HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("0 of 30 interval(s) saturated", calm.evidence().stream()
                .filter(x -> x.figure().equals("saturatedShare")).findFirst().orElseThrow().text());
    }

    /**
     * producer-perf, 200,000 records at 50,000 msg/s after 50,000 warm-up records on the embedded default: every
     * interval sent on schedule, but the cold start's acknowledgements came late (27,958 in the first second), and the
     * 2-s window acknowledged 120,538 for 100,028 sent — 60,185 msg/s against the target. It said `none`, "nothing was
     * near its limit".
     */
    @Test
    void shouldSayAWindowThatAcknowledgedAboveItsTargetWhileSendingOnScheduleBeganWithABacklog() {
        ResultFile.Diagnosis d = Diagnosis.of(with(l -> new WindowFigures.Load(50_000, 2, 50_014, 60_185, true, false,
                "", 2, 0, 10), UnaryOperator.identity(), UnaryOperator.identity(), UnaryOperator.identity()));
        assertEquals("none", d.limit(), d.toString());
        ResultFile.Evidence e = d.evidence().stream().filter(x -> x.figure().equals(Diagnosis.WINDOW_BACKLOG))
                .findFirst().orElseThrow();
        assertEquals("but the window acknowledged 60,185 msg/s for 50,014 msg/s sent in it: acknowledgements held back "
                + "before it (a cold start's backlog) came in it, so its rate is above the target and its first latencies "
                + "include that wait; a longer warm-up (warmupSeconds, warmupRecords) keeps it out", e.text());
        assertEquals("the run kept up with its target, but its window began with a backlog of acknowledgements",
                DiagnosisText.noneHeadline(d));
        // within 0.5% of the target, or sent above it too (the generator catching up: not this caveat)
        assertTrue(Diagnosis.of(HEALTHY).evidence().stream().noneMatch(x -> x.figure().equals(Diagnosis.WINDOW_BACKLOG)));
        ResultFile.Diagnosis close = Diagnosis.of(with(l -> new WindowFigures.Load(50_000, 2, 50_000, 50_240, true,
                false, "", 2, 0, 10), UnaryOperator.identity(), UnaryOperator.identity(), UnaryOperator.identity()));
        assertTrue(close.evidence().stream().noneMatch(x -> x.figure().equals(Diagnosis.WINDOW_BACKLOG)), close.toString());
        assertEquals("the run kept up with its target and nothing was near its limit", DiagnosisText.noneHeadline(close));

        // any verdict that lists the target as held says it too: 100 topics on the embedded default, the generator
        // 8 of 10 intervals behind, 5,741 msg/s acknowledged in the window for the 5,000 sent in it (the warm-up's
        // acknowledgements, 5,474 of 15,000, came late) held "5,741 msg/s acknowledged against a target of 5,000"
        ResultFile.Diagnosis behind = Diagnosis.of(with(l -> new WindowFigures.Load(5_000, 10, 5_000, 5_741, true,
                false, "", 10, 8, 10), UnaryOperator.identity(), UnaryOperator.identity(), UnaryOperator.identity()));
        assertEquals("generator", behind.limit(), behind.toString());
        List<String> held = behind.held().stream().map(ResultFile.Evidence::figure).toList();
        assertEquals(held.indexOf("ackedRate") + 1, held.indexOf(Diagnosis.WINDOW_BACKLOG), held.toString());
    }

    /** 14 of 20 intervals saturated at 10,000 msg/s, 3 with a late wake-up; 2 producers committing every 100 messages. */
    static WindowFigures transactional(int byCommit, double workerCpu) {
        WindowFigures.Hosts h = new WindowFigures.Hosts(workerCpu, "local-1", 26_000, "", 25_240, 0.84, 0);
        return new WindowFigures(new WindowFigures.Load(10_000, 20, 10_008, 10_008, true, false, "", 20, 14, 10, 3),
                HEALTHY.producers(), h, HEALTHY.consumers(), HEALTHY.brokers(), WindowFigures.Errors.NONE,
                new WindowFigures.Commits(2, 100, 0, 2_003, 7_950, 47_330, 2_003 * 7_950 / 1e6 / 40, byCommit));
    }

    @Test
    void shouldNameTheCommitsWhenTheyExplainTheGeneratorsDelay() {
        ResultFile.Diagnosis d = Diagnosis.of(transactional(11, 0.76));
        assertEquals("transactions", d.limit(), d.toString());
        assertEquals(0.667, d.strength(), 1e-3, "the saturated share's strength, as the generator's would be");
        assertEquals("saturatedByCommit", d.evidence().get(0).figure());
        assertEquals("in 11 of the 14 saturated interval(s) a commit took 10 ms or more (in 3 a load thread woke late "
                + "from a park)", d.evidence().get(0).text());
        assertEquals("2,003 commit(s) in the window (100/s), 7.95 ms on average, the longest 47.3 ms: the 2 producer(s) "
                + "spent 40% of their time in commitTransaction(), which blocks the sends due meanwhile",
                d.evidence().get(1).text());
        assertTrue(d.evidence().stream().anyMatch(e -> e.figure().equals("saturatedShare")), d.evidence().toString());
        assertTrue(d.suggestions().get(0).startsWith("more messages per transaction (transactionRecords, now 100)"),
                d.suggestions().toString());
        assertTrue(d.alsoLimitedBy().isEmpty(), "the worker's cores had room: not the generator too; " + d.alsoLimitedBy());
        assertTrue(d.suggestions().stream().noneMatch(s -> s.contains("kbench worker")), "no more hosts: " + d.suggestions());
    }

    @Test
    void shouldSayWhichSaturatedIntervalsACommitHeldUpWhenTheyAreTooFewForALimit() {
        // the shipped transactions workload at 10,000 msg/s: 5 of 60 intervals saturated, each with a commit of 17 ms
        // or more and no late wake-up — under the share that makes a limit, but their cause is the commits
        WindowFigures t = transactional(5, 0.17);
        WindowFigures few = new WindowFigures(new WindowFigures.Load(10_000, 60, 10_000, 10_000, true, false, "", 60, 5,
                10, 0), t.producers(), t.hosts(), t.consumers(), t.brokers(), t.errors(), t.commits());
        ResultFile.Diagnosis d = Diagnosis.of(few);
        assertEquals("none", d.limit(), d.toString());
        String held = d.evidence().stream().filter(x -> x.figure().equals("saturatedShare")).findFirst().orElseThrow()
                .text();
        assertTrue(held.endsWith("; in 5 of them a transaction commit took 10 ms or more (commitTransaction() blocks "
                + "the producer's load thread while its sends fall due)"), held);
        // no commit in a saturated interval: nothing said of commits
        WindowFigures none = new WindowFigures(few.load(), few.producers(), few.hosts(), few.consumers(), few.brokers(),
                few.errors(), transactional(0, 0.17).commits());
        assertFalse(Diagnosis.of(none).evidence().stream().anyMatch(x -> x.text().contains("commit")),
                Diagnosis.of(none).evidence().toString());
    }

    @Test
    void shouldLeaveTheGeneratorItsLimitWhenTheCommitsDoNotExplainIt() {
        // 7 of 14, exactly half, and more than the 3 stalled: the commits'
        assertEquals("transactions", Diagnosis.of(transactional(7, 0.5)).limit());
        // 6 of 14: fewer than half — the load threads' own work or host, as without transactions; the commits are
        // named beside the late wake-ups
        ResultFile.Diagnosis six = Diagnosis.of(transactional(6, 0.5));
        assertEquals("generator", six.limit());
        String saturated = six.evidence().stream().filter(x -> x.figure().equals("saturatedShare")).findFirst()
                .orElseThrow().text();
        assertTrue(saturated.endsWith("; in 6 of them a transaction commit took 10 ms or more (commitTransaction() "
                + "blocks the producer's load thread while its sends fall due)"), saturated);
        // named the commits' limit: said once, in its own evidence, not again in the saturated intervals' line
        ResultFile.Diagnosis eleven = Diagnosis.of(transactional(11, 0.76));
        assertTrue(eleven.evidence().stream().noneMatch(x -> x.figure().equals("saturatedShare")
                && x.text().contains("transaction commit")), eleven.evidence().toString());
        // no more than the stalled ones: the host held them up as much as the commits did
        WindowFigures f = transactional(3, 0.5);
        WindowFigures fewSaturated = new WindowFigures(new WindowFigures.Load(10_000, 20, 10_008, 10_008, true, false,
                "", 20, 5, 10, 3), f.producers(), f.hosts(), f.consumers(), f.brokers(), f.errors(), f.commits());
        assertEquals("generator", Diagnosis.of(fewSaturated).limit());
        // a run whose target was missed while the worker's cores were busy: the commits first, the generator's CPU too
        WindowFigures busy = transactional(11, 0.85);
        WindowFigures missedBusy = new WindowFigures(new WindowFigures.Load(10_000, 20, 9_000, 9_000, false, true,
                "sent 9,000 msg/s", 20, 14, 10, 3), busy.producers(), busy.hosts(), busy.consumers(), busy.brokers(),
                busy.errors(), busy.commits());
        ResultFile.Diagnosis d = Diagnosis.of(missedBusy);
        assertEquals("transactions", d.limit(), d.toString());
        assertEquals(List.of("generator"), d.alsoLimitedBy().stream().map(ResultFile.Limit::limit).toList());
        // unthrottled: by the share of the producers' time spent committing
        WindowFigures.Commits half = new WindowFigures.Commits(1, 10, 0, 5_000, 4_000, 20_000, 0.5, 0);
        WindowFigures.Commits less = new WindowFigures.Commits(1, 10, 0, 5_000, 3_900, 20_000, 0.49, 0);
        WindowFigures u = with(DiagnosisTest::unthrottled, UnaryOperator.identity(), UnaryOperator.identity(),
                UnaryOperator.identity());
        assertEquals("transactions", Diagnosis.of(new WindowFigures(u.load(), u.producers(), u.hosts(), u.consumers(),
                u.brokers(), u.errors(), half)).limit());
        assertEquals("generator", Diagnosis.of(new WindowFigures(u.load(), u.producers(), u.hosts(), u.consumers(),
                u.brokers(), u.errors(), less)).limit());
        // not transactional: unchanged
        assertEquals("generator", Diagnosis.of(new WindowFigures(f.load(), f.producers(), f.hosts(), f.consumers(),
                f.brokers())).limit());
    }

    @Test
    void sayWhetherTheCountsOrTheSampledLagShowedTheConsumersFallingBehind() {
        UnaryOperator<WindowFigures.Load> same = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Producers> p0 = UnaryOperator.identity();
        UnaryOperator<WindowFigures.Brokers> b0 = UnaryOperator.identity();
        ResultFile.Evidence counted = Diagnosis.of(with(same, p0, unread(100, 110, 20_000), b0)).evidence().get(0);
        assertEquals("consumerLagGrowthSeconds", counted.figure());
        assertEquals(2.0, counted.value(), 1e-9);
        assertTrue(counted.text().startsWith("a group's consumers left 20,000 of the messages acknowledged in the window "
                + "unread"), counted.text());
        ResultFile.Evidence sampled = Diagnosis.of(with(same, p0, unread(0, 30_000, 20_000), b0)).evidence().get(0);
        assertEquals(3.0, sampled.value(), 1e-9, "the larger of the two");
        assertTrue(sampled.text().startsWith("consumer lag grew from 0 to 30,000"), sampled.text());
    }

    @Test
    void shouldNameNoneOnlyWithTheChecksThatHeld() {
        ResultFile.Diagnosis d = Diagnosis.of(HEALTHY);
        assertEquals(List.of("ackedRate", "requestHandlerIdle", "networkProcessorIdle", "underReplicatedPartitions",
                "producerWaitRatio", "saturatedShare", "workerCpu"), d.evidence().stream().map(ResultFile.Evidence::figure)
                .toList());
        assertEquals(">=", d.evidence().get(1).op(), "handler idle 80% held against >= 20%");
        assertEquals(List.of(), d.held(), "none: its evidence is what held");
        ResultFile.Evidence cpu = d.evidence().get(6);
        assertEquals("<", cpu.op());
        assertEquals("the busiest worker (w1) used 30% of its cores", cpu.text());
        assertEquals("  limited by: none (the run kept up with its target and nothing was near its limit)",
                DiagnosisText.lines(d).get(0));
    }

    /**
     * Producers held back by their client while the worker's JVM was still compiling (a cold run: at 790,000 msg/s it
     * held half the rate a warm one held): a longer warm-up is the first thing to turn, before the client's settings.
     */
    @Test
    void shouldSuggestALongerWarmupFirstWhenTheProducerClientLimitedAColdJvm() {
        WindowFigures waited = with(DiagnosisTest::unthrottled, waiting(0.63), c -> c, b -> b);
        java.util.function.DoubleFunction<ResultFile.Diagnosis> at = jit -> Diagnosis.of(new WindowFigures(
                waited.load(), waited.producers(), new WindowFigures.Hosts(0.85, "local-1", 139_000,
                "coordinator, embedded broker", -1, -1, -1, jit), waited.consumers(), waited.brokers()));
        ResultFile.Diagnosis cold = at.apply(0.85 * 0.27);
        assertEquals("producer-client", cold.limit());
        assertTrue(cold.suggestions().get(0).startsWith("a longer warm-up (warmupSeconds), or workers that stay up "
                + "between runs (`kbench worker`, `--workers`): the busiest worker's JIT compilers took 27% of its CPU in "
                + "the measured window; a fresh JVM compiles its hot code over its first minute or so, on the same cores "
                + "(here the embedded broker's too: it serves each request slower until it is compiled)"),
                cold.suggestions().get(0));
        ResultFile.Diagnosis warm = at.apply(0.85 * 0.09);
        assertEquals("producer-client", warm.limit());
        assertTrue(warm.suggestions().stream().noneMatch(x -> x.contains("warm-up")), warm.suggestions().toString());
    }

    /**
     * {@code generator} on a run that held its target (a few host pauses) said nothing of the target in its headline,
     * which read harsher than the run: it says it kept it. A run that fell short does not.
     */
    @Test
    void shouldSayInTheGeneratorHeadlineWhenTheRunKeptItsTarget() {
        ResultFile.Diagnosis kept = Diagnosis.of(with(l -> saturated(4), p -> p, c -> c, b -> b));
        assertEquals("generator", kept.limit());
        assertTrue(DiagnosisText.lines(kept).get(0).matches("  limited by: generator \\(strength [0-9.]+; the run kept "
                + "its target: the generator's own delays are in its latencies\\)"), DiagnosisText.lines(kept).get(0));
        ResultFile.Diagnosis short_ = Diagnosis.of(with(l -> new WindowFigures.Load(10_000, 30, 8_000, 8_000, false, false,
                "", 30, 20, 10), p -> p, c -> c, b -> b));
        assertEquals("generator", short_.limit());
        assertTrue(DiagnosisText.lines(short_).get(0).matches("  limited by: generator \\(strength [0-9.]+\\)"),
                DiagnosisText.lines(short_).get(0));
    }

    /** A run that kept up on a worker whose cores were 80% busy or more: none, and the console says the host was near. */
    @Test
    void shouldSayAKeptUpRunsWorkerHostWasNearItsLimitFromEightyPercentOn() {
        for (double busy : new double[] {0.8, 0.95}) {
            ResultFile.Diagnosis d = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(),
                    new WindowFigures.Hosts(busy, "local-1", 0, "coordinator, embedded broker"), HEALTHY.consumers(),
                    HEALTHY.brokers()));
            assertEquals("none", d.limit(), "the target was met: the host held it");
            ResultFile.Evidence cpu = d.evidence().get(d.evidence().size() - 1);
            assertEquals("workerCpu", cpu.figure());
            assertEquals(">=", cpu.op());
            assertEquals(Diagnosis.HOST_CPU, cpu.threshold(), 1e-12);
            assertTrue(cpu.text().startsWith("but the busiest worker (local-1) used " + Math.round(busy * 100)
                    + "% of its cores, shared with the coordinator, embedded broker: near its limit"), cpu.text());
            assertEquals("  limited by: none (the run kept up with its target, but its busiest worker host was near its "
                    + "limit)", DiagnosisText.lines(d).get(0));
        }
        ResultFile.Diagnosis under = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(),
                new WindowFigures.Hosts(0.799, "local-1", 0, ""), HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("  limited by: none (the run kept up with its target and nothing was near its limit)",
                DiagnosisText.lines(under).get(0));
        ResultFile.Diagnosis unread = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(),
                WindowFigures.Hosts.UNKNOWN, HEALTHY.consumers(), HEALTHY.brokers()));
        assertTrue(unread.evidence().stream().noneMatch(e -> "workerCpu".equals(e.figure())), "no host figures: no line");
    }
    /**
     * Three kbench worker processes and a broker on one 2-core host: each worker's process used 20% of the cores, the
     * host was 95% busy — and the run said "nothing was near its limit".
     */
    @Test
    void shouldSayTheBusiestWorkerHostWasNearItsLimitWhenOtherProcessesFilledIt() {
        WindowFigures.Hosts crowded = new WindowFigures.Hosts(0.20, "vm:17101", 0, "", 24_000, -1, -1, 0.08, 0.95,
                "vm:17101");
        ResultFile.Diagnosis d = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), crowded,
                HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("none", d.limit(), "the target was met");
        ResultFile.Evidence busy = d.evidence().get(d.evidence().size() - 1);
        assertEquals("workerHostBusy", busy.figure());
        assertEquals(">=", busy.op());
        assertEquals("but the busiest worker's host (vm:17101) was 95% busy on average, every process on it counted: "
                + "near its limit, with other processes on the cores its load threads need; a higher rate may be held "
                + "back by it rather than by the cluster", busy.text());
        assertEquals("  limited by: none (the run kept up with its target, but its busiest worker host was near its "
                + "limit)", DiagnosisText.lines(d).get(0));
        ResultFile.Diagnosis roomy = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(),
                new WindowFigures.Hosts(0.20, "vm:17101", 0, "", 24_000, -1, -1, 0.08, 0.79, "vm:17101"),
                HEALTHY.consumers(), HEALTHY.brokers()));
        assertTrue(roomy.evidence().stream().noneMatch(e -> "workerHostBusy".equals(e.figure())), "79%: room");
    }

    /** The busiest worker's JIT compilers: named beside its CPU from a tenth of it on, with a warm-up to suggest. */
    @Test
    void shouldSayHowMuchOfTheBusiestWorkersCpuWentToTheJit() {
        WindowFigures.Hosts compiling = new WindowFigures.Hosts(0.74, "local-1", 20_000, "coordinator, embedded broker",
                22_000, 0.79, 0.035, 0.296);
        ResultFile.Diagnosis g = Diagnosis.of(new WindowFigures(new WindowFigures.Load(5_000, 20, 5_000, 5_000, true,
                false, "", 20, 3, 10, 3), HEALTHY.producers(), compiling, HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("generator", g.limit());
        ResultFile.Evidence jit = g.evidence().stream().filter(e -> "workerJit".equals(e.figure())).findFirst()
                .orElseThrow(() -> new AssertionError(g.evidence().toString()));
        assertEquals(0.4, jit.value(), 1e-9, "0.296 of the cores out of the worker's 0.74");
        assertEquals(">=", jit.op());
        assertEquals(Diagnosis.JIT_SHARE, jit.threshold(), 1e-12);
        assertEquals("the busiest worker's JIT compilers took 40% of its CPU over the window (30% of its cores): a JVM "
                + "still compiling its code, on the cores its load threads need", jit.text());
        assertTrue(g.suggestions().stream().anyMatch(x -> x.startsWith("a longer warm-up (warmupSeconds), or workers "
                + "that stay up between runs") && x.contains("took 40% of its CPU")), g.suggestions().toString());
        assertEquals(g.strength(), Diagnosis.of(new WindowFigures(new WindowFigures.Load(5_000, 20, 5_000, 5_000, true,
                false, "", 20, 3, 10, 3), HEALTHY.producers(), new WindowFigures.Hosts(0.74, "local-1", 20_000,
                "coordinator, embedded broker", 22_000, 0.79, 0.035), HEALTHY.consumers(), HEALTHY.brokers()))
                .strength(), 1e-12, "a figure beside the limit: it does not make it stronger");
        // kept up: none, and the CPU line says how much of it was the JIT
        ResultFile.Diagnosis n = Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), compiling,
                HEALTHY.consumers(), HEALTHY.brokers()));
        assertEquals("none", n.limit());
        assertEquals("the busiest worker (local-1) used 74% of its cores, shared with the coordinator, embedded broker, "
                + "40% of it compiling (the JIT: a JVM still compiling its code)",
                n.evidence().get(n.evidence().size() - 1).text());
        // under a tenth of the CPU, or not measured: nothing said
        for (double little : new double[] {0.0739, -1}) {
            WindowFigures.Hosts h = new WindowFigures.Hosts(0.74, "local-1", 20_000, "", 22_000, 0.79, 0.035, little);
            ResultFile.Diagnosis d = Diagnosis.of(new WindowFigures(new WindowFigures.Load(5_000, 20, 5_000, 5_000, true,
                    false, "", 20, 3, 10, 3), HEALTHY.producers(), h, HEALTHY.consumers(), HEALTHY.brokers()));
            assertTrue(d.evidence().stream().noneMatch(e -> "workerJit".equals(e.figure())), d.evidence().toString());
            assertTrue(d.suggestions().stream().noneMatch(x -> x.contains("warm-up")), d.suggestions().toString());
            assertTrue(Diagnosis.of(new WindowFigures(HEALTHY.load(), HEALTHY.producers(), h, HEALTHY.consumers(),
                    HEALTHY.brokers())).evidence().stream().noneMatch(e -> e.text().contains("JIT")));
        }
    }

    @Test
    void shouldNotNameReplicationForWhatABrokerKbenchStoppedDid() {
        WindowFigures.Brokers h = HEALTHY.brokers();
        WindowFigures.Brokers faulted = new WindowFigures.Brokers(h.handlerIdle(), h.handlerSource(), h.networkIdle(),
                h.networkSource(), h.timeSource(), h.produceTotalMs(), h.requestQueueMs(), h.localMs(), h.remoteMs(),
                h.responseQueueMs(), h.responseSendMs(), 0, 0, h.logFlushMs(), h.processCpu(), 7, 1);
        ResultFile.Diagnosis d = Diagnosis.of(with(l -> l, p -> p, c -> c, b -> faulted));
        assertEquals("none", d.limit());
        assertTrue(d.evidence().stream().anyMatch(e -> e.text().equals("up to 7 under-replicated partition(s) and 1 ISR "
                + "shrink(s) while a broker kbench stopped was down or catching up: the fault's, not a limit")),
                d.evidence().toString());
        // beyond the fault as well: replication, on those figures alone
        WindowFigures.Brokers both = new WindowFigures.Brokers(h.handlerIdle(), h.handlerSource(), h.networkIdle(),
                h.networkSource(), h.timeSource(), h.produceTotalMs(), h.requestQueueMs(), h.localMs(), h.remoteMs(),
                h.responseQueueMs(), h.responseSendMs(), 2, 0, h.logFlushMs(), h.processCpu(), 7, 1);
        ResultFile.Diagnosis r = Diagnosis.of(with(l -> l, p -> p, c -> c, b -> both));
        assertEquals("replication", r.limit());
        assertTrue(r.evidence().stream().anyMatch(e -> e.text().equals("up to 2 under-replicated partition(s)")),
                r.evidence().toString());
        // beside the limit, the checks that held: the brokers' threads had room, and what the fault did
        assertEquals(List.of("ackedRate", "requestHandlerIdle", "networkProcessorIdle", "faultUnderReplicatedPartitions",
                "producerWaitRatio", "saturatedShare"), r.held().stream().map(ResultFile.Evidence::figure).toList());
        assertTrue(r.held().get(1).value() >= r.held().get(1).threshold() && r.held().get(1).op().equals(">="),
                r.held().get(1).toString());
        assertTrue(io.kbench.coordinator.diagnosis.DiagnosisText.lines(r).stream().anyMatch(l -> l.startsWith("    held: ")
                && l.contains("the fault's, not a limit")), io.kbench.coordinator.diagnosis.DiagnosisText.lines(r).toString());
    }
    /**
     * The 100-topic run on the embedded default was named broker-request-handlers (idle 5%) with 200 clients on the
     * same 2 cores: a pool short of cores, not of threads. A broker in the busiest worker's process on a busy host
     * says so and asks for cores of its own first; on a host with room, or a broker elsewhere, nothing is added.
     */
    @Test
    void shouldSayABrokerPoolSharedTheWorkersBusyCores() {
        WindowFigures busyHandlers = with(UnaryOperator.identity(), UnaryOperator.identity(), UnaryOperator.identity(),
                idle(0.05, 0.9));
        java.util.function.Function<WindowFigures.Hosts, ResultFile.Diagnosis> on = h -> Diagnosis.of(new WindowFigures(
                busyHandlers.load(), busyHandlers.producers(), h, busyHandlers.consumers(), busyHandlers.brokers()));
        ResultFile.Diagnosis shared = on.apply(new WindowFigures.Hosts(0.62, "local-1", 0, "coordinator, embedded broker",
                -1, -1, -1, -1, 0.93, "local-1"));
        assertEquals("broker-request-handlers", shared.limit());
        assertTrue(shared.evidence().stream().anyMatch(e -> "workerHostBusy".equals(e.figure())
                && e.text().startsWith("the broker ran in the process of worker local-1, whose host was 93% busy")),
                shared.evidence().toString());
        assertTrue(shared.suggestions().get(0).startsWith("brokers on cores of their own"), shared.suggestions().toString());
        assertTrue(shared.suggestions().get(1).startsWith("num.io.threads"), shared.suggestions().toString());

        ResultFile.Diagnosis roomy = on.apply(new WindowFigures.Hosts(0.5, "local-1", 0, "coordinator, embedded broker",
                -1, -1, -1, -1, 0.79, "local-1"));
        ResultFile.Diagnosis elsewhere = on.apply(new WindowFigures.Hosts(0.95, "w1", 0, "", -1, -1, -1, -1, 0.97, "w1"));
        for (ResultFile.Diagnosis d : List.of(roomy, elsewhere)) {
            assertEquals("broker-request-handlers", d.limit());
            assertTrue(d.suggestions().get(0).startsWith("num.io.threads"), d.suggestions().toString());
            assertTrue(d.evidence().stream().noneMatch(e -> e.text().startsWith("the broker ran in the process")),
                    d.evidence().toString());
        }
    }
}
