package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.kbench.driver.ManualNanoClock;
import io.kbench.protocol.RoundTripSample;
import org.junit.jupiter.api.Test;

/** The closed loop's rules, on a manual clock: one message in flight, its samples, its ways to fail. */
class RoundTripTest {
    private static final long MS = 1_000_000L;

    private final ManualNanoClock clock = new ManualNanoClock(0);
    private final ErrorSlot fatal = new ErrorSlot();
    private final RoundTrip loop = new RoundTrip(clock, fatal);
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    @Test
    void shouldReturnOnceTheMessageWasReadAndAcknowledgedAndSampleEveryThousandth() {
        for (long i = 0; i < 2_001; i++) {
            loop.sending(i, clock.nanoTime());
            clock.advance(2 * MS + i * 1_000); // each a microsecond slower than the one before
            acked.incrementAndGet();
            assertTrue(loop.read(clock.nanoTime()));
            assertTrue(loop.await(i, acked::get, failed::get, () -> false));
        }
        assertEquals(0, clock.parks(), "nothing to wait for: back and acknowledged before the wait");
        assertEquals(List.of(new RoundTripSample(0, 2_000), new RoundTripSample(1_000, 3_000),
                new RoundTripSample(2_000, 4_000)), loop.takeSamples());
        assertEquals(List.of(), loop.takeSamples(), "taken once");
        assertEquals("", fatal.take());
    }

    @Test
    void shouldWaitForTheAcknowledgementOfAMessageAlreadyReadBack() {
        loop.sending(0, 0);
        assertTrue(loop.read(MS));
        clock.onPark(parked -> acked.set(1)); // the ack arrives during the first park
        assertTrue(loop.await(0, acked::get, failed::get, () -> false));
        assertEquals(1, clock.parks());
        assertEquals(20_000, clock.nanoTime(), "a short park: the ack is microseconds behind the read");
    }

    @Test
    void shouldFailAMessageThatDidNotComeBackWithinTheToolsTimeout() {
        loop.sending(7, 0);
        assertFalse(loop.await(7, acked::get, failed::get, () -> false));
        assertEquals(RoundTrip.TIMEOUT_NANOS, clock.nanoTime(), "it waited the whole 60 s, no more");
        assertEquals("round trip: message 7 was not read back within 60 s (is the consumer assigned the topic's "
                + "partitions?)", fatal.take());
    }

    @Test
    void shouldFailAMessageItDidNotSendAndAFailedSend() {
        assertFalse(loop.read(0), "nothing in flight: another producer's message");
        assertTrue(fatal.take().contains("did not send (is something else producing to the topic?)"));
        loop.sending(0, 0);
        assertTrue(loop.read(MS));
        assertFalse(loop.read(2 * MS), "the second message of one send");
        assertTrue(fatal.take().contains("did not send"));
        loop.sending(1, 3 * MS);
        failed.set(1);
        assertFalse(loop.await(1, acked::get, failed::get, () -> false));
        assertTrue(fatal.take().startsWith("round trip: the send of message 1 failed"));
    }

    @Test
    void shouldStopWaitingWhenStopped() {
        loop.sending(0, 0);
        assertFalse(loop.await(0, acked::get, failed::get, () -> true));
        assertEquals("", fatal.take(), "a stop is no failure");
    }
}
