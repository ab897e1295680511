package io.kbench.coordinator.capacity;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.HtmlReport;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.console.TextTable;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOutcome;

/**
 * {@code kbench run --find-max-rate}: fixed-rate trials of a workload, each a complete run with its own warm-up,
 * duration, fresh topics and result.json (in {@code NN-RATE/} under the search's directory), chosen by
 * {@link RateSearch} and judged by {@link TrialVerdict}. Without a rate in the workload, an unthrottled probe
 * trial comes first and its achieved rate is where the search starts.
 *
 * <p>Afterwards the search's directory holds {@code result.json}: the result of the highest passing trial (its
 * own steady state at that rate — no other trial's figures are mixed in) with {@code rateSearch} added, so
 * {@code kbench report} and {@code kbench compare} read it as any run; and that trial's report.html.
 */
public final class MaxRateSearch {
    /** Default of --precision: 2%. */
    public static final double DEFAULT_PRECISION = 0.02;
    /** Default of --max-trials. */
    public static final int DEFAULT_MAX_TRIALS = 20;
    /** Factor above a passing rate while none failed: from the workload's own rate, and from a probe's. */
    static final double GROWTH = 2.0;
    static final double GROWTH_AFTER_PROBE = 1.25;

    /** Runs one trial: the workload (at its rate) into {@code dir}. */
    public interface Trials {
        RunOutcome run(Workload workload, Path dir);

        /** True once the user interrupted: no further trial is started. */
        boolean interrupted();
    }

    /** What the search found; {@code best} is null when no trial passed. */
    public record Found(ResultFile.RateSearch search, Path resultFile, RunOutcome best) {
        public boolean found() {
            return search.maxSustainableRate() != null;
        }
    }

    private final Workload workload;
    private final List<Slo> slos;
    private final double precision;
    private final int maxTrials;
    private final Path dir;
    private final PrintStream out;
    private final Trials trials;
    private String refused;

    /**
     * @param precision stopping width, a fraction (0.02)
     * @param maxTrials bound on trials, the probe included
     * @param dir       the search's directory
     * @param out       where the lines for people go
     * @throws UserException when the workload cannot be searched (checked here, before anything runs)
     */
    /** The search's own files (result.json with the search, report.html): written, or why not. */
    public io.kbench.coordinator.report.files.Written written() {
        return written;
    }

    private final io.kbench.coordinator.report.files.Written written = new io.kbench.coordinator.report.files.Written();

    public MaxRateSearch(Workload workload, List<Slo> slos, double precision, int maxTrials, Path dir, PrintStream out,
                         Trials trials) {
        check(workload, slos);
        this.workload = workload;
        this.slos = List.copyOf(slos);
        this.precision = precision;
        this.maxTrials = maxTrials;
        this.dir = dir;
        this.out = out;
        this.trials = trials;
    }

    /**
     * Refuses what a search cannot do: a workload with no rate to vary, or objectives on a figure it will not
     * have.
     */
    public static void check(Workload w, List<Slo> slos) {
        if (w.producerCount() == 0) {
            throw new UserException("--find-max-rate varies the producers' rate; this workload has no producers");
        }
        if (w.roundTrip()) {
            throw new UserException("--find-max-rate varies the producers' rate; a roundTrip workload has none (one "
                    + "message in flight at a time)");
        }
        if (w.numRecords() > 0) {
            throw new UserException("--find-max-rate needs a timed workload (durationSeconds): every trial runs the same "
                    + "length; this one sends numRecords");
        }
        if (w.consumerBacklogRecords() > 0) {
            throw new UserException("--find-max-rate cannot search a backlog workload (consumerBacklogRecords/Bytes): its "
                    + "consumers start late by design");
        }
        if (!w.faults().isEmpty()) {
            throw new UserException("--find-max-rate cannot search a workload with faults: a stopped broker would fail "
                    + "every trial");
        }
        for (Slo s : slos) {
            if (s.metric() == io.kbench.protocol.Metric.END_TO_END && w.consumerCount() == 0) {
                throw new UserException("--slo '" + s.text() + "': end-to-end latency needs consumers; this workload has none");
            }
            if (s.metric() == io.kbench.protocol.Metric.TRANSACTION_COMMIT && !w.transactional()) {
                throw new UserException("--slo '" + s.text() + "': transaction commits need a transactional workload "
                        + "(transactionRecords or transactionMillis)");
            }
        }
    }

