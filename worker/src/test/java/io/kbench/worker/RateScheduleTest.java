package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateScheduleTest {

    @ParameterizedTest(name = "rate {0}: message {1} due at +{2} ns")
    @CsvSource({
        "1000, 0, 0",
        "1000, 1, 1000000",
        "1000, 1000, 1000000000",
        "3, 1, 333333333",
        "3, 2, 666666666",
        "3, 3, 1000000000",
        "7, 700000000, 100000000000000000",   // 100 million seconds in: no overflow, no drift
    })
    void shouldDueEveryMessageAtStartPlusIndexOverRate(long rate, long index, long offset) {
        long start = 123_456_789L;
        assertEquals(start + offset, new RateSchedule(start, rate).intendedNanos(index));
    }

    @Test
    void shouldCountExactlyTheRateOfMessagesPerSecond() {
        RateSchedule s = new RateSchedule(0, 20_000);
        assertEquals(20_000, s.dueBefore(1_000_000_000L));
        assertEquals(400_000, s.dueBefore(20_000_000_000L));
        assertEquals(0, s.dueBefore(0));
        assertEquals(1, s.dueBefore(1));
    }

    @Test
    void shouldAgreeBetweenDueTimesAndCounts() {
        RateSchedule s = new RateSchedule(5, 7);
        for (long i = 0; i < 100; i++) {
            long t = s.intendedNanos(i);
            assertEquals(i, s.dueBefore(t), "before message " + i);
            assertEquals(i + 1, s.dueBefore(t + 1), "just after message " + i);
            assertTrue(s.intendedNanos(i + 1) > t);
        }
    }

    @Test
    void shouldRejectARateBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> new RateSchedule(0, 0));
    }
}
