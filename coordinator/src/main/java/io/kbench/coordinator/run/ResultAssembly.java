package io.kbench.coordinator.run;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.CatchUp;
import io.kbench.coordinator.merge.IntervalMerger;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.report.files.HtmlReport;
import io.kbench.coordinator.report.files.IntervalsCsv;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.files.Written;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;

/**
 * The last step of a run: from what was gathered, the measured window, the summary (with verification and
 * the clock bound), the per-worker table and the run's issues; the console summary; and {@code result.json}.
 * A failed run is assembled the same way from what was gathered.
 */
final class ResultAssembly {
    /**
     * Everything a finished run gathered.
     *
     * @param error          the run's failure, or null when it completed
     * @param rebalanceMicros the slowest consumer's time to its first assignment
     * @param releaseMicros  when a backlog run's consumers were released, 0 if never
     * @param lost           workers lost, by index, with the reason
     * @param issues         what went wrong without failing the run, in order
     */
    record Gathered(String runId, Instant startedAt, String error, Plan plan, List<WorkerClient.Identity> ids,
                    List<String> addresses, List<ClockEstimator.WorkerClock> clocks, RunWindow window,
                    IntervalMerger merger, List<MergedInterval> intervals, long rebalanceMicros, long releaseMicros,
                    Map<Integer, String> lost, List<String> issues, FaultTimeline faults,
                    ResultFile.Provenance provenance, long failedAtMicros, long intervalMicros) { }

    private final Workload workload;
    private final Profile profile;
    private final Path dir;
    private final Written written;
    private final RunReporter out;

    ResultAssembly(Workload workload, Profile profile, Path dir, RunReporter out, Written written) {
        this.written = written;
        this.workload = workload;
        this.profile = profile;
        this.dir = dir;
        this.out = out;
    }

    /**
     * Null when a timed warm-up sent what fell due in it (within 0.5%, one message per producer); otherwise a
     * line saying that the producers ran behind in the warm-up and skipped what they still owed when measuring
     * began (ProducerLoop), so the measured window started on schedule.
     */
    static String warmupShortfall(Workload workload, List<MergedInterval> intervals, long measureStartMicros) {
        long sent = io.kbench.coordinator.diagnosis.WindowFigures.warmupSent(workload, intervals, measureStartMicros);
        if (!io.kbench.coordinator.diagnosis.WindowFigures.warmupBehind(workload, sent)) {
            return null;
        }
        long due = workload.producerRate() * workload.warmupSeconds();
        return String.format(java.util.Locale.ROOT, "the warm-up sent %,d of the %,d messages due in it (%.1f%%): the "
                + "load generator ran behind (a cold JVM, a slow start); the producers skipped the rest when measuring "
                + "began, so the measured window started on schedule (a longer warmupSeconds gives the workers more "
                + "time to warm up)", sent, due, 100.0 * sent / due);
    }

    /**
     * Under the latency table of a transactional run read with {@code read_committed} (the default then): a record
     * reaches such a consumer only once its transaction has committed, so its end-to-end time holds the wait for the
     * rest of its transaction and the commit — at a target rate, how long a transaction stays open at each producer.
     * Null otherwise.
     */
    static String readCommittedNote(Workload workload, Profile profile, Summary summary) {
        if (!workload.transactional() || workload.consumerCount() == 0
                || !"read_committed".equals(profile.consumer().get("isolation.level"))
                || summary.histograms().get(io.kbench.protocol.Metric.END_TO_END).getTotalCount() == 0) {
            return null;
        }
        io.kbench.coordinator.workload.Transactions t = workload.transactions();
        double open = Double.NaN; // ms a transaction stays open at each producer
        if (workload.producerRate() > 0 && workload.producerCount() > 0 && t.transactionRecords() > 0) {
            open = 1000.0 * t.transactionRecords() / ((double) workload.producerRate() / workload.producerCount());
        }
        if (t.transactionMillis() > 0) {
            open = Double.isNaN(open) ? t.transactionMillis() : Math.min(open, t.transactionMillis());
        }
        String span = Double.isNaN(open) ? "" : String.format(java.util.Locale.ROOT, ": a transaction stays open about "
                + "%,.0f ms at each producer (%s), so a record waits up to that for the rest of it", open,
                t.transactionRecords() > 0 && (t.transactionMillis() == 0 || open < t.transactionMillis())
                        ? String.format(java.util.Locale.ROOT, "%,d messages at %,.0f msg/s each", t.transactionRecords(),
                                (double) workload.producerRate() / workload.producerCount())
                        : "transactionMillis " + t.transactionMillis());
        return "  end-to-end, read_committed: a record reaches the consumers once its transaction has committed, so "
                + "the figures include the wait for the rest of its transaction and the commit" + span;
    }

