package io.kbench.coordinator;

/**
 * A problem the user can fix, printed as one line, no stack trace: bad input (exit code 2), or with
 * {@link #unreachable} a broker or worker that did not answer (exit code 3).
 */
public final class UserException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean unreachable;

    public UserException(String message) {
        this(message, null, false);
    }

    public UserException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private UserException(String message, Throwable cause, boolean unreachable) {
        super(message, cause);
        this.unreachable = unreachable;
    }

    /** A broker or worker that did not answer (not bad input). */
    public static UserException unreachable(String message) {
        return new UserException(message, null, true);
    }

    /** A broker or worker that did not answer (not bad input). */
    public static UserException unreachable(String message, Throwable cause) {
        return new UserException(message, cause, true);
    }

    /** True when the environment did not answer, false for bad input. */
    public boolean unreachable() {
        return unreachable;
    }
}