    /** Every trial run, in order, with its verdict. */
    private record Done(int number, String phase, Workload workload, RunOutcome outcome, TrialVerdict verdict,
                        String dirName) { }

    public Found run() {
        long minRate = workload.producerCount();
        List<Done> done = new ArrayList<>();
        long start = workload.producerRate();
        double growth = GROWTH;
        String stopped = null;
        out.printf(Locale.ROOT, "max-rate search: workload %s, %s, precision %.1f%%, at most %d trials of %d s warm-up + "
                        + "%d s%n", workload.name(), slos.isEmpty() ? "no objectives (sustaining the rate is the criterion)"
                        : "objectives " + String.join(", ", slos.stream().map(Slo::text).toList()), precision * 100,
                maxTrials, workload.warmupSeconds(), workload.durationSeconds());
        if (start <= 0) {
            Done probe = trial(1, "probe", workload.withProducerRate(Workload.UNTHROTTLED), done);
            if (probe == null || !probe.outcome().completed()) {
                stopped = probe == null ? (refused != null ? refused : "interrupted")
                        : "the probe failed: " + probe.outcome().error();
            } else {
                start = Math.max(minRate, (long) Math.floor(probe.verdict().achieved()));
                growth = GROWTH_AFTER_PROBE;
                out.printf(Locale.ROOT, "probe: %,.0f msg/s unthrottled; the search starts there%n", probe.verdict().achieved());
            }
        }
        RateSearch search = null;
        if (stopped == null) {
            search = new RateSearch(start, minRate, 1_000_000_000L, precision, maxTrials - done.size(), growth);
            for (var step = search.next(); step.isPresent(); step = search.next()) {
                long rate = step.get().rate();
                Done t = trial(done.size() + 1, step.get().phase().name(), workload.withProducerRate(rate), done);
                if (t == null) {
                    stopped = refused != null ? refused : "interrupted";
                    break;
                }
                if (!t.outcome().completed()) {
                    stopped = "trial " + t.number() + " failed as a run: " + t.outcome().error();
                    break;
                }
                search.record(rate, t.verdict().passed());
            }
            if (stopped == null) {
                stopped = search.outcome();
            }
        }
        long best = search == null ? 0 : search.answer();
        Done bestTrial = null;
        for (Done d : done) {
            if (best > 0 && d.workload().producerRate() == best && d.verdict().passed()) {
                bestTrial = d;
            }
        }
        List<ResultFile.Trial> list = new ArrayList<>();
        for (Done d : done) {
            RunOutcome o = d.outcome();
            list.add(new ResultFile.Trial(d.number(), d.phase(), d.workload().producerRate(), d.verdict().achieved(),
                    d.verdict().passed(), d.verdict().cause().name(), d.verdict().reasons(), d.verdict().notes(),
                    d.verdict().figures(), o.resultFile() == null ? null : d.dirName() + "/result.json",
                    o.result().summary(), limitedBy(d)));
        }
        long failedRate = search == null ? 0 : search.failedRate();
        Limit limit = limit(done, best, failedRate);
        String confidence = search == null ? "" : confidence(search, best, failedRate);
        ResultFile.RateSearch doc = new ResultFile.RateSearch(best > 0 ? best : null, search != null && search.settled(),
                precision, maxTrials, slos.stream().map(Slo::text).toList(), stopped, limit.name, confidence, list);
        table(done);
        out.println(best > 0
                ? String.format(Locale.ROOT, "max sustainable rate: %,d msg/s (%s)", best, stopped)
                : "max sustainable rate: none found (" + stopped + ")");
        if (!confidence.isEmpty()) {
            out.println("confidence: " + confidence);
        }
        out.println(limit.line);
        String warm = warmNote(bestTrial, best);
        if (warm != null) {
            out.println(warm);
        }
        Path file = write(doc, bestTrial != null ? bestTrial : done.isEmpty() ? null : done.get(done.size() - 1));
        return new Found(doc, file, bestTrial == null ? null : bestTrial.outcome());
    }

