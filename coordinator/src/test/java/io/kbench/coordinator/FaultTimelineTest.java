package io.kbench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.kbench.coordinator.workload.Fault;
import org.junit.jupiter.api.Test;

class FaultTimelineTest {
    private static final long S = 1_000_000;

    @Test
    void shouldMarkABrokerDownFromItsStopRequestUntilItsRestartCompleted() {
        FaultTimeline t = new FaultTimeline();
        t.done(t.begin(new Fault(10, Fault.Action.stop, 2), 10 * S), 11 * S, null);
        t.done(t.begin(new Fault(20, Fault.Action.start, 2), 20 * S), 23 * S, null);
        assertEquals(List.of(), t.downDuring(9 * S, 10 * S));
        assertEquals(List.of("broker 2 down"), t.downDuring(10 * S, 11 * S));
        assertEquals(List.of("broker 2 down"), t.downDuring(22 * S, 23 * S));
        assertEquals(List.of(), t.downDuring(23 * S, 24 * S));
    }

    @Test
    void shouldKeepABrokerDownUntilTheEndWhenItIsNotStartedOrItsRestartFailed() {
        FaultTimeline t = new FaultTimeline();
        t.begin(new Fault(1, Fault.Action.stop, 3), S);
        t.begin(new Fault(1, Fault.Action.stop, 1), S);
        int restart = t.begin(new Fault(5, Fault.Action.start, 1), 5 * S);
        t.done(restart, 0, "did not rejoin");
        assertEquals(List.of("broker 1 down", "broker 3 down"), t.downDuring(100 * S, 101 * S));
        assertEquals("did not rejoin", t.events().get(2).error());
    }

    @Test
    void shouldMarkEachDownWindowOfABrokerStoppedTwice() {
        FaultTimeline t = new FaultTimeline();
        t.done(t.begin(new Fault(1, Fault.Action.stop, 1), S), S, null);
        t.done(t.begin(new Fault(2, Fault.Action.start, 1), 2 * S), 3 * S, null);
        t.done(t.begin(new Fault(6, Fault.Action.stop, 1), 6 * S), 6 * S, null);
        assertEquals(List.of(), t.downDuring(4 * S, 5 * S));
        assertEquals(List.of("broker 1 down"), t.downDuring(2 * S, 4 * S));
        assertEquals(List.of("broker 1 down"), t.downDuring(7 * S, 8 * S));
    }
}
