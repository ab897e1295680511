package io.kbench.coordinator;

/**
 * A problem the user can fix (bad input, unreachable worker or cluster): printed as one line, exit code 2,
 * no stack trace.
 */
public final class UserException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserException(String message) {
        super(message);
    }

    public UserException(String message, Throwable cause) {
        super(message, cause);
    }
}
