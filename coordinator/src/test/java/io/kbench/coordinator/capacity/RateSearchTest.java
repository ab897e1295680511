package io.kbench.coordinator.capacity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;

import org.junit.jupiter.api.Test;

/** The search against simulated systems whose capacity is known. */
class RateSearchTest {
    /** Runs a search to its end; returns the rates tried, in order. */
    private static List<Long> search(RateSearch s, LongPredicate sustains) {
        List<Long> tried = new ArrayList<>();
        for (var step = s.next(); step.isPresent(); step = s.next()) {
            long rate = step.get().rate();
            tried.add(rate);
            s.record(rate, sustains.test(rate));
        }
        return tried;
    }

    @Test
    void shouldConvergeWithinPrecisionBelowTheCapacityFromAnyStart() {
        for (long capacity : new long[] {137, 5_000, 48_321, 1_234_567}) {
            for (long start : new long[] {2, 1_000, 50_000, 3_000_000}) {
                RateSearch s = new RateSearch(start, 2, 1_000_000_000L, 0.02, 60, 2.0);
                List<Long> tried = search(s, r -> r <= capacity);
                String what = "capacity " + capacity + " from " + start + ": tried " + tried;
                assertTrue(s.converged(), what);
                assertTrue(s.best() <= capacity, what + " reported a rate above the capacity");
                assertTrue(s.best() >= capacity * 0.98, what + " found " + s.best());
                assertTrue(s.confirmed(), what);
                assertTrue(s.settled(), what);
                assertEquals(s.best(), s.answer(), what);
                assertTrue(s.outcome().startsWith("converged"), s.outcome());
                assertTrue(tried.size() <= 45, what);
            }
        }
    }

    @Test
    void shouldReportOnlyARateThatPassedTwoTrialsAndNoneThatFailedTwice() {
        // a noisy system: near its capacity a trial passes or fails at random, and well below it 1 in 10 fails
        Random random = new Random(42);
        int close = 0;
        for (int run = 0; run < 200; run++) {
            long capacity = 10_000 + random.nextInt(90_000);
            java.util.Map<Long, int[]> history = new java.util.HashMap<>();
            RateSearch s = new RateSearch(1_000, 1, 1_000_000_000L, 0.02, 40, 2.0);
            List<Long> tried = search(s, r -> {
                boolean pass = r < capacity * 0.95 ? random.nextInt(10) > 0
                        : r <= capacity * 1.05 && random.nextBoolean();
                history.computeIfAbsent(r, k -> new int[2])[pass ? 0 : 1]++;
                return pass;
            });
            long best = s.answer();
            if (best == 0) {
                continue;
            }
            int[] h = history.get(best);
            String what = "reported " + best + " (capacity " + capacity + ") after " + tried;
            assertTrue(h[0] >= 2 || !s.settled(), what + ": passed " + h[0] + " time(s)");
            assertTrue(h[1] < 2, what + ": failed twice");
            assertTrue(h[0] > h[1], what + ": passed " + h[0] + " and failed " + h[1] + " time(s)");
            assertTrue(best <= capacity * 1.05, what + ": above anything that can pass");
            close += best >= capacity * 0.95 * 0.98 ? 1 : 0;
        }
        // two failures in three trials at a healthy rate (about 3 in 100 here) rule it out: rare, but the search
        // cannot know
        assertTrue(close >= 175, close + " of 200 searches came within 2% of the noise-free range");
    }

    @Test
    void shouldRunAFailedRateAgainBeforeRulingItOut() {
        RateSearch s = new RateSearch(10_000, 1, 1_000_000_000L, 0.02, 40, 2.0);
        s.record(s.next().orElseThrow().rate(), true);
        assertEquals(new RateSearch.Step(20_000, RateSearch.Phase.bracket), s.next().orElseThrow());
        s.record(20_000, false);
        assertEquals(new RateSearch.Step(20_000, RateSearch.Phase.retry), s.next().orElseThrow(), "one failure decides nothing");
        s.record(20_000, true);
        assertEquals(new RateSearch.Step(20_000, RateSearch.Phase.retry), s.next().orElseThrow(),
                "one pass and one failure: a third trial decides");
        s.record(20_000, true);
        assertEquals(new RateSearch.Step(40_000, RateSearch.Phase.bracket), s.next().orElseThrow(),
                "two passes of three count as a pass");
        s.record(40_000, false);
        s.record(s.next().orElseThrow().rate(), false);
        assertEquals(new RateSearch.Step(30_000, RateSearch.Phase.bisect), s.next().orElseThrow(),
                "ruled out after two failures");
        assertArrayEquals(new int[] {2, 1}, s.tally(20_000));
        assertArrayEquals(new int[] {0, 2}, s.tally(40_000));
        assertEquals(40_000, s.failedRate());
    }

    @Test
    void shouldConfirmAndReopenTheBracketWhenTheFoundRateFailsOnItsSecondTrial() {
        // 10,000 passes once (luck), then fails its confirmation; the true capacity is 7,000
        List<Long> order = new ArrayList<>();
        boolean[] first = {true};
        RateSearch lucky = new RateSearch(10_000, 1, 1_000_000_000L, 0.05, 30, 2.0);
        for (var step = lucky.next(); step.isPresent(); step = lucky.next()) {
            long r = step.get().rate();
            order.add(r);
            boolean pass = r <= 7_000 || (r == 10_000 && first[0]);
            if (r == 10_000) {
                first[0] = false;
            }
            lucky.record(r, pass);
        }
        // 10,000 passed once, 20,000 failed, then bisection, confirmation of 10,000 failed: search went on below it
        assertEquals(List.of(10_000L, 20_000L), order.subList(0, 2), order.toString());
        assertTrue(order.lastIndexOf(10_000L) > 0, "the found rate is run again: " + order);
        assertTrue(lucky.best() <= 7_000 && lucky.best() >= 7_000 * 0.95, lucky.best() + " from " + order);
        assertTrue(lucky.confirmed(), order.toString());
    }

