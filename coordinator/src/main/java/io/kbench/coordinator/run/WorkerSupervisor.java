package io.kbench.coordinator.run;

import java.time.Duration;
import java.util.Locale;

import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.StreamWatch;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.rpc.WorkerClient;

/**
 * Watches over one worker while its run goes, on two loops of its own: the heartbeat renews the worker's
 * lease every {@link #RENEW_EVERY} (a worker whose lease lapses stops its load by itself) and declares the
 * worker lost when its run stream stays silent past the {@link StreamWatch}'s threshold; the clock loop
 * re-estimates the worker's clock offset every {@link #RECHECK_EVERY} and hands the worker a replaced
 * estimate. A worker reading the coordinator's own clock is never re-estimated.
 *
 * <p>The run tells the supervisor what it sees ({@link #heard}, {@link #streamClosed}, {@link #lost}); the
 * supervisor tells the run through {@link Events}, on its loops' threads. Renewal goes on after
 * {@link #endOfRun()} (the workers are being stopped) until {@link #close()}.
 */
public final class WorkerSupervisor implements AutoCloseable {
    static final Duration RENEW_EVERY = Duration.ofSeconds(1);
    static final Duration WATCH_EVERY = Duration.ofMillis(200);
    static final Duration RECHECK_EVERY = Duration.ofSeconds(10);
    /** Pings per re-estimate. */
    static final int RECHECK_SAMPLES = 12;

    /** What a supervisor reports to its run. */
    public interface Events {
        /** The worker's stream has been silent too long: {@code reason} says for how long. */
        void silent(int index, String reason);

        /** The worker's clock estimate was replaced (the run's clock bound may have changed). */
        void clockChanged(int index);
    }

    private final int index;
    private final WorkerClient client;
    private final ClockEstimator.WorkerClock workerClock;
    private final String runId;
    private final CoordinatorClock clock;
    private final long intervalMicros;
    private final Events events;
    private final StreamWatch watch;
    private volatile boolean lost;
    private volatile boolean watching = true;
    /** When the worker last answered a renewal holding the run (coordinator µs); the start counts. */
    private volatile long answeredMicros;
    /** When the next renewal is due (the first turn renews). */
    private long nextRenewalMicros;
    private final long recheckFromMicros;
    private Loop heartbeat;
    private Loop clockCheck;

    /** The host figures of the worker's last snapshot that had them (null before the first). */
    private volatile io.kbench.protocol.HostSample lastHost;

    /**
     * @param index          the worker's place in the run
     * @param workerClock    its clock estimate; re-estimates are offered to it under its lock
     * @param runStartMicros the run's start: the first snapshot is due one interval later
     */
    public WorkerSupervisor(int index, WorkerClient client, ClockEstimator.WorkerClock workerClock, String runId,
                            CoordinatorClock clock, long runStartMicros, long intervalMicros, Events events) {
        this.index = index;
        this.client = client;
        this.workerClock = workerClock;
        this.runId = runId;
        this.clock = clock;
        this.intervalMicros = intervalMicros;
        this.events = events;
        this.watch = new StreamWatch(1, runStartMicros, intervalMicros);
        this.answeredMicros = runStartMicros;
        // the estimate in effect is fresh: the clock loop's first turn (at once) skips it
        this.recheckFromMicros = clock.micros() + RECHECK_EVERY.toNanos() / 2000;
    }

    /** Starts the loops (once the worker's run stream is open). */
    public void start() {
        String name = "kbench-worker-" + index;
        heartbeat = Loop.start(name + "-heartbeat", WATCH_EVERY, clock, this::heartbeat,
                e -> events.silent(index, "supervising worker " + client.address() + " failed: " + e));
        if (!workerClock.sameClock()) {
            clockCheck = Loop.start(name + "-clock", RECHECK_EVERY, clock, this::recheckClock, e -> { });
        }
    }

    /** A snapshot of the worker arrived at {@code nowMicros}. */
    public void heard(long nowMicros) {
        watch.heard(0, nowMicros);
    }

    /** A snapshot of the worker arrived at {@code nowMicros} with its host's figures (kept: a silence is read by them). */
    public void heard(long nowMicros, io.kbench.protocol.HostSample host) {
        if (host != null && host.wallMicros() > 0) {
            lastHost = host;
        }
        heard(nowMicros);
    }

