package io.kbench.coordinator.run;

import java.time.Duration;

import io.kbench.coordinator.workload.Workload;

/**
 * When a run ends, as a pure function of the merged totals and the time: the caller polls
 * {@link #decide}, carrying the returned {@link Drain} into the next call. No clock, no I/O, no state.
 *
 * <p>In order: a failure (a lost or aborted worker, a failed fault) ends the run as failed; more failed sends
 * than {@code maxSendErrors} too. A backlog run holds its consumers until the producers have had
 * {@code consumerBacklogRecords} acknowledged (or finished first: then with a note) and releases them. A
 * timed run sends until its planned end, a record-count run until every producer is done; a timed run's producers
 * that have not finished {@link #FINISH_MAX} after the planned end are stopped, with a note. Then consumers
 * drain: the run ends once they have received every acknowledged message once per subscription (in a run
 * without producers, {@code numRecords} per subscription), or with a note when they make no progress for
 * {@link #DRAIN_IDLE} (or the rules' own bound) or, with producers, when draining takes longer than {@link #DRAIN_MAX}.
 */
public final class EndCondition {
    public static final Duration DRAIN_IDLE = Duration.ofSeconds(10);
    public static final Duration DRAIN_MAX = Duration.ofSeconds(60);
    /**
     * How long a timed run's producers may take after the planned end to send what was due and have it
     * acknowledged; then they are stopped. Without a bound a run against a broker that stays down never ends: each
     * send still due blocks for the client's {@code max.block.ms} waiting for metadata.
     */
    public static final Duration FINISH_MAX = Duration.ofSeconds(60);

    /**
     * What the workload says about its end.
     *
     * @param maxSendErrors    failed sends tolerated, -1 for any number
     * @param backlogRecords   acknowledged messages to build up before consumers start, 0 for none
     * @param countRun         the run ends by record count, not time
     * @param plannedEndMicros end of a timed run's sending
     * @param producers        the run has producers
     * @param consumers        the run has consumers
     * @param numRecords       the record count (what consumers of a run without producers must read)
     * @param subscriptions    subscriptions per topic: each receives every message
     * @param drainIdleMicros  the drain ends once consumers made no progress this long
     */
    public record Rules(long maxSendErrors, long backlogRecords, boolean countRun, long plannedEndMicros,
                        boolean producers, boolean consumers, long numRecords, int subscriptions,
                        long drainIdleMicros) {
        /** Rules with the default idle bound {@link #DRAIN_IDLE}. */
        public Rules(long maxSendErrors, long backlogRecords, boolean countRun, long plannedEndMicros,
                     boolean producers, boolean consumers, long numRecords, int subscriptions) {
            this(maxSendErrors, backlogRecords, countRun, plannedEndMicros, producers, consumers, numRecords,
                    subscriptions, DRAIN_IDLE.toNanos() / 1000);
        }

        public static Rules of(Workload w, long plannedEndMicros) {
            // share groups read every message too: each is one more reader per topic (its consumers are done with a
            // message once they accepted or rejected it; see LiveRun#totals)
            return new Rules(w.maxSendErrors(), w.consumerBacklogRecords(), w.numRecords() > 0, plannedEndMicros,
                    w.producerCount() > 0, w.consumerCount() + w.shareConsumerCount() > 0, w.numRecords(),
                    w.readersPerTopic());
        }

        /** These rules with another idle bound for the drain (consumer-perf's --timeout). */
        public Rules withDrainIdle(long micros) {
            return new Rules(maxSendErrors, backlogRecords, countRun, plannedEndMicros, producers, consumers, numRecords,
                    subscriptions, micros);
        }

        /** Messages the consumers must receive before the run may stop, with {@code acked} acknowledged. */
        public long expectedReceived(long acked) {
            return (producers ? acked : numRecords) * subscriptions;
        }
    }

    /**
     * The run's state as the coordinator knows it at one instant.
     *
     * @param failure            the first failure reason, or null
     * @param acked              messages acknowledged, all workers
     * @param failed             sends failed
     * @param received           messages received, all subscriptions, each once (duplicates that verification
     *                           found left out), plus those the share groups accepted or rejected
     * @param allProducersDone   every producer has finished its share (count run) or stopped
     * @param consumersReleased  a backlog run's consumers have been released
     */
    public record Totals(String failure, long acked, long failed, long received, boolean allProducersDone,
                         boolean consumersReleased) { }

    /** Progress of the drain: when it began, the last count received and when it last moved (µs; 0 = not yet). */
    public record Drain(long startMicros, long lastReceived, long lastProgressMicros) {
        public static final Drain NOT_STARTED = new Drain(0, -1, 0);
    }

    /** What to do. */
    public enum Action {
        /** Keep going. */
        CONTINUE,
        /** Release the held consumers (a backlog run), then keep going. */
        RELEASE_CONSUMERS,
        /** The run is over: stop the workers. */
        END,
        /** The run failed: stop the workers at once. */
        FAIL
    }