    @Test
    void shouldSayWhenNoRatePassesDownToOneMessagePerProducer() {
        RateSearch s = new RateSearch(10_000, 4, 1_000_000_000L, 0.02, 40, 2.0);
        List<Long> tried = search(s, r -> false);
        assertEquals(0, s.best());
        assertFalse(s.converged());
        assertEquals(4L, tried.get(tried.size() - 1), tried.toString());
        assertTrue(s.outcome().startsWith("no rate passed, down to 4 msg/s"), s.outcome());
    }

    @Test
    void shouldStopAtMaxTrialsWithTheBracketItHad() {
        RateSearch s = new RateSearch(1_000, 1, 1_000_000_000L, 0.001, 6, 2.0);
        List<Long> tried = search(s, r -> r <= 3_000);
        assertEquals(6, tried.size());
        assertEquals(6, s.trials());
        assertFalse(s.converged());
        assertTrue(s.best() > 0 && s.best() <= 3_000);
        assertTrue(s.outcome().startsWith("stopped after 6 trial(s) (--max-trials): the maximum lies between"), s.outcome());
    }

    @Test
    void shouldSpendTheLastTwoTrialsDecidingTheRateFound() {
        // a search on the embedded default (2026-11-30): 160,000 passed its first trial and everything above failed
        // twice; its confirmation was the 20th and last trial and failed, and the search answered 160,000 "passed 1 of
        // 2". Now the last two trials go to the rate found (the retry of 162,500 waits): it fails both, and is ruled out
        boolean[] first = {true};
        RateSearch s = new RateSearch(10_000, 2, 1_000_000_000L, 0.02, 20, 2.0);
        List<Long> tried = search(s, r -> {
            boolean pass = r <= 80_000 || r == 160_000 && first[0];
            first[0] &= r != 160_000;
            return pass;
        });
        assertEquals(List.of(10_000L, 20_000L, 40_000L, 80_000L, 160_000L, 320_000L, 320_000L, 240_000L, 240_000L,
                200_000L, 200_000L, 180_000L, 180_000L, 170_000L, 170_000L, 165_000L, 165_000L, 162_500L, 160_000L,
                160_000L), tried);
        assertArrayEquals(new int[] {1, 2}, s.tally(160_000));
        assertEquals(80_000, s.answer());
        assertFalse(s.settled(), "80,000 passed once, and the bracket is 50% wide");
        assertEquals("stopped after 20 trial(s) (--max-trials): the maximum lies between 80,000 and 160,000 msg/s",
                s.outcome());
        // passing them instead: confirmed
        RateSearch lucky = new RateSearch(10_000, 2, 1_000_000_000L, 0.02, 20, 2.0);
        search(lucky, r -> r <= 80_000 || r == 160_000);
        assertEquals(160_000, lucky.answer());
        assertTrue(lucky.confirmed());
    }

    @Test
    void shouldNotAnswerARateLeftUndecidedWhenTheTrialsRanOut() {
        // the next-to-last trial finds a higher rate, the last fails it: one pass and one failure, no third trial
        RateSearch s = new RateSearch(10_000, 1, 1_000_000_000L, 0.02, 5, 2.0);
        s.record(s.next().orElseThrow().rate(), false);
        s.record(s.next().orElseThrow().rate(), true);
        assertEquals(new RateSearch.Step(10_000, RateSearch.Phase.retry), s.next().orElseThrow());
        s.record(10_000, true);
        assertTrue(s.confirmed(), "2 of 3");
        assertEquals(new RateSearch.Step(20_000, RateSearch.Phase.bracket), s.next().orElseThrow(),
                "two trials left and the rate found decided: the search goes on");
        s.record(20_000, true);
        assertEquals(new RateSearch.Step(20_000, RateSearch.Phase.confirm), s.next().orElseThrow(),
                "one trial left: it goes to the rate found");
        s.record(20_000, false);
        assertTrue(s.next().isEmpty());
        assertEquals(20_000, s.best(), "the bracket's lower end");
        assertEquals(10_000, s.answer(), "the highest rate that passed more than it failed");
        assertFalse(s.settled());
        assertEquals("stopped after 5 trial(s) (--max-trials): 20,000 msg/s undecided (passed 1 of 2 trial(s))",
                s.outcome());
    }

    @Test
    void shouldStopAtTheHighestRateAWorkloadMayAskFor() {
        RateSearch s = new RateSearch(400_000_000L, 1, 1_000_000_000L, 0.02, 40, 2.0);
        List<Long> tried = search(s, r -> true);
        assertEquals(List.of(400_000_000L, 800_000_000L, 1_000_000_000L), tried);
        assertEquals(1_000_000_000L, s.best());
    }

    @Test
    void shouldGrowGentlyAfterAProbeAndHalveWhileFailing() {
        RateSearch s = new RateSearch(100_000, 1, 1_000_000_000L, 0.02, 40, 1.25);
        s.record(s.next().orElseThrow().rate(), true);
        var next = s.next().orElseThrow();
        assertEquals(125_000, next.rate());
        assertEquals(RateSearch.Phase.bracket, next.phase());
        RateSearch down = new RateSearch(100_000, 1, 1_000_000_000L, 0.02, 40, 1.25);
        down.record(100_000, false);
        down.record(100_000, false);
        assertEquals(50_000, down.next().orElseThrow().rate());
        down.record(50_000, true);
        var bisect = down.next().orElseThrow();
        assertEquals(75_000, bisect.rate());
        assertEquals(RateSearch.Phase.bisect, bisect.phase());
    }
}
