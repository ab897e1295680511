package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;

import io.kbench.coordinator.run.EndCondition.Action;
import io.kbench.coordinator.run.EndCondition.Decision;
import io.kbench.coordinator.run.EndCondition.Drain;
import io.kbench.coordinator.run.EndCondition.Rules;
import io.kbench.coordinator.run.EndCondition.Totals;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EndConditionTest {
    private static final long S = 1_000_000;
    private static final long END = 100 * S;
    /** Timed, 1 subscription, with producers and consumers, any number of send errors, no backlog. */
    private static final Rules TIMED = new Rules(-1, 0, false, END, true, true, 0, 1);
    private static final Rules COUNT = new Rules(-1, 0, true, 0, true, true, 1000, 1);
    private static final Rules TWO_SUBSCRIPTIONS = new Rules(-1, 0, false, END, true, true, 0, 2);
    private static final Rules PRODUCERS_ONLY = new Rules(-1, 0, false, END, true, false, 0, 1);
    private static final Rules CONSUMERS_ONLY = new Rules(-1, 0, true, 0, false, true, 500, 3);
    private static final Rules TEN_ERRORS = new Rules(10, 0, false, END, true, true, 0, 1);
    private static final Rules BACKLOG = new Rules(-1, 5000, true, 0, true, true, 10_000, 1);

    /** One observation of a poll: totals at an instant; the expected action and note (null: none). */
    record Step(String failure, long acked, long failed, long received, boolean producersDone, boolean released,
                long now, Action action, String note) {
        static Step at(long now, long acked, long received, boolean producersDone, Action action) {
            return new Step(null, acked, 0, received, producersDone, false, now, action, null);
        }

        Step note(String n) {
            return new Step(failure, acked, failed, received, producersDone, released, now, action, n);
        }

        Step failed(long f) {
            return new Step(failure, acked, f, received, producersDone, released, now, action, note);
        }

        Step failure(String why) {
            return new Step(why, acked, failed, received, producersDone, released, now, action, note);
        }

        Step afterRelease() {
            return new Step(failure, acked, failed, received, producersDone, true, now, action, note);
        }
    }

    static Stream<Arguments> runs() {
        String stalled = "consumers stopped making progress while draining";
        return Stream.of(
                Arguments.of("a timed run sends until its planned end, then ends once everything is received", TIMED, List.of(
                        Step.at(50 * S, 100, 90, false, Action.CONTINUE),
                        Step.at(END - 1, 200, 190, true, Action.CONTINUE),
                        Step.at(END, 200, 199, true, Action.CONTINUE),
                        Step.at(END + S, 200, 200, true, Action.END))),
                Arguments.of("a timed run waits for producers still sending after the planned end", TIMED, List.of(
                        Step.at(END + S, 200, 200, false, Action.CONTINUE),
                        Step.at(END + 2 * S, 210, 210, true, Action.END))),
                Arguments.of("a timed run's producers still not done 60 s after the planned end are stopped, with a note",
                        TIMED, List.of(
                        Step.at(END + 60 * S, 200, 200, false, Action.CONTINUE),
                        Step.at(END + 60 * S + 1, 200, 200, false, Action.END).note("the producers had not finished "
                                + "60 s after the planned end (a send blocked, or what was sent was not acknowledged: a "
                                + "broker down, or more outstanding than the cluster took); they were stopped: what they "
                                + "had outstanding counts as failed, what was due and never sent is not counted"))),
                Arguments.of("every subscription must receive every message", TWO_SUBSCRIPTIONS, List.of(
                        Step.at(END, 100, 199, true, Action.CONTINUE),
                        Step.at(END + S, 100, 200, true, Action.END))),
                Arguments.of("a run without consumers ends with its producers", PRODUCERS_ONLY, List.of(
                        Step.at(END - S, 100, 0, true, Action.CONTINUE),
                        Step.at(END, 100, 0, true, Action.END))),
                Arguments.of("a count run ends when the producers are done and consumers caught up, whatever the time", COUNT, List.of(
                        Step.at(END * 50, 999, 999, false, Action.CONTINUE),
                        Step.at(END * 50 + 1, 1000, 1000, true, Action.END))),
                Arguments.of("a consumer-only run reads numRecords per subscription", CONSUMERS_ONLY, List.of(
                        Step.at(S, 0, 1499, true, Action.CONTINUE),
                        Step.at(2 * S, 0, 1500, true, Action.END))),
                Arguments.of("a drain that stops moving for 10 s ends with a note", TIMED, List.of(
                        Step.at(END, 100, 50, true, Action.CONTINUE),
                        Step.at(END + 5 * S, 100, 60, true, Action.CONTINUE),
                        Step.at(END + 15 * S, 100, 60, true, Action.CONTINUE),
                        Step.at(END + 15 * S + 1, 100, 60, true, Action.END).note(stalled))),
                Arguments.of("a drain that moves but takes over 60 s ends with a note", TIMED, List.of(
                        Step.at(END, 1000, 0, true, Action.CONTINUE),
                        Step.at(END + 30 * S, 1000, 400, true, Action.CONTINUE),
                        Step.at(END + 60 * S, 1000, 800, true, Action.CONTINUE),
                        Step.at(END + 60 * S + 1, 1000, 801, true, Action.END).note(stalled))),
                Arguments.of("a consumer-only run may drain for longer than 60 s while it moves", CONSUMERS_ONLY, List.of(
                        Step.at(S, 0, 0, true, Action.CONTINUE),
                        Step.at(9 * S, 0, 100, true, Action.CONTINUE),
                        Step.at(18 * S, 0, 200, true, Action.CONTINUE),
                        Step.at(27 * S, 0, 300, true, Action.CONTINUE),
                        Step.at(36 * S, 0, 400, true, Action.CONTINUE),
                        Step.at(45 * S, 0, 500, true, Action.CONTINUE),
                        Step.at(54 * S, 0, 600, true, Action.CONTINUE),
                        Step.at(63 * S, 0, 700, true, Action.CONTINUE),
                        Step.at(72 * S, 0, 1500, true, Action.END))),
                Arguments.of("a failure ends the run at once, also while sending", TIMED, List.of(
                        Step.at(S, 10, 10, false, Action.CONTINUE),
                        Step.at(2 * S, 20, 20, false, Action.FAIL).failure("lost the connection to worker w1")
                                .note("lost the connection to worker w1"))),
                Arguments.of("maxSendErrors is a limit: reaching it is fine, passing it fails", TEN_ERRORS, List.of(
                        Step.at(S, 10, 10, false, Action.CONTINUE).failed(10),
                        Step.at(2 * S, 20, 20, false, Action.FAIL).failed(11)
                                .note("11 sends failed, more than maxSendErrors (10)"))),
                Arguments.of("consumer-perf's --timeout bounds the idle wait instead of the default 10 s",
                        CONSUMERS_ONLY.withDrainIdle(2 * S), List.of(
                        Step.at(S, 0, 100, true, Action.CONTINUE),
                        Step.at(3 * S, 0, 100, true, Action.CONTINUE),
                        Step.at(3 * S + 1, 0, 100, true, Action.END)
                                .note("consumers stopped making progress while draining"))),
                Arguments.of("a backlog run releases its consumers once the backlog is acknowledged", BACKLOG, List.of(
                        Step.at(S, 4999, 0, false, Action.CONTINUE),
                        Step.at(2 * S, 5000, 0, false, Action.RELEASE_CONSUMERS),
                        Step.at(3 * S, 9000, 100, false, Action.CONTINUE).afterRelease(),
                        Step.at(4 * S, 10_000, 10_000, true, Action.END).afterRelease())),
                Arguments.of("a backlog not reached releases the consumers when the producers finish, with a note", BACKLOG, List.of(
                        Step.at(S, 3000, 0, true, Action.RELEASE_CONSUMERS)
                                .note("the backlog of 5,000 messages was not reached (3,000 acknowledged); "
                                        + "consumers started when the producers finished"),
                        Step.at(2 * S, 3000, 3000, true, Action.END).afterRelease())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void shouldDecideEachPollFromTotalsAndTime(String name, Rules rules, List<Step> steps) {
        Drain drain = Drain.NOT_STARTED;
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            Decision d = EndCondition.decide(rules, new Totals(s.failure(), s.acked(), s.failed(), s.received(),
                    s.producersDone(), s.released()), s.now(), drain);
            assertEquals(s.action(), d.action(), "step " + i + " action");
            assertEquals(s.note(), d.note(), "step " + i + " note");
            drain = d.drain();
        }
    }

    /** Live totals end a run only where the snapshots would end it plainly: never with a note, a failure or early. */
    @org.junit.jupiter.api.Test
    void shouldCallARunCompleteOnlyWhenNothingIsDueNothingFailedAndEverythingWasRead() {
        assertEquals(true, EndCondition.complete(TIMED, new Totals(null, 500, 0, 500, true, false), END));
        assertEquals(false, EndCondition.complete(TIMED, new Totals(null, 500, 0, 500, true, false), END - 1),
                "still sending");
        assertEquals(false, EndCondition.complete(TIMED, new Totals(null, 500, 0, 499, true, false), END + S),
                "one message unread");
        assertEquals(false, EndCondition.complete(TIMED, new Totals(null, 500, 0, 500, false, false), END + S),
                "a producer has sends outstanding");
        assertEquals(false, EndCondition.complete(TIMED, new Totals(null, 500, 0, 500, false, false), END + 61 * S),
                "producers stopped after FINISH_MAX: an END with a note, left to the snapshots");
        assertEquals(false, EndCondition.complete(TIMED, new Totals("worker lost", 500, 0, 500, true, false), END + S));
        assertEquals(false, EndCondition.complete(TEN_ERRORS, new Totals(null, 500, 11, 500, true, false), END + S),
                "more failed sends than maxSendErrors: a failure");
        assertEquals(true, EndCondition.complete(TEN_ERRORS, new Totals(null, 500, 10, 500, true, false), END + S));
        assertEquals(false, EndCondition.complete(TWO_SUBSCRIPTIONS, new Totals(null, 500, 0, 999, true, false), END));
        assertEquals(true, EndCondition.complete(TWO_SUBSCRIPTIONS, new Totals(null, 500, 0, 1000, true, false), END));
        assertEquals(false, EndCondition.complete(BACKLOG, new Totals(null, 10_000, 0, 10_000, true, false), 0),
                "a backlog run's consumers not yet released");
        assertEquals(true, EndCondition.complete(COUNT, new Totals(null, 1000, 0, 1000, true, false), 0));
        assertEquals(true, EndCondition.complete(PRODUCERS_ONLY, new Totals(null, 500, 0, 0, true, false), END));
        assertEquals(false, EndCondition.complete(CONSUMERS_ONLY, new Totals(null, 0, 0, 1499, true, false), 0));
        assertEquals(true, EndCondition.complete(CONSUMERS_ONLY, new Totals(null, 0, 0, 1500, true, false), 0));
    }

    /** The drain counts a message received twice once: a duplicate does not stand for a message still on its way. */
    @org.junit.jupiter.api.Test
    void shouldCountWhatTheConsumersReadOnceEach() {
        io.kbench.protocol.Counters t = new io.kbench.protocol.Counters(1000, 1000, 0, 0, 1000, 0, 0, 0, 0, 1, 0, 999, 0);
        assertEquals(999, LiveRun.read(t), "1,000 received, one of them a second time: 999 read");
        assertEquals(false, EndCondition.complete(TIMED, new Totals(null, 1000, 0, LiveRun.read(t), true, false), END),
                "one acknowledged message not yet read");
        io.kbench.protocol.Counters share = new io.kbench.protocol.Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                900, 0, 0, 880, 10, 20);
        assertEquals(900, LiveRun.read(share), "a share group is done with what it accepted or rejected");
    }

    /**
     * A count run's live counts are read only once the run could be over within a few intervals: not while what is
     * left would take longer than that at the busiest interval's pace (COUNT: 1,000 records; CONSUMERS_ONLY: 500 × 3
     * subscriptions to read).
     */
    @org.junit.jupiter.api.Test
    void shouldReadLiveCountsOnlyWhenACountRunMayEndWithinAFewIntervals() {
        int k = EndCondition.END_LOOKAHEAD_INTERVALS;
        assertEquals(true, EndCondition.mayEndSoon(COUNT, new Totals(null, 0, 0, 0, false, false), 0, 0),
                "before the first interval: a short run may end within it");
        assertEquals(false, EndCondition.mayEndSoon(COUNT, new Totals(null, 100, 0, 90, false, false), 100, 90),
                "900 left at 100 an interval: not within " + k);
        long edge = 1000 - k * 100L;
        assertEquals(true, EndCondition.mayEndSoon(COUNT, new Totals(null, edge, 0, 0, false, false), 100, 0),
                "exactly " + k + " intervals' worth left");
        assertEquals(false, EndCondition.mayEndSoon(COUNT, new Totals(null, edge - 1, 0, 0, false, false), 100, 0),
                "one message more than that");
        assertEquals(true, EndCondition.mayEndSoon(COUNT, new Totals(null, edge - 10, 10, 0, false, false), 100, 0),
                "failed sends are done too");
        assertEquals(true, EndCondition.mayEndSoon(COUNT, new Totals(null, 50, 0, 0, true, false), 100, 0),
                "the producers are done (they stopped early): only the consumers are left");
        assertEquals(true, EndCondition.mayEndSoon(COUNT, new Totals(null, 2000, 0, 0, false, false), 100, 0),
                "more acknowledged than the count (nothing left)");
        assertEquals(true, EndCondition.mayEndSoon(CONSUMERS_ONLY, new Totals(null, 0, 0, 0, false, false), 0, 0));
        assertEquals(false, EndCondition.mayEndSoon(CONSUMERS_ONLY, new Totals(null, 0, 0, 1499 - k * 100L, false, false),
                0, 100), "without producers: what the readers have left, at the busiest interval's reads");
        assertEquals(true, EndCondition.mayEndSoon(CONSUMERS_ONLY, new Totals(null, 0, 0, 1500 - k * 100L, false, false),
                0, 100));
    }
}
