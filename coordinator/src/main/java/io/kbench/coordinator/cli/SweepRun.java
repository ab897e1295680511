package io.kbench.coordinator.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.SweepReport;
import io.kbench.coordinator.report.files.Written;
import io.kbench.coordinator.run.RunIds;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import io.kbench.coordinator.run.RunOutcome;

/**
 * A sweep: the combinations of a workload's matrix run one after the other, each in a directory of its own under the
 * output directory, and the comparison table at the end (console, sweep.csv, sweep.json, report.html).
 */
final class SweepRun {
    /** Runs one combination into its directory. */
    @FunctionalInterface
    interface Combination {
        RunOutcome run(Sweep.Point point, Path dir);
    }

    private final Sweep sweep;
    private final Path output;
    private final PrintStream human;
    private final Written written;
    private final int primeSeconds;
    /** The live dashboard, told which combination runs and given the sweep's page at the end; null: none served. */
    private io.kbench.coordinator.dashboard.DashboardState dashboard;

    /**
     * @param output       the output directory (--output), or null for results/&lt;workload&gt;-sweep-&lt;id&gt;
     * @param human        where lines for people go
     * @param written      collects every file written or not written
     * @param primeSeconds how long to run the first combination unmeasured before the sweep (0: not at all)
     */
    SweepRun(Sweep sweep, Path output, PrintStream human, Written written, int primeSeconds) {
        this.sweep = sweep;
        this.output = output;
        this.human = human;
        this.written = written;
        this.primeSeconds = primeSeconds;
    }

    /** Tells {@code d} (null: none) which combination runs, and gives it the sweep's own page once the sweep ends. */
    SweepRun dashboard(io.kbench.coordinator.dashboard.DashboardState d) {
        dashboard = d;
        return this;
    }

    private void context(String text) {
        if (dashboard != null) {
            // a title and a Prometheus label: a matrix value of thousands of characters is cut
            dashboard.context(text.length() <= CONTEXT_MAX ? text : text.substring(0, CONTEXT_MAX) + "...");
        }
    }

    /** Most characters of the dashboard's context line. */
    static final int CONTEXT_MAX = 200;

    /** Most characters of a combination's label in its directory's name (a file name has at most 255 bytes). */
    static final int LABEL_IN_NAME = 120;

    /**
     * The directory, under the sweep's, of combination {@code i} (0-based) of {@code points}: its number and label,
     * characters a file name should not hold made '_'; a label longer than {@link #LABEL_IN_NAME} cut there, with 8 hex
     * digits of its hash after it so that two long labels alike at the start stay two directories.
     */
    static Path combinationDir(Path base, int i, Sweep.Point p) {
        String label = p.label().replaceAll("[^A-Za-z0-9.=_-]+", "_");
        if (label.length() > LABEL_IN_NAME) {
            label = label.substring(0, LABEL_IN_NAME) + "-" + String.format("%08x", p.label().hashCode());
        }
        return base.resolve(String.format("%02d-%s", i + 1, label));
    }

    /** The priming run's directory under the sweep's. */
    static Path primingDir(Path base) {
        return base.resolve("00-priming");
    }

    /**
     * Every directory the sweep will write into {@code base}, in order: the priming run's (when it primes), then one
     * per combination. Checked before anything starts, so that no combination is refused halfway for a directory
     * in its way.
     */
    static List<Path> directories(Sweep sweep, Path base, int primeSeconds) {
        List<Path> dirs = new java.util.ArrayList<>();
        if (primeSeconds > 0) {
            dirs.add(primingDir(base));
        }
        List<Sweep.Point> points = sweep.points();
        for (int i = 0; i < points.size(); i++) {
            dirs.add(combinationDir(base, i, points.get(i)));
        }
        return dirs;
    }

    /** A combination's target rate: msg/s, -1 unthrottled, 0 without producers. */
    private static long target(Workload w) {
        return w.producerCount() == 0 ? 0 : w.producerRate();
    }