    /** Below this many seconds of their reading at the target, consumers count as caught up. */
    static final double CAUGHT_UP_SECONDS = 0.1;

    /**
     * Null unless the classic consumers began the measured window more than a second of their reading behind (their
     * lag at the warm-up's last interval's end against the target rate times the groups reading it): a cold start in the
     * warm-up, whose backlog the window's first seconds then read, their end-to-end times with it. Otherwise a line
     * saying when they caught up (their lag under {@link #CAUGHT_UP_SECONDS} of reading) and the end-to-end p99 of
     * the intervals until then; or that they were still catching up at the window's end. Consumers whose lag grew
     * over the window are the diagnosis's ({@code consumers}), not this line's; a backlog run's lag is its design.
     */
    static String consumersBehindAtStart(Workload workload, List<MergedInterval> intervals, long measureStartMicros,
                                         long measureEndMicros) {
        // the classic groups' lag: a share group's backlog counts the records its consumers hold locked too, a
        // steady share of it whatever they keep up with
        int readers = workload.subscriptionsPerTopic();
        if (workload.producerRate() <= 0 || workload.producerCount() == 0 || readers == 0
                || workload.consumerBacklogRecords() > 0) {
            return null;
        }
        long atStart = -1;
        for (MergedInterval i : intervals) {
            if (i.endMicros() <= measureStartMicros) {
                atStart = i.consumerLag();
            }
        }
        double perSecond = (double) workload.producerRate() * readers;
        if (atStart < perSecond) {
            return null; // no warm-up, lag unknown, or less than a second behind
        }
        long most = atStart;
        long p99 = 0;
        long last = -1;
        for (MergedInterval i : MergedInterval.window(intervals, measureStartMicros, measureEndMicros)) {
            if (i.consumerLag() < 0) {
                continue;
            }
            most = Math.max(most, i.consumerLag());
            p99 = Math.max(p99, i.stats(io.kbench.protocol.Metric.END_TO_END).p99());
            last = i.consumerLag();
            if (i.consumerLag() <= CAUGHT_UP_SECONDS * perSecond) {
                return String.format(java.util.Locale.ROOT, "the consumers began the measured window %,d message(s) "
                        + "behind (%.1f s of their reading at the target: they fell behind in the warm-up) and caught up "
                        + "%.0f s into it (%,d behind at most); the end-to-end times of those seconds include that "
                        + "backlog (p99 up to %s in them): a longer warmupSeconds measures the steady state alone",
                        atStart, atStart / perSecond, (i.endMicros() - measureStartMicros) / 1e6, most,
                        ms(p99));
            }
        }
        if (last < 0 || last >= atStart) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "the consumers began the measured window %,d message(s) behind "
                + "(%.1f s of their reading at the target: they fell behind in the warm-up) and were still catching up at "
                + "its end (%,d behind); the window's end-to-end times include that backlog (p99 up to %s per interval): "
                + "a longer warmupSeconds measures the steady state alone", atStart, atStart / perSecond, last,
                ms(p99));
    }

    private static String ms(long micros) {
        return String.format(java.util.Locale.ROOT, "%,.1f ms", micros / 1000.0);
    }

    /**
     * The console's line on the share groups: deliveries, acknowledgements, rates, how evenly they spread over the
     * consumers, the backlog at the end, and what the per-record check found (or that none was made).
     *
     * @param backlog the share groups' backlog at the end of the last interval that read it; -1 when none did
     */
    static String shareLine(Summary s, int shareGroups, io.kbench.protocol.ShareSpread spread, long backlog) {
        var t = s.totals();
        var v = s.shareVerification();
        return String.format(java.util.Locale.ROOT, "  share   : %,d delivered (%,d redelivered) to %d share group(s) per "
                + "topic; %,d accepted, %,d released, %,d rejected; %,.1f deliveries/s, %,.1f accepted/s, %.2f MB/s; "
                + "%s%s%s", t.shareDelivered(), t.shareRedelivered(), shareGroups, t.shareAccepted(),
                t.shareReleased(), t.shareRejected(), s.shareDeliverRate(), s.shareAcceptRate(), s.shareDeliverMBps(),
                spread.consumers() == 0 ? "" : String.format(java.util.Locale.ROOT, "per consumer %,d to %,d deliveries "
                        + "(%d consumers); ", spread.min(), spread.max(), spread.consumers()),
                backlog < 0 ? "" : String.format(java.util.Locale.ROOT, "backlog at the end %,d (the brokers' count); ",
                        backlog),
                v == null ? "not verified per record" : String.format(java.util.Locale.ROOT, "verified per record: %,d "
                        + "lost, %,d duplicated%s (redeliveries apart; order not checked)", v.lost(), v.duplicated(),
                        v.untracked() == 0 ? "" : String.format(java.util.Locale.ROOT, ", %,d untracked", v.untracked())));
    }

    RunOutcome assemble(Gathered g) {
        List<String> issues = new ArrayList<>(g.issues());
        long measureStart = g.merger().measureStartMicros();
        long measureEnd = measureEnd(g, measureStart);
        Summary summary = Summary.of(g.intervals(), measureStart, measureEnd, workload.saturationDelayMillis() * 1000,
                        g.merger().summaryHistograms())
                .withClocks(clockBound(g));
        if (workload.verification() && workload.consumerCount() > 0) {
            // the tail never received counts as lost only when the run had the chance to drain
            long expectedDistinct = g.error() == null && workload.producerCount() > 0
                    ? summary.acked() * workload.subscriptionsPerTopic() : 0;
            summary = summary.withVerification(g.merger().totals(), expectedDistinct);
        }
        long expected = workload.messagesPerReader(summary.acked()) * workload.subscriptionsPerTopic();
        if (g.error() == null && workload.consumerCount() > 0 && summary.received() < expected) {
            issues.add(String.format("consumers received %,d of the %,d messages expected (x%d subscriptions)",
                    summary.received(), expected, workload.subscriptionsPerTopic()));
        }
        int shareGroups = workload.shareGroups().groupsPerTopic();
        if (shareGroups > 0 && workload.verification() && workload.producerCount() > 0) {
            // checked against this run's producers' records (a run without them has nothing to check against); as
            // for classic consumers, the records never delivered count as lost only when the run could drain
            long expectedDistinct = g.error() == null && workload.producerCount() > 0
                    ? summary.acked() * shareGroups : 0;
            summary = summary.withShareVerification(g.merger().shareVerification(expectedDistinct));
            var sv = summary.shareVerification();
            if (sv != null && sv.lost() + sv.duplicated() > 0) {
                issues.add(String.format("the share groups' per-record check found %,d message(s) lost and %,d "
                        + "duplicated", sv.lost(), sv.duplicated()));
            }
        }
        long settled = summary.totals().shareAccepted() + summary.totals().shareRejected();
        long expectedSettled = workload.shareMessagesExpected(summary.acked());
        if (g.error() == null && shareGroups > 0 && settled < expectedSettled) {
            issues.add(String.format("the share groups accepted or rejected %,d of the %,d messages expected (x%d share "
                    + "groups)", settled, expectedSettled, shareGroups));
        }
        String warmup = warmupShortfall(workload, g.intervals(), measureStart);
        if (warmup != null) {
            issues.add(warmup);
        }
        String behind = consumersBehindAtStart(workload, g.intervals(), measureStart, measureEnd);
        if (behind != null) {
            issues.add(behind);
        }
        // followed by the merger as the intervals came (the same counts CatchUp.of takes), with the latency after it
        CatchUp catchUp = g.releaseMicros() == 0 ? null : g.merger().catchUp();
        if (g.releaseMicros() != 0 && catchUp == null) {
            issues.add("the consumers did not catch up with the backlog");
        }
        String status = g.error() == null ? "COMPLETED" : "FAILED";
        if (workload.warmupRecords() > 0) {
            out.on(new RunEvent.WholeRun(String.format("kbench %s %s: %s", workload.name(), g.runId(), status),
                    Summary.of(g.intervals(), g.window().runStartMicros(), measureEnd,
                            workload.saturationDelayMillis() * 1000, g.merger().wholeRunHistograms())));
        }
        out.on(new RunEvent.Summarized(String.format("kbench %s %s: %s", workload.name(), g.runId(), status), summary,
                workload.subscriptionsPerTopic()));
        if (workload.producersPerTopic() == 0
                && summary.histograms().get(io.kbench.protocol.Metric.END_TO_END).getTotalCount() > 0) {
            // under the latency table: a consumer-only run reads what another run wrote, maybe long before
            out.info("  end-to-end, consumers only: from each record's intended send by the run that wrote it; for "
                    + "records written before this run, their age when read, not the path's latency");
        }
        String committed = readCommittedNote(workload, profile, summary);
        if (committed != null) {
            out.info(committed);
        }
        if (shareGroups > 0) {
            // next to the summary's consume line
            out.info(shareLine(summary, shareGroups, g.merger().shareSpread(),
                    ResultDocument.backlog(g.intervals(), measureStart, measureEnd)[0]));
        }
        List<ResultFile.Worker> workers = workerEntries(g);
        String hosts = ResultDocument.hostsLine(workers);
        if (hosts != null) {
            out.info(hosts);
        }
        io.kbench.coordinator.FaultTimeline faults = g.faults();
        io.kbench.coordinator.merge.BrokerWindow brokers = io.kbench.coordinator.merge.BrokerWindow.of(g.intervals(),
                measureStart, measureEnd, (from, to) -> faults != null && !faults.downDuring(from, to).isEmpty());
        brokers.lines(summary.publishMBps(), compressionRate(g)).forEach(out::info);
        ResultFile.Network network = network(g, summary, brokers);
        if (network != null) {
            out.info("  network: " + ResultDocument.networkText(network, g.provenance()));
        }
        String disagree = crossCheck(brokers, summary, g);
        if (disagree != null) {
            issues.add(disagree);
        }
        if (catchUp != null) {
            out.info("  catch-up: " + ResultDocument.catchUpText(catchUp, workload.subscriptionsPerTopic()));
            out.info("  " + ResultDocument.afterCatchUpText(catchUp, g.window().runStartMicros() / 1000));
        }
        List<ResultFile.LostWorker> lostWorkers = new ArrayList<>();
        for (Map.Entry<Integer, String> l : g.lost().entrySet()) {
            String id = g.ids().get(l.getKey()).id();
            lostWorkers.add(new ResultFile.LostWorker(id, g.addresses().get(l.getKey()), l.getValue(),
                    g.merger().received(id) - 1));
            out.info("  lost worker " + id + ": " + l.getValue() + "; the other workers were stopped");
        }
        io.kbench.coordinator.merge.PartitionSpread.Result spread = g.merger().partitions(topicPartitions(g));
        ResultFile.Partitions partitions = spread == null ? null : new ResultFile.Partitions(spread.workers(),
                spread.acked(), new ResultFile.Busiest(spread.topic(), spread.partition(), spread.busiestAcked(),
                spread.share(), spread.partitions(), spread.skew()));
        String hot = partitionsLine(partitions, g.ids().size());
        if (hot != null) {
            out.info(hot);
        }
        issues.forEach(i -> out.info("  issue: " + i));
        Path file = null;
        ResultFile.Diagnosis diagnosis = diagnose(g, summary, workers, brokers, measureStart, measureEnd, spread);
        io.kbench.coordinator.diagnosis.DiagnosisText.lines(diagnosis).forEach(out::info);
        ResultFile.Run result = ResultDocument.build(g.runId(), status, g.error(), g.startedAt(), workload, profile,
                workers, topicNames(g.plan()), g.window().runStartMicros(), measureStart, measureEnd,
                g.intervals(), summary, catchUp, g.rebalanceMicros(), issues, lostWorkers, g.faults(), g.provenance(),
                g.merger().shareSpread()).withDiagnosis(diagnosis).withNetwork(network)
                .withPartitions(partitions);
        out.on(new RunEvent.Result(result));
        // each file on its own: one that cannot be written does not keep the others from being written
        try {
            file = ResultDocument.write(dir, result);
            written.ok(file);
        } catch (IOException | RuntimeException e) {
            written.failed("result.json", e);
        }
        try {
            written.ok(IntervalsCsv.write(dir, result));
        } catch (IOException | RuntimeException e) {
            written.failed("intervals.csv", e);
        }
        try {
            Path page = HtmlReport.write(dir.resolve("report.html"), "kbench " + workload.name() + " " + g.runId(),
                    List.of(new HtmlReport.Named(workload.name() + " " + g.runId(), result)));
            written.ok(page);
            out.info("report: " + page);
        } catch (IOException | RuntimeException e) {
            written.failed("report.html", e);
        }
        if (file != null) {
            out.info("result: " + file);
        }
        if (!written.complete()) {
            out.info("could not write every file to " + dir + ": " + written.problem());
        }
        return new RunOutcome(g.error() == null, file, g.error(), summary, result, g.intervals(), measureStart,
                measureEnd, written);
    }

    /**
     * What limited the run, from its measured window (docs/diagnosis.md); null for a run that failed before it
     * measured anything.
     */
    private ResultFile.Diagnosis diagnose(Gathered g, Summary summary, List<ResultFile.Worker> workers,
                                          io.kbench.coordinator.merge.BrokerWindow brokers, long measureStart,
                                          long measureEnd, io.kbench.coordinator.merge.PartitionSpread.Result spread) {
        if (measureEnd <= measureStart || g.intervals().isEmpty()) {
            return null;
        }
        if (workload.roundTrip()) {
            return io.kbench.coordinator.diagnosis.Diagnosis.roundTrip(summary.publishRate(),
                    summary.stats(io.kbench.protocol.Metric.END_TO_END), summary.stats(io.kbench.protocol.Metric.PUBLISH_LATENCY));
        }
        // the window is judged on its own figures: a failed run's ends before its failure (measureEnd), and the failure
        // itself is the result's status and error, not a limit of the cluster — judged as failed, an interrupted run
        // that kept its target read as limited, and the worker's CPU named its limit
        Summary judged = g.error() == null ? summary : summary.withFailed(summary.window().failed());
        io.kbench.coordinator.capacity.TrialVerdict verdict = io.kbench.coordinator.capacity.TrialVerdict.judge(workload,
                true, null, judged, g.intervals(), measureStart, measureEnd, List.of());
        return io.kbench.coordinator.diagnosis.Diagnosis.of(io.kbench.coordinator.diagnosis.WindowFigures.of(workload,
                profile, g.intervals(), measureStart, measureEnd, verdict, workers, brokers, clusterBrokers(g), spread));
    }

    /**
     * Each of the run's topics' partition count, as the cluster described it (the workload's partitionsPerTopic for a
     * topic it did not describe).
     */
    private Map<String, Integer> topicPartitions(Gathered g) {
        ResultFile.Cluster c = g.provenance() == null ? null : g.provenance().cluster();
        Map<String, Integer> out = new java.util.HashMap<>();
        for (String topic : topicNames(g.plan())) {
            ResultFile.Topic t = c == null || c.topics() == null ? null : c.topics().get(topic);
            int n = t != null && t.partitions() > 0 ? t.partitions() : workload.partitionsPerTopic();
            if (n > 0) {
                out.put(topic, n);
            }
        }
        return out;
    }

    /** The console's line on a hot partition ({@link ResultDocument#partitionsText}); null when there is none. */
    String partitionsLine(ResultFile.Partitions p, int workers) {
        String text = ResultDocument.partitionsText(p);
        if (text == null) {
            return null;
        }
        return "  partitions: " + text + " (" + io.kbench.coordinator.diagnosis.WindowFigures.keys(workload) + ")"
                + (p.workers() < workers ? String.format(java.util.Locale.ROOT, "; counted by %d of the %d workers",
                p.workers(), workers) : "");
    }

    /** The cluster's brokers as the run saw them (the embedded cluster's, or those the Admin API described); 0: unknown. */
    private static int clusterBrokers(Gathered g) {
        ResultFile.Cluster c = g.provenance() == null ? null : g.provenance().cluster();
        if (c == null) {
            return 0;
        }
        return c.embedded() ? c.embeddedBrokers() : c.brokers() == null ? 0 : c.brokers().size();
    }

    /**
     * How close the run came to its brokers' network links (null when no bandwidth was given, nothing was produced
     * in a measured window, or the cluster's brokers are not known): what was produced — the brokers' bytes in when
     * every broker was read in every measured interval, else the values acknowledged — against
     * {@link io.kbench.coordinator.capacity.NetworkCeiling}, with the run's topics as the cluster described them.
     */
    private ResultFile.Network network(Gathered g, Summary summary, io.kbench.coordinator.merge.BrokerWindow brokers) {
        int brokerCount = clusterBrokers(g);
        if (profile.networkGbps() <= 0 || brokerCount < 1 || workload.producerCount() == 0
                || summary.measuredSeconds() <= 0) {
            return null;
        }
        int partitions = 0;
        int rf = 0;
        ResultFile.Cluster c = g.provenance() == null ? null : g.provenance().cluster();
        for (String topic : topicNames(g.plan())) {
            ResultFile.Topic t = c == null || c.topics() == null ? null : c.topics().get(topic);
            partitions += t != null && t.partitions() > 0 ? t.partitions() : workload.partitionsPerTopic();
            rf = Math.max(rf, t != null && t.replicationFactor() > 0 ? t.replicationFactor() : profile.replicationFactor());
        }
        if (partitions < 1) {
            return null;
        }
        io.kbench.coordinator.capacity.NetworkCeiling ceiling = new io.kbench.coordinator.capacity.NetworkCeiling(
                profile.networkGbps(), brokerCount, partitions, Math.max(1, rf),
                workload.subscriptionsPerTopic() + workload.shareGroups().groupsPerTopic());
        boolean everyBroker = ResultDocument.everyBrokerRead(brokers, c, "bytesInPerSec");
        double produce = everyBroker ? brokers.sum("bytesInPerSec") : summary.publishMBps() * MB;
        String busiest = null;
        double busiestBytes = -1;
        // a link's figures need a source per broker: brokers sharing one JVM (the embedded cluster's one node, or
        // several in kbench's JVM) read as one source, all of them together
        if (c != null && everyBroker && brokers.sources() == brokerCount && brokers.complete("bytesOutPerSec")) {
            for (String src : brokers.answered()) {
                double in = brokers.mean(src, "bytesInPerSec") + orZero(brokers.mean(src, "replicationBytesInPerSec"));
                double outBytes = brokers.mean(src, "bytesOutPerSec") + orZero(brokers.mean(src, "replicationBytesOutPerSec"));
                if (Math.max(in, outBytes) > busiestBytes) {
                    busiestBytes = Math.max(in, outBytes);
                    busiest = src;
                }
            }
        }
        return new ResultFile.Network(ceiling.gbps(), brokerCount, partitions, ceiling.replicationFactor(),
                ceiling.groups(), ceiling.linkBytes() / MB, ceiling.ceilingBytes() / MB, ceiling.bound(), produce / MB,
                everyBroker ? "brokers" : "clients", produce / ceiling.ceilingBytes(), busiest,
                busiest == null ? null : busiestBytes / MB, busiest == null ? null : busiestBytes / ceiling.linkBytes());
    }

    private static final double MB = io.kbench.coordinator.capacity.NetworkCeiling.MB;

    private static double orZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /**
     * The brokers' bytes in against what was acknowledged ({@link io.kbench.coordinator.merge.BrokerCrossCheck}),
     * when every broker was read in every measured interval: the embedded cluster's one source, or as many sources as
     * the cluster has brokers.
     */
    private static String crossCheck(io.kbench.coordinator.merge.BrokerWindow brokers, Summary summary, Gathered g) {
        if (brokers.isEmpty()) {
            return null;
        }
        // one source per broker (more sources than brokers read some broker twice: a JMX port and an exporter), each
        // answering in every measured interval
        boolean every = ResultDocument.everyBrokerRead(brokers, g.provenance() == null ? null : g.provenance().cluster(), "bytesInPerSec");
        return io.kbench.coordinator.merge.BrokerCrossCheck.check(brokers.sum("bytesInPerSec"), every,
                summary.publishMBps() * 1024 * 1024, summary.publishRate(), compressionRate(g), summary.measuredSeconds(),
                summary.stats(io.kbench.protocol.Metric.PUBLISH_LATENCY).max() / 1e6);
    }

    /**
     * The producers' mean {@code compression-rate-avg} (compressed / uncompressed) over the measured intervals that
     * reported it; NaN when none did.
     */
    private static double compressionRate(Gathered g) {
        double sum = 0;
        int n = 0;
        for (MergedInterval i : g.intervals()) {
            Double c = i.producerClients().values().get("compression-rate-avg");
            if (c != null && c > 0 && i.startMicros() >= g.merger().measureStartMicros()) {
                sum += c;
                n++;
            }
        }
        return n > 0 ? sum / n : Double.NaN;
    }

    static List<String> topicNames(Plan plan) {
        return plan.topics().stream().map(Plan.Topic::name).toList();
    }

    /** The bound on end-to-end clock error: producing and consuming workers' clock uncertainties. */
    static long clockBound(List<ClockEstimator.WorkerClock> clocks, Plan plan) {
        List<Boolean> producing = plan.workers().stream().map(a -> !a.producers().isEmpty()).toList();
        List<Boolean> consuming = plan.workers().stream().map(a -> !a.consumers().isEmpty()).toList();
        synchronized (clocks) {
            return ClockEstimator.endToEndBound(clocks, producing, consuming);
        }
    }

    private static long clockBound(Gathered g) {
        return clockBound(g.clocks(), g.plan());
    }

    /**
     * A timed run's measurement ends at its planned end; a record-count run's when its last producer finished,
     * a consumer-only one's with its last receipt (each worker reports those instants), or failing those at
     * the end of the last interval that moved anything; a failed run's no later than the last interval boundary
     * before the failure, nor after the last interval a lost worker sent.
     */
    private long measureEnd(Gathered g, long measureStart) {
        long end = plannedOrDoneEnd(g, measureStart);
        if (g.error() == null || g.failedAtMicros() >= end) {
            return end;
        }
        // a failed run's window ends at the last interval boundary before the failure: the interval it failed in holds
        // the stop itself (producers closed at once, their sends in flight failed by kbench, not by the cluster) and
        // the time after it, when nothing was sent — counted in, they made an interrupted run read as short of its target
        long origin = g.window().runStartMicros();
        long cut = origin + Math.floorDiv(g.failedAtMicros() - origin, g.intervalMicros()) * g.intervalMicros();
        // a lost worker was lost before the coordinator could tell (its stream went silent, or broke between
        // snapshots): the intervals after its last one lack its figures
        for (Integer index : g.lost().keySet()) {
            cut = Math.min(cut, origin + g.merger().received(g.ids().get(index).id()) * g.intervalMicros());
        }
        return Math.max(measureStart, Math.min(end, cut));
    }

    private long plannedOrDoneEnd(Gathered g, long measureStart) {
        if (workload.numRecords() == 0) {
            return g.window().plannedEndMicros();
        }
        boolean consumersOnly = workload.producerCount() == 0;
        long end = consumersOnly ? g.merger().lastReceiveMicros() : g.merger().producersDoneMicros();
        if (end > measureStart) {
            return end;
        }
        end = measureStart;
        for (MergedInterval i : g.intervals()) {
            long moved = consumersOnly ? i.counters().received() : i.counters().sent();
            if (moved > 0 && i.startMicros() >= measureStart) {
                end = Math.max(end, i.endMicros());
            }
        }
        return end;
    }

    private List<ResultFile.Worker> workerEntries(Gathered g) {
        List<ResultFile.Worker> entries = new ArrayList<>();
        for (int i = 0; i < g.ids().size(); i++) {
            Plan.WorkerAssignment a = g.plan().workers().get(i);
            var t = g.merger().totals(g.ids().get(i).id());
            ClockEstimator.WorkerClock wc = g.clocks().get(i);
            entries.add(new ResultFile.Worker(g.ids().get(i).id(), g.addresses().get(i),
                    wc.initialOffset(), wc.uncertainty(), wc.offset() - wc.initialOffset(), wc.estimates(),
                    wc.corrections(), a.producers().size(), a.consumers().size(), a.rate(), t.sent(), t.acked(),
                    t.failed(), t.received(), ResultDocument.workerHost(g.merger().host(g.ids().get(i).id()))));
        }
        return entries;
    }
}
