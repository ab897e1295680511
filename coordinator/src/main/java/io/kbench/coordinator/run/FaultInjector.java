package io.kbench.coordinator.run;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.kbench.coordinator.ClusterControl;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Fault;
import io.kbench.coordinator.workload.Workload;

/**
 * Carries out a workload's faults against the local cluster, each at its instant after the run's start, as
 * the turns of a {@link Loop}; records each in the {@link FaultTimeline} and says what it did. A fault that
 * fails ends the loop and is handed to {@code onFailure} (the run then fails).
 */
public final class FaultInjector {
    /** Longest wait between turns; a fault due sooner is waited for exactly. */
    static final Duration TURN = Duration.ofMillis(200);

    private final List<Fault> faults;
    private final ClusterControl cluster;
    private final long runStartMicros;
    private final FaultTimeline timeline;
    private final CoordinatorClock clock;
    private final Consumer<String> say;
    private final Consumer<String> onFailure;
    private int next;

    FaultInjector(List<Fault> faults, ClusterControl cluster, long runStartMicros, FaultTimeline timeline,
                  CoordinatorClock clock, Consumer<String> say, Consumer<String> onFailure) {
        this.faults = List.copyOf(faults);
        this.cluster = cluster;
        this.runStartMicros = runStartMicros;
        this.timeline = timeline;
        this.clock = clock;
        this.say = say;
        this.onFailure = onFailure;
    }

    /**
     * Checks that the workload's faults can act on the cluster: only on kbench's own embedded cluster, and only
     * on brokers it has.
     *
     * @param embeddedBrokers nodes of the embedded cluster kbench starts, or 0 when the cluster is not its own
     * @throws UserException one line, when they cannot
     */
    public static void check(Workload workload, int embeddedBrokers) {
        if (workload.faults().isEmpty()) {
            return;
        }
        if (embeddedBrokers == 0) {
            throw new UserException("workload " + workload.name() + " schedules faults: they act only on the "
                    + "embedded cluster kbench starts itself (no --bootstrap-servers, no bootstrap.servers, no --workers; "
                    + "e.g. --brokers 3); kbench never stops brokers of another cluster");
        }
        for (Fault f : workload.faults()) {
            if (f.broker() > embeddedBrokers) {
                throw new UserException("workload " + workload.name() + ": fault '" + f.describe() + "' names broker "
                        + f.broker() + ", but the embedded cluster has " + embeddedBrokers
                        + " (start more with --brokers N)");
            }
        }
    }

    /** One turn: carries out the next fault if it is due within a turn; false once none is left (or one failed). */
    boolean turn(long nowMicros) throws InterruptedException {
        if (next >= faults.size()) {
            return false;
        }
        Fault f = faults.get(next);
        long at = runStartMicros + f.atSeconds() * 1_000_000L;
        long wait = at - nowMicros;
        if (wait > TURN.toNanos() / 1000) {
            return true;
        }
        if (wait > 0) {
            clock.sleep(Duration.ofNanos(wait * 1000));
        }
        next++;
        int event = timeline.begin(f, clock.micros());
        boolean stop = f.action() == Fault.Action.stop;
        say.accept(String.format("  fault: %s broker %d (at %d s)", stop ? "stopping" : "starting", f.broker(),
                f.atSeconds()));
        try {
            if (stop) {
                cluster.stopBroker(f.broker());
            } else {
                cluster.startBroker(f.broker());
            }
        } catch (RuntimeException e) {
            timeline.done(event, 0, e.getMessage());
            onFailure.accept("fault '" + f.describe() + "' failed: " + e.getMessage());
            return false;
        }
        long done = clock.micros();
        timeline.done(event, done, null);
        say.accept(String.format("  fault: broker %d %s after %.1f s", f.broker(), stop ? "stopped" : "serves again",
                (done - at) / 1e6));
        return next < faults.size();
    }
}
