package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * {@link Loop#close} interrupts whatever the loop's thread is doing; {@link Loop#finish} lets a turn under way end
 * (a fault restarting a broker), and still ends a wait between turns at once. Latches order the threads; the waits
 * are bounds, not timings.
 */
class LoopTest {
    private static final CoordinatorClock CLOCK = CoordinatorClock.system();

    @Test
    void shouldLetATurnUnderWayFinishWhenFinished() throws Exception {
        CountDownLatch inTurn = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> outcome = new AtomicReference<>("not ended");
        AtomicInteger turns = new AtomicInteger();
        Loop loop = Loop.start("kbench-test", Duration.ofMillis(10), CLOCK, now -> {
            turns.incrementAndGet();
            inTurn.countDown();
            try {
                release.await(); // a broker start waiting for the node to serve
                outcome.set("finished");
            } catch (InterruptedException e) {
                outcome.set("interrupted");
                throw e;
            }
            return true;
        }, e -> outcome.set("error " + e));
        assertTrue(inTurn.await(10, TimeUnit.SECONDS));
        Thread finisher = new Thread(() -> loop.finish(Duration.ofSeconds(10)));
        finisher.start();
        Thread.sleep(200); // finish has had its chance to interrupt the turn
        assertTrue(loop.running(), "finish waits for the turn");
        release.countDown();
        finisher.join(10_000);
        assertFalse(loop.running());
        assertEquals("finished", outcome.get());
        assertEquals(1, turns.get(), "no turn after finish");
    }

    @Test
    void shouldEndAWaitBetweenTurnsAtOnceWhenFinished() {
        AtomicInteger turns = new AtomicInteger();
        Loop loop = Loop.start("kbench-test", Duration.ofHours(1), CLOCK, now -> turns.incrementAndGet() < 100,
                e -> { });
        long t0 = System.nanoTime();
        while (turns.get() == 0 && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10)) {
            Thread.onSpinWait();
        }
        assertTrue(loop.finish(Duration.ofSeconds(10)), "the hour's wait was interrupted");
        assertEquals(1, turns.get());
    }

    @Test
    void shouldInterruptATurnUnderWayWhenClosed() throws Exception {
        CountDownLatch inTurn = new CountDownLatch(1);
        AtomicReference<String> outcome = new AtomicReference<>("not ended");
        Loop loop = Loop.start("kbench-test", Duration.ofMillis(10), CLOCK, now -> {
            inTurn.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                outcome.set("interrupted");
                throw e;
            }
            return true;
        }, e -> { });
        assertTrue(inTurn.await(10, TimeUnit.SECONDS));
        assertTrue(loop.close(Duration.ofSeconds(10)));
        assertEquals("interrupted", outcome.get());
    }
}