    /**
     * How long the sweep has left from combination {@code i} on: from the second on, the combinations so far took
     * {@code elapsedSeconds} (prepare and drain included), at that pace; before, the load the plan holds (a timed
     * combination's warm-up and duration; a record count at its rate), a lower bound.
     */
    static String sweepLeft(List<Sweep.Point> points, int i, long elapsedSeconds) {
        if (i > 0) {
            long left = elapsedSeconds * (points.size() - i) / i;
            return String.format(java.util.Locale.ROOT, " — about %s left for the sweep", duration(left));
        }
        long load = 0;
        for (Sweep.Point p : points) {
            Workload w = p.workload();
            if (w.numRecords() <= 0) {
                load += w.warmupSeconds() + (long) w.durationSeconds();
            } else if (w.producerRate() > 0) {
                load += w.warmupSeconds() + w.numRecords() / w.producerRate();
            }
        }
        return load == 0 ? "" : String.format(java.util.Locale.ROOT, " — at least %s of load in all", duration(load));
    }

    private static String duration(long seconds) {
        return seconds < 60 ? seconds + " s" : seconds < 3600 ? seconds / 60 + " min " + seconds % 60 + " s"
                : seconds / 3600 + " h " + seconds / 60 % 60 + " min";
    }

    /**
     * Runs every combination in turn ({@code combination}; what the cluster refuses is recorded and the next one
     * runs; once {@code interrupted} says so, the rest are SKIPPED), then prints the table and writes sweep.csv,
     * sweep.json and the sweep's report.html into the output directory.
     *
     * @return 0 when every combination completed, else 1
     */
    int run(Combination combination, java.util.function.BooleanSupplier interrupted) {
        return run(combination, interrupted, null);
    }

    /**
     * As {@link #run(Combination, java.util.function.BooleanSupplier)}, with {@code broker} applying each combination's
     * broker settings before it runs and restoring them when the sweep ends, whatever ends it (null: none).
     */
    int run(Combination combination, java.util.function.BooleanSupplier interrupted, BrokerSettings broker) {
        Path base = output != null ? output : RunIds.defaultOutput(sweep.base().name() + "-sweep", RunIds.next());
        SweepReport report = new SweepReport(sweep.axes());
        boolean allCompleted;
        boolean restored;
        boolean existed = java.nio.file.Files.isDirectory(base);
        try {
            allCompleted = runEach(combination, interrupted, broker, base, report);
        } catch (UserException e) {
            if (!existed) {
                io.kbench.coordinator.report.files.OutputDirectory.removeIfEmpty(base);
            }
            throw e;
        } finally {
            restored = broker == null || broker.restore();
        }
        allCompleted &= restored;
        report.print(human);
        try {
            report.write(base);
            written.ok("sweep.csv");
            written.ok("sweep.json");
        } catch (java.io.IOException | RuntimeException e) {
            written.failed("sweep.csv and sweep.json", e);
        }
        try {
            String title = "kbench sweep " + sweep.base().name();
            report.writeHtml(base, title);
            written.ok("sweep's report.html");
            if (dashboard != null) {
                int n = sweep.points().size();
                long completed = report.rows().stream().filter(r -> r.status().equals("COMPLETED")).count();
                dashboard.whole(title, report.pageJson(base, title, false), String.format(java.util.Locale.ROOT,
                        "sweep of %d combination%s: %d completed", n, n == 1 ? "" : "s", completed));
            }
            human.println("sweep: " + base.resolve("sweep.csv") + ", " + base.resolve("sweep.json") + ", "
                    + base.resolve("report.html"));
        } catch (java.io.IOException | RuntimeException e) {
            written.failed("the sweep's report.html", e);
        }
        return allCompleted ? 0 : 1;
    }

    /**
     * The brokers' replication bytes in over a combination's measured window, MB/s: null unless every broker of the
     * cluster was read and gave it in every measured interval (a sum over some brokers would not be the cluster's, a
     * mean over some intervals not the window's).
     */
    static Double replicationMBps(RunOutcome o) {
        return brokersMBps(o, "replicationBytesInPerSec");
    }

    /** The brokers' bytes in over a combination's measured window, MB/s, on the terms of {@link #replicationMBps}. */
    static Double brokerInMBps(RunOutcome o) {
        return brokersMBps(o, "bytesInPerSec");
    }

    private static Double brokersMBps(RunOutcome o, String figure) {
        io.kbench.coordinator.merge.BrokerWindow w = io.kbench.coordinator.merge.BrokerWindow.of(o.intervals(),
                o.measureStartMicros(), o.measureEndMicros());
        return io.kbench.coordinator.report.result.ResultDocument.everyBrokerRead(w, o.result() == null
                || o.result().provenance() == null ? null : o.result().provenance().cluster(), figure)
                ? w.sum(figure) / io.kbench.coordinator.capacity.NetworkCeiling.MB : null;
    }