    /**
     * @param action what to do
     * @param note   the failure reason ({@link Action#FAIL}), or an issue to report with the result, or null
     * @param drain  carry into the next call
     */
    public record Decision(Action action, String note, Drain drain) { }

    private EndCondition() { }

    /**
     * Whether the run is over by {@code t} without a word to say: nothing failed, nothing is still due, and the
     * consumers have read everything ({@link #decide}'s plain END). For totals read between snapshots: they may end
     * a run sooner, never otherwise than the snapshots would.
     */
    public static boolean complete(Rules rules, Totals t, long nowMicros) {
        Decision d = decide(rules, t, nowMicros, Drain.NOT_STARTED);
        return d.action() == Action.END && d.note() == null;
    }

    /** How many intervals ahead {@link #mayEndSoon} looks: the snapshots' totals are up to about two intervals old. */
    public static final int END_LOOKAHEAD_INTERVALS = 3;

    /**
     * Whether a record-count run may be over within {@link #END_LOOKAHEAD_INTERVALS} intervals, judged on the
     * snapshots' totals and the most a single interval has moved so far: while it cannot, reading the workers' live
     * counts ({@code Progress}) could not end it sooner, and is not worth its calls. A run with producers is near its
     * end once every producer is done or what is left of {@code numRecords} (neither acknowledged nor failed) is
     * within reach of the busiest interval's acknowledged and failed sends; a run without producers once what its
     * readers still have to read is within reach of the busiest interval's reads. Before the first interval, always
     * (a short run may end within it).
     *
     * @param peakDone most sends acknowledged or failed in one interval so far, all workers
     * @param peakRead most messages read (as {@link Totals#received}) in one interval so far, all workers
     */
    public static boolean mayEndSoon(Rules rules, Totals t, long peakDone, long peakRead) {
        if (rules.producers()) {
            if (t.allProducersDone() || peakDone <= 0) {
                return true;
            }
            long left = rules.numRecords() - t.acked() - t.failed();
            return left <= END_LOOKAHEAD_INTERVALS * peakDone;
        }
        if (peakRead <= 0) {
            return true;
        }
        long left = rules.expectedReceived(t.acked()) - t.received();
        return left <= END_LOOKAHEAD_INTERVALS * peakRead;
    }

    public static Decision decide(Rules rules, Totals t, long nowMicros, Drain drain) {
        if (t.failure() != null) {
            return new Decision(Action.FAIL, t.failure(), drain);
        }
        if (rules.maxSendErrors() >= 0 && t.failed() > rules.maxSendErrors()) {
            return new Decision(Action.FAIL, String.format("%,d sends failed, more than maxSendErrors (%,d)",
                    t.failed(), rules.maxSendErrors()), drain);
        }
        if (rules.backlogRecords() > 0 && !t.consumersReleased()) {
            boolean built = t.acked() >= rules.backlogRecords();
            if (built) {
                return new Decision(Action.RELEASE_CONSUMERS, null, drain);
            }
            if (t.allProducersDone()) {
                return new Decision(Action.RELEASE_CONSUMERS, String.format("the backlog of %,d messages was not "
                        + "reached (%,d acknowledged); consumers started when the producers finished",
                        rules.backlogRecords(), t.acked()), drain);
            }
            return new Decision(Action.CONTINUE, null, drain);
        }
        boolean sending = !rules.countRun() && nowMicros < rules.plannedEndMicros();
        if (sending) {
            return new Decision(Action.CONTINUE, null, drain);
        }
        if (!t.allProducersDone()) {
            if (!rules.countRun() && nowMicros - rules.plannedEndMicros() > FINISH_MAX.toNanos() / 1000) {
                return new Decision(Action.END, String.format("the producers had not finished %d s after the planned "
                        + "end (a send blocked, or what was sent was not acknowledged: a broker down, or more outstanding "
                        + "than the cluster took); they were stopped: what they had outstanding counts as failed, what "
                        + "was due and never sent is not counted", FINISH_MAX.toSeconds()), drain);
            }
            return new Decision(Action.CONTINUE, null, drain);
        }
        Drain d = drain.startMicros() == 0 ? new Drain(nowMicros, drain.lastReceived(), nowMicros) : drain;
        if (!rules.consumers() || t.received() >= rules.expectedReceived(t.acked())) {
            return new Decision(Action.END, null, d);
        }
        if (t.received() != d.lastReceived()) {
            d = new Drain(d.startMicros(), t.received(), nowMicros);
        }
        boolean idle = nowMicros - d.lastProgressMicros() > rules.drainIdleMicros();
        boolean tooLong = rules.producers() && nowMicros - d.startMicros() > DRAIN_MAX.toNanos() / 1000;
        if (idle || tooLong) {
            return new Decision(Action.END, "consumers stopped making progress while draining", d);
        }
        return new Decision(Action.CONTINUE, null, d);
    }
}
