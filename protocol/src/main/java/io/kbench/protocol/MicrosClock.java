package io.kbench.protocol;

/**
 * Wall-clock time in microseconds since the Unix epoch, read from the monotonic {@link System#nanoTime()}
 * anchored once to the system clock: cheap, microsecond-precise and never going backwards within a
 * process (a later NTP step of the system clock does not move it).
 *
 * <p>Every timestamp kbench puts on the wire is one of these readings on the coordinator's clock
 * ("coordinator time"); a worker adds its estimated offset to convert. Thread-safe; immutable.
 */
public final class MicrosClock {
    /** The process-wide clock. */
    public static final MicrosClock SYSTEM = new MicrosClock(0);

    private final long anchorNanos;
    private final long anchorMicros;
    private final String id = java.util.UUID.randomUUID().toString();

    /**
     * A clock anchored now, shifted by {@code skewMicros} (tests use a skew to play a host whose clock is off).
     */
    public MicrosClock(long skewMicros) {
        long before = System.nanoTime();
        long wall = System.currentTimeMillis() * 1000L;
        long after = System.nanoTime();
        this.anchorNanos = before + (after - before) / 2;
        this.anchorMicros = wall + skewMicros;
    }

    /**
     * Identity of this clock instance: two parties reading clocks with the same id read the same clock, so
     * the offset between them is exactly 0 (an in-process worker and its coordinator).
     */
    public String id() {
        return id;
    }

    /** Microseconds since the epoch, now. */
    public long micros() {
        return toMicros(System.nanoTime());
    }

    /** The epoch-microsecond reading that corresponds to a {@link System#nanoTime()} value. */
    public long toMicros(long nanoTime) {
        return anchorMicros + Math.floorDiv(nanoTime - anchorNanos, 1000L);
    }

    /** The {@link System#nanoTime()} value at which this clock reads {@code micros}. */
    public long toNanoTime(long micros) {
        return anchorNanos + (micros - anchorMicros) * 1000L;
    }
}