    /** A warm-up long enough for a fresh JVM's JIT at rates a search answers (docs/capacity.md, measured). */
    static final int WARM_UP_FOR_A_FRESH_PROCESS_SECONDS = 30;

    /**
     * When the trial at the answer ran on workers in this process (the embedded default: each {@code kbench run} a new
     * JVM) after other trials, the line that says a plain run at the answer starts cold: its trials ran in a JVM the
     * trials before them had warmed. Null otherwise (no answer, the first trial, workers that stay up).
     */
    private static String warmNote(Done bestTrial, long best) {
        return bestTrial == null || bestTrial.outcome().result() == null ? null : warmNote(bestTrial.number(),
                bestTrial.outcome().result().workers(), bestTrial.workload().warmupSeconds(), best);
    }

    /** {@link #warmNote(Done, long)} of trial {@code number} at {@code best}, run on {@code workers}. */
    static String warmNote(int number, List<ResultFile.Worker> workers, int warmupSeconds, long best) {
        if (number < 2 || !io.kbench.coordinator.report.result.ResultDocument.inProcess(workers)) {
            return null;
        }
        return String.format(Locale.ROOT, "warm: trial %d ran in this process after %d trial(s) had warmed it (the JIT "
                + "had compiled the load's code); a plain run at %,d msg/s starts a fresh process, slower for its first "
                + "half minute or so: give it warmupSeconds: %d or more%s, or workers that stay up (kbench worker, "
                + "--workers) — docs/capacity.md#reading-the-answer", number, number - 1, best,
                WARM_UP_FOR_A_FRESH_PROCESS_SECONDS, warmupSeconds >= WARM_UP_FOR_A_FRESH_PROCESS_SECONDS
                        ? " (as this workload has)" : warmupSeconds == 0 ? " (this workload has none)"
                        : " (this workload has " + warmupSeconds + " s)");
    }

    /** What kept the rate from going higher: a name for result.json and a line for people. */
    record Limit(String name, String line) { }

    /**
     * What limited the search, from the trials at the lowest rate ruled out (or, when none passed, every failed
     * trial): {@code generator} when each of them failed for the load generator alone — the cluster's capacity
     * is then at least the rate found, and the line says to add workers or cores — or {@code transactions} when
     * their diagnoses put that on the producers' commits; {@code cluster} otherwise. When no rate was ruled out but one
     * above the answer failed once (the search stopped before running it again), from that trial, saying so;
     * {@code none} when no rate failed at all.
     */
    private static Limit limit(List<Done> done, long best, long failedRate) {
        List<Done> deciding = new ArrayList<>();
        for (Done d : done) {
            long rate = d.workload().producerRate();
            boolean judged = rate > 0 && !d.verdict().passed() && d.verdict().cause() != TrialVerdict.Cause.run;
            if (judged && (failedRate > 0 ? rate == failedRate : best == 0)) {
                deciding.add(d);
            }
        }
        // no rate ruled out, but one above the answer failed once and the search stopped before running it again: its
        // trial says what held the rate there, said as one failure (it was not "nothing found")
        long once = 0;
        if (deciding.isEmpty() && failedRate == 0 && best > 0) {
            for (Done d : done) {
                long rate = d.workload().producerRate();
                if (rate > best && !d.verdict().passed() && d.verdict().cause() != TrialVerdict.Cause.run
                        && (once == 0 || rate < once)) {
                    once = rate;
                }
            }
            for (Done d : done) {
                if (once > 0 && d.workload().producerRate() == once && !d.verdict().passed()) {
                    deciding.add(d);
                }
            }
        }
        if (deciding.isEmpty()) {
            return new Limit("none", "limited by: nothing found — no rate was ruled out");
        }
        Limit found = limitFrom(deciding, best, once > 0 ? once : failedRate);
        return once == 0 ? found : new Limit(found.name(), found.line() + String.format(Locale.ROOT, " (one failed "
                + "trial at %,d msg/s, not confirmed: the search stopped before running that rate again)", once));
    }

