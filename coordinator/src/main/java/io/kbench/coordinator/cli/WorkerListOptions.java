package io.kbench.coordinator.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.kbench.coordinator.UserException;
import picocli.CommandLine.Option;

/**
 * Which workers a coordinator command runs on — {@code --workers}, {@code --workers-file}, {@code --wait},
 * {@code --min-workers} — shared as a picocli mixin by {@code run} and the perf-tool commands, so every command
 * takes the same addresses ({@code dns:///} names included) the same way.
 */
public final class WorkerListOptions {
    @Option(names = "--workers", paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "Workers to run on, comma-separated (each started with 'kbench worker'); dns:///NAME:PORT stands for every address NAME resolves to (e.g. a Kubernetes headless Service: dns:///kbench-workers.NS.svc:7070).")
    List<String> workersGiven = new ArrayList<>();

    /** The --workers addresses, each occurrence split at its commas, empty pieces kept (for the check to refuse). */
    private List<String> workers() {
        return Inputs.commaList(workersGiven);
    }

    @Option(names = "--wait", paramLabel = "DURATION",
            description = "Wait up to DURATION (90s, 5m, 1h) for the workers before the run begins, instead of failing at once: the names are looked up again every second (a Kubernetes headless Service lists a pod once it is ready) until at least --min-workers are listed and every one accepts a connection; given up with one line (exit 3) at the deadline.")
    String waitFor;

    @Option(names = "--min-workers", paramLabel = "N", defaultValue = "1",
            description = "With --wait: the fewest workers the run needs (default: ${DEFAULT-VALUE}).")
    int minWorkers;

    @Option(names = "--workers-file", paramLabel = "FILE",
            description = "More workers: one HOST:PORT (or dns:///NAME:PORT) per line, # starts a comment.")
    Path workersFile;

    /** True when workers were named (by --workers or --workers-file): the run is not in this process. */
    boolean given() {
        return !workersGiven.isEmpty() || workersFile != null;
    }

    /**
     * Checks the options, waits for the workers when --wait asks to, and returns every worker's address: the
     * --workers and the file's, {@code dns:///} names looked up (what they resolved to said on {@code human}),
     * each checked and none twice. Empty when none is named.
     *
     * @throws UserException on a bad option, address or file, or when --wait's deadline passes
     */
    List<String> resolve(PrintStream human) {
        if (minWorkers < 1 || minWorkers > WorkerAddresses.MAX_WORKERS) {
            throw new UserException("--min-workers must be 1 to " + WorkerAddresses.MAX_WORKERS + ", got " + minWorkers);
        }
        if (waitFor == null && minWorkers > 1) {
            throw new UserException("--min-workers " + minWorkers + " needs --wait DURATION (how long to wait for them)");
        }
        if (waitFor != null && !given()) {
            throw new UserException("--wait waits for the workers of --workers or --workers-file; none are given");
        }
        if (waitFor != null) {
            List<String> named = List.copyOf(workers());
            long waitMillis = WorkerWait.parseMillis(waitFor);
            try {
                // until they are there; the lookup below then names what they resolved to
                WorkerWait.await(() -> WorkerAddresses.expand(named, workersFile, WorkerAddresses.SYSTEM, s -> { }),
                        a -> WorkerWait.accepts(a, 1_000), minWorkers, waitMillis, human::println, WorkerWait.SYSTEM);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserException("interrupted while waiting for the workers");
            }
        }
        List<String> all = WorkerAddresses.expand(workers(), workersFile, WorkerAddresses.SYSTEM, human::println);
        Inputs.workers(all, workersFile == null ? "--workers" : workersGiven.isEmpty() ? "--workers-file " + workersFile
                : "--workers and --workers-file " + workersFile);
        return all;
    }
}
