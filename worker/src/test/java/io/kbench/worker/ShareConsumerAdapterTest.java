package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.NanoClock;
import io.kbench.driver.ShareConsumerHandle;
import io.kbench.driver.ShareRecordListener;
import io.kbench.protocol.MicrosClock;
import org.junit.jupiter.api.Test;

/** A share consumer under the classic consumer's loop: held means not polling at all; released, it polls. */
class ShareConsumerAdapterTest {
    /** A share consumer that counts its polls and joins at its first. */
    private static final class Fake implements ShareConsumerHandle {
        int polls;
        boolean joined;

        @Override
        public int poll(Duration timeout, ShareRecordListener listener) {
            polls++;
            joined = true;
            listener.onPollReturned();
            listener.onRecord(10, io.kbench.driver.RecordListener.NO_STAMP, 0, -1, 0, 1);
            return 1;
        }

        @Override
        public void wakeup() {
        }

        @Override
        public boolean joined() {
            return joined;
        }

        @Override
        public long joinedNanos() {
            return 0;
        }

        @Override
        public java.util.Map<String, Double> metrics() {
            return java.util.Map.of();
        }

        @Override
        public void close() {
        }
    }

    private final ShareConsumerMetrics metrics = new ShareConsumerMetrics(
            new RunClock(MicrosClock.SYSTEM, 0, NanoClock.SYSTEM), 0, 0, 0, 1);

    @Test
    void heldItNeitherPollsNorHoldsUpThePrepareAndReleasedItReads() {
        Fake share = new Fake();
        ShareConsumerAdapter a = new ShareConsumerAdapter(share, metrics);
        a.hold(ConsumerHandle.Start.BEGINNING);
        assertTrue(a.joined(), "a held share consumer joins after the start: the prepare does not wait for it");
        assertEquals(0, a.poll(Duration.ofMillis(1), null));
        assertEquals(0, share.polls, "held: no poll, so no join and no fetch");
        a.release();
        assertFalse(a.joined(), "released, it is joined once its own client says so");
        assertEquals(1, a.poll(Duration.ofMillis(1), null));
        assertEquals(1, share.polls);
        assertTrue(a.joined());
        assertEquals(1, metrics.totals().shareDelivered(), "its records go to its own figures");
    }

    @Test
    void notHeldItPollsFromTheStart() {
        Fake share = new Fake();
        ShareConsumerAdapter a = new ShareConsumerAdapter(share, metrics);
        assertFalse(a.joined());
        a.poll(Duration.ofMillis(1), null);
        assertEquals(1, share.polls, "a run with producers: it joins and polls during prepare");
        assertEquals(0, a.assignedPartitions(), "a share group's partitions are shared: none is its own");
        assertEquals(-1, a.lag());
    }
}
