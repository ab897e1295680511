package io.kbench.worker;

/**
 * A consumer's processing time per message ({@code consumerProcessingMillis}): the consumer's thread waits, as one
 * waiting on I/O does (it parks; it does not spin a core), in steps until the time is up. A step overshoots by the
 * OS's timer slack, about 0.05-0.1 ms on Linux, so times below a millisecond come out a little long.
 */
final class Processing {
    private Processing() {
    }

    // HOT PATH (consumer thread)
    static void waitFor(NanoClock nanos, long processingNanos) {
        long end = nanos.nanoTime() + processingNanos;
        for (long left = processingNanos; left > 0; left = end - nanos.nanoTime()) {
            nanos.park(left);
        }
    }
}