    /**
     * Runs {@code first}'s clients and settings for {@link #primeSeconds}, unmeasured, into 00-priming: the first
     * combination would otherwise run on JVMs new to the load (the in-process workers and the embedded cluster of
     * every sweep, a new {@code kbench worker}), whose hot paths are still being compiled — on the 2-core VM the
     * worst row of nearly every sweep (docs/tuning.md). Its failure is said and the sweep goes on, its first row then
     * cold.
     */
    private void prime(Combination combination, java.util.function.BooleanSupplier interrupted, BrokerSettings broker,
                       Path base, SweepReport report, Sweep.Point first) {
        if (primeSeconds == 0) {
            report.unprimed();
            return;
        }
        if (interrupted.getAsBoolean()) {
            return;
        }
        human.printf("%n=== sweep: priming with %s for %d s, unmeasured: its row would otherwise be the cold start of "
                + "the JVMs (--prime 0 skips this) ===%n", first.label(), primeSeconds);
        context(String.format(java.util.Locale.ROOT, "sweep of %d: priming with %s, unmeasured", sweep.points().size(),
                first.label()));
        Path dir = primingDir(base);
        try {
            if (broker != null) {
                broker.apply(first);
            }
            RunOutcome o = combination.run(new Sweep.Point(first.label(), first.values(),
                    first.workload().primer(primeSeconds), first.profileOverrides(), first.brokerSettings()), dir);
            report.primed(primeSeconds, o.completed() ? "COMPLETED" : "FAILED", o.resultFile());
            if (!o.completed() && !interrupted.getAsBoolean()) { // stopped by Ctrl-C: the rest is SKIPPED, nothing cold
                human.println("priming failed: the first combination's row is a cold start's");
            }
        } catch (UserException e) {
            if (e.unreachable()) {
                throw e; // the cluster or a worker does not answer before anything ran: as a run, exit 3, no files
            }
            human.println("priming failed: " + e.getMessage() + "; the first combination's row is a cold start's");
            report.primed(primeSeconds, "REFUSED", null);
        }
    }

    /** Runs every combination in turn into its row of {@code report}; true when every one completed. */
    private boolean runEach(Combination combination, java.util.function.BooleanSupplier interrupted, BrokerSettings broker,
                            Path base, SweepReport report) {
        List<Sweep.Point> points = sweep.points();
        boolean allCompleted = true;
        prime(combination, interrupted, broker, base, report, points.get(0));
        long sweepStart = System.nanoTime();
        for (int i = 0; i < points.size(); i++) {
            Sweep.Point p = points.get(i);
            if (interrupted.getAsBoolean()) {
                report.add(new SweepReport.Row(p.values(), "SKIPPED", null, null, target(p.workload()), null));
                allCompleted = false;
                continue;
            }
            human.printf("%n=== sweep %d/%d: %s%s ===%n", i + 1, points.size(), p.label(),
                    sweepLeft(points, i, (System.nanoTime() - sweepStart) / 1_000_000_000L));
            context(String.format(java.util.Locale.ROOT, "sweep %d of %d: %s", i + 1, points.size(), p.label()));
            Path dir = combinationDir(base, i, p);
            try {
                if (broker != null) {
                    broker.apply(p);
                }
                RunOutcome o = combination.run(p, dir);
                report.add(new SweepReport.Row(p.values(), o.completed() ? "COMPLETED" : "FAILED", o.resultFile(), o.summary(),
                        target(p.workload()), o.result() == null || o.result().diagnosis() == null ? null
                        : o.result().diagnosis().limit(), brokerInMBps(o), replicationMBps(o),
                        o.result() == null || o.result().network() == null ? null : o.result().network().share(),
                        o.result() != null && io.kbench.coordinator.diagnosis.Diagnosis.brokersUnread(o.result().diagnosis()),
                        p.workload().consumerCount() > 0));
                allCompleted &= o.completed();
            } catch (UserException e) {
                if (e.unreachable() && i == 0 && primeSeconds == 0) {
                    throw e; // nothing ran yet (as a run: exit 3, no files); once one ran, the sweep keeps what it has
                }
                // e.g. the cluster refused this combination's settings: record it and go on with the next
                human.println("combination failed: " + e.getMessage());
                report.add(new SweepReport.Row(p.values(), "REFUSED", null, null, target(p.workload()), null));
                allCompleted = false;
            }
        }
        return allCompleted;
    }
}