    /**
     * Why a worker that answers may have gone silent, from its last snapshot's host figures: a JVM collecting garbage
     * most of the time with its heap nearly full stops its threads, the snapshot thread's too, and looks from here like
     * one starved of CPU (8 consumers with 2-3 MB partition fetches on a 256-MB worker, 2026-12-01: 53% of the interval
     * collecting, heap 85% full after collection, then 4 s of silence).
     */
    static String silenceCause(io.kbench.protocol.HostSample h) {
        double gc = h == null || h.wallMicros() <= 0 ? 0 : (double) h.gcMicros() / h.wallMicros();
        double heap = h == null || h.heapMaxBytes() <= 0 || h.heapAfterGcBytes() < 0 ? 0
                : (double) h.heapAfterGcBytes() / h.heapMaxBytes();
        if (gc >= GC_BOUND || heap >= HEAP_BOUND) {
            return String.format(Locale.ROOT, "its JVM is most likely collecting garbage (its last snapshot: %.0f%% "
                    + "of the interval in collections, its heap %.0f%% full after collection): a heap too small for its "
                    + "clients — give it more (KBENCH_JAVA_OPTS=-Xmx...), spread the clients over more workers, or make "
                    + "their buffers smaller (the consumers' fetch.max.bytes and max.partition.fetch.bytes, the "
                    + "producers' buffer.memory)", 100 * gc, 100 * heap);
        }
        return "its process is starved of CPU (too many clients for its cores?) or its snapshot thread is stuck";
    }

    /** Share of an interval in collections, and of the heap full after one, that name the heap as a silence's cause. */
    static final double GC_BOUND = 0.2;
    static final double HEAP_BOUND = 0.8;

    /** The worker's run stream ended (completed or failed): silence no longer means anything. */
    public void streamClosed() {
        watch.closed(0);
    }

    /** The worker is given up on: no more renewals, no more watching. */
    public void lost() {
        lost = true;
        watch.closed(0);
    }

    /** The run's end was decided: stop watching and re-estimating; renewals go on until {@link #close()}. */
    public void endOfRun() {
        watching = false;
        if (clockCheck != null) {
            clockCheck.close();
        }
    }

    /** One heartbeat turn: renew when due, then look for silence. */
    boolean heartbeat(long nowMicros) {
        if (lost) {
            return false;
        }
        if (nowMicros >= nextRenewalMicros) {
            client.renewLease(runId, running -> {
                if (running) {
                    answered(clock.micros());
                }
            });
            nextRenewalMicros = nowMicros + RENEW_EVERY.toNanos() / 1000;
        }
        if (watching) {
            for (long[] s : watch.silent(nowMicros)) {
                // a worker that answers its renewals holding the run is there: its process did not get the CPU (or
                // its snapshot thread is stuck), and intervals cut that late would hold the wrong seconds' figures
                boolean answers = nowMicros - answeredMicros <= watch.thresholdMicros();
                events.silent(index, answers
                        ? String.format(Locale.ROOT, "worker %s holds the run and answers, but sent no snapshot for "
                                + "%.1f s (one is due every %d s): %s", client.address(), s[1] / 1e6,
                                intervalMicros / 1_000_000, silenceCause(lastHost))
                        : String.format(Locale.ROOT, "lost the connection to worker %s: no snapshot for %.1f s (one "
                                + "is due every %d s)", client.address(), s[1] / 1e6, intervalMicros / 1_000_000));
            }
        }
        return true;
    }

    /** The worker answered a renewal holding the run at {@code nowMicros} (a gRPC thread). */
    void answered(long nowMicros) {
        answeredMicros = Math.max(answeredMicros, nowMicros);
    }

    /** One clock turn: a re-estimate; a worker that does not answer is skipped (its run stream reports it). */
    boolean recheckClock(long nowMicros) {
        if (lost || !watching) {
            return false;
        }
        if (nowMicros < recheckFromMicros) {
            return true;
        }
        try {
            ClockEstimator.Estimate e = client.clock(RECHECK_SAMPLES, clock::micros);
            boolean replaced;
            synchronized (workerClock) {
                replaced = workerClock.offer(e);
                if (replaced) {
                    client.adjustClock(runId, workerClock.offset());
                }
            }
            if (replaced) {
                events.clockChanged(index);
            }
        } catch (WorkerCallException e) {
            // the run stream reports an unreachable worker
        }
        return true;
    }

    /** Stops both loops: the lease is no longer renewed. */
    @Override
    public void close() {
        lost = true;
        if (clockCheck != null) {
            clockCheck.close();
        }
        if (heartbeat != null) {
            heartbeat.close();
        }
    }
}