    /** What limited the search, from the trials that decide it, at {@code failedRate} (0: every rate tried). */
    private static Limit limitFrom(List<Done> deciding, long best, long failedRate) {
        Done last = deciding.get(deciding.size() - 1);
        String at = failedRate > 0 ? String.format(Locale.ROOT, "%,d msg/s", failedRate) : "every rate tried";
        if (deciding.stream().allMatch(d -> d.verdict().cause() == TrialVerdict.Cause.generator
                && io.kbench.coordinator.diagnosis.Diagnosis.TRANSACTIONS.equals(limitedBy(d)))) {
            // the generator fell behind because each commitTransaction() held its producer: not for want of CPU
            String commits = last.outcome().result().diagnosis().evidence().stream()
                    .filter(e -> e.figure().equals("commitBlockedShare")).map(ResultFile.Evidence::text).findFirst()
                    .orElse("");
            return new Limit(io.kbench.coordinator.diagnosis.Diagnosis.TRANSACTIONS, String.format(Locale.ROOT,
                    "limited by the producers' transaction commits at %s: %s%s — each commitTransaction() blocks its "
                            + "producer's sends; more messages per transaction (transactionRecords, transactionMillis) "
                            + "let each producer send more (the cluster took at least %s)", at,
                    last.verdict().reasons().get(0), commits.isEmpty() ? "" : "; " + commits,
                    best > 0 ? String.format(Locale.ROOT, "%,d msg/s", best) : "what the trials achieved"));
        }
        if (deciding.stream().allMatch(d -> d.verdict().cause() == TrialVerdict.Cause.generator)) {
            return new Limit("generator", String.format(Locale.ROOT, "limited by the load generator (worker CPU) at %s: %s"
                    + " — the producers did not wait for the cluster, so the cluster was not the limit; add workers or "
                    + "cores (the cluster took at least %s)", at, last.verdict().reasons().get(0),
                    best > 0 ? String.format(Locale.ROOT, "%,d msg/s", best) : "what the trials achieved"));
        }
        List<Done> failedByCluster = deciding.stream().filter(d -> d.verdict().cause() == TrialVerdict.Cause.cluster
                || d.verdict().cause() == TrialVerdict.Cause.consumers).toList();
        Done clusterTrial = failedByCluster.isEmpty() ? last : failedByCluster.get(failedByCluster.size() - 1);
        if (!failedByCluster.isEmpty() && failedByCluster.stream()
                .allMatch(d -> io.kbench.coordinator.diagnosis.Diagnosis.CONSUMERS.equals(limitedBy(d)))) {
            // the consumers fell behind while the brokers had room (their diagnoses): their work or number, not the
            // cluster, kept the rate down
            boolean unread = failedByCluster.stream().anyMatch(d -> d.outcome().result() != null
                    && io.kbench.coordinator.diagnosis.Diagnosis.brokersUnread(d.outcome().result().diagnosis()));
            return new Limit(io.kbench.coordinator.diagnosis.Diagnosis.CONSUMERS, String.format(Locale.ROOT,
                    "limited by the consumers at %s: %s — %s; the trials' diagnoses say what to turn", at,
                    String.join("; ", clusterTrial.verdict().reasons()), unread
                            ? "the brokers were not read " + io.kbench.coordinator.diagnosis.Diagnosis.BROKER_FLAGS + ": a limit of theirs would look "
                            + "the same from the consumers"
                            : String.format(Locale.ROOT, "their diagnosis found the brokers with room: the consumers' "
                            + "number or their work per message kept the rate down, not the cluster (it took at least "
                            + "%s)", best > 0 ? String.format(Locale.ROOT, "%,d msg/s", best) : "what the trials achieved")));
        }
        return new Limit("cluster", String.format(Locale.ROOT, "limited by the cluster at %s: %s", at,
                String.join("; ", clusterTrial.verdict().reasons())));
    }

