package io.kbench.driver;

/**
 * A failure of the messaging system or of the driver's configuration, with a message fit for a user:
 * what failed, where (e.g. which bootstrap servers) and, where known, what would fix it.
 */
public class DriverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the messaging system could not be reached at all (as opposed to rejecting a request). */
    private final boolean unreachable;

    public DriverException(String message, Throwable cause, boolean unreachable) {
        super(message, cause);
        this.unreachable = unreachable;
    }

    public DriverException(String message) {
        this(message, null, false);
    }

    /** True when the cluster could not be reached (wrong address, down, blocked). */
    public boolean unreachable() {
        return unreachable;
    }
}
