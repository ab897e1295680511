package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The first error of an interval travels; once kbench stops a failed run, the errors its stop causes say so. */
class ErrorSlotTest {
    @Test
    void shouldKeepTheIntervalsFirstErrorAndClearOnTake() {
        ErrorSlot slot = new ErrorSlot();
        slot.offer(new IllegalStateException("first"));
        slot.offer("second");
        assertEquals("IllegalStateException: first", slot.take());
        assertEquals("", slot.take(), "cleared");
    }

    @Test
    void shouldSayAnErrorOfTheStopIsTheStops() {
        ErrorSlot slot = new ErrorSlot();
        slot.offer("NotEnoughReplicasException: a cluster's own");
        slot.stopping(LoadRun.STOPPED_SENDS);
        assertEquals("NotEnoughReplicasException: a cluster's own", slot.take(), "kept before the stop: as it was");
        slot.offer(new org.apache.kafka.common.KafkaException("Producer is closed forcefully."));
        assertEquals("KafkaException: Producer is closed forcefully. (in flight when the failed run stopped its producers)",
                slot.take());
    }

    @Test
    void shouldBoundTheTextItCarries() {
        ErrorSlot slot = new ErrorSlot();
        slot.stopping(LoadRun.STOPPED_SENDS);
        slot.offer("x".repeat(5_000));
        assertEquals(ErrorSlot.MAX_CHARS + 3, slot.take().length());
    }
}