    /** The trials behind the answer: how often the rate found passed, and the rate ruled out failed. */
    static String confidence(RateSearch search, long best, long failedRate) {
        List<String> parts = new ArrayList<>();
        if (best > 0) {
            int[] t = search.tally(best);
            parts.add(String.format(Locale.ROOT, "%,d msg/s passed %d of %d trial(s)", best, t[0], t[0] + t[1]));
        }
        if (failedRate > 0) {
            int[] t = search.tally(failedRate);
            parts.add(String.format(Locale.ROOT, "%,d msg/s failed %d of %d", failedRate, t[1], t[0] + t[1]));
        }
        return String.join("; ", parts);
    }

    /** Runs one trial; null when interrupted before it started, or refused ({@code refused} says why). */
    private Done trial(int number, String phase, Workload w, List<Done> done) {
        if (trials.interrupted()) {
            return null;
        }
        String name = String.format(Locale.ROOT, "%02d-%s", number, w.producerRate() < 0 ? "probe" : w.producerRate());
        // at most maxTrials in all; each trial runs its warm-up and duration (plus its prepare and drain)
        long leftAtMost = (long) (maxTrials - number + 1) * (w.warmupSeconds() + (long) w.durationSeconds());
        out.printf(Locale.ROOT, "%n=== trial %d of at most %d (%s): %s; at most %d s of load left ===%n", number,
                maxTrials, phase, w.producerRate() < 0 ? "unthrottled"
                        : String.format(Locale.ROOT, "%,d msg/s", w.producerRate()), leftAtMost);
        RunOutcome o;
        try {
            o = trials.run(w, dir.resolve(name));
        } catch (UserException e) {
            if (done.isEmpty()) {
                // the first trial refused before anything started (a broker or worker that does not answer, bad
                // input only the cluster shows): the search has nothing, and says so as a plain run would (exit 3, 2)
                throw e;
            }
            // refused before it started (e.g. a worker became unreachable): the search ends with what it has
            out.println("trial " + number + " could not run: " + e.getMessage());
            refused = "trial " + number + " could not run: " + e.getMessage();
            return null;
        }
        TrialVerdict v = TrialVerdict.judge(w, o.completed(), o.error(), o.summary(), o.intervals(),
                o.measureStartMicros(), o.measureEndMicros(), slos);
        Done d = new Done(number, phase, w, o, v, name);
        done.add(d);
        if (w.producerRate() >= 0) {
            out.printf(Locale.ROOT, "trial %d: %,d msg/s %s%s%s%n", number, w.producerRate(), v.passed() ? "PASSED" : "FAILED",
                    v.passed() ? "" : " (" + v.cause() + ") — " + String.join("; ", v.reasons()),
                    v.notes().isEmpty() ? "" : " [noted: " + String.join("; ", v.notes()) + "]");
        }
        return d;
    }

    /** What limited a trial's run, as its diagnosis named it (null when it has none). */
    private static String limitedBy(Done d) {
        ResultFile.Run r = d.outcome().result();
        return r == null || r.diagnosis() == null ? null : r.diagnosis().limit();
    }

    private void table(List<Done> done) {
        List<String> head = new ArrayList<>(List.of("trial", "phase", "target msg/s", "achieved msg/s"));
        slos.forEach(s -> head.add(s.text()));
        head.add("limited by");
        head.add("noted");
        head.add("result");
        List<List<String>> rows = new ArrayList<>();
        for (Done d : done) {
            List<String> r = new ArrayList<>();
            r.add(Integer.toString(d.number()));
            r.add(d.phase());
            r.add(d.workload().producerRate() < 0 ? "unthrottled" : String.format(Locale.ROOT, "%,d", d.workload().producerRate()));
            r.add(String.format(Locale.ROOT, "%,.1f", d.verdict().achieved()));
            d.verdict().figures().forEach(f -> r.add(Slo.millis(f.valueMicros()) + (f.held() ? "" : " !")));
            String limited = limitedBy(d);
            r.add(limited == null ? "-" : limited);
            r.add(noted(d.verdict()));
            r.add(d.workload().producerRate() < 0 ? "probe" : d.verdict().passed() ? "PASS"
                    : "FAIL (" + d.verdict().cause() + "): " + d.verdict().reasons().get(0) + (d.verdict().reasons().size() > 1
                    ? " (+" + (d.verdict().reasons().size() - 1) + " more)" : ""));
            rows.add(r);
        }
        out.println();
        out.println("max-rate search trials:");
        List<List<String>> table = new ArrayList<>();
        table.add(head);
        table.addAll(rows);
        int last = head.size() - 1;
        TextTable.lines(table, c -> c == 1 || c == last, "  ", " ").forEach(out::println);
    }

    /** The table's short form of a trial's notes: saturated intervals and intervals sent short, counted. */
    private static String noted(TrialVerdict v) {
        List<String> parts = new ArrayList<>();
        if (v.saturatedIntervals() > 0) {
            parts.add(v.saturatedIntervals() + " saturated");
        }
        if (v.shortIntervals() > 0) {
            parts.add(v.shortIntervals() + " short");
        }
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    /** The search's page once written: its title and data as JSON (what its report.html embeds); null before. */
    private String[] page;

    /** {@link #page}: the search's report.html's title and data, for the dashboard; null when none was written. */
    public String[] page() {
        return page == null ? null : page.clone();
    }

    /** The search's result.json: the chosen trial's own result with the search added. */
    private Path write(ResultFile.RateSearch doc, Done chosen) {
        if (chosen == null || chosen.outcome().result() == null) {
            return null;
        }
        Path file;
        ResultFile.Run withSearch = chosen.outcome().result().withRateSearch(doc);
        try {
            file = ResultDocument.write(dir, withSearch);
            written.ok(file);
        } catch (IOException | RuntimeException e) {
            written.failed("the search's result.json", e);
            return null;
        }
        try {
            String title = doc.maxSustainableRate() == null
                    ? "kbench " + workload.name() + ": no sustainable rate found (the last trial's run; every trial in result.json)"
                    : String.format(Locale.ROOT, "kbench %s: max sustainable rate %,d msg/s (trial %d's run; every trial in "
                            + "result.json)", workload.name(), doc.maxSustainableRate(), chosen.number());
            io.kbench.coordinator.report.files.PageData data = HtmlReport.data(title, List.of(new HtmlReport.Named(
                    workload.name() + " at " + chosen.workload().producerRate() + " msg/s", withSearch)), null);
            String json = ResultDocument.JSON.writer().writeValueAsString(data);
            written.ok(io.kbench.coordinator.report.files.AtomicFile.write(dir.resolve("report.html"),
                    HtmlReport.page(title, json)));
            page = new String[] {title, json};
        } catch (IOException | RuntimeException e) {
            written.failed("the search's report.html", e);
        }
        out.println("result: " + file + (doc.maxSustainableRate() == null ? " (the last trial's, with the search)"
                : " (trial " + chosen.number() + "'s, with the search)"));
        return file;
    }
}
