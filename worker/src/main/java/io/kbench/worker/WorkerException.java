package io.kbench.worker;

/**
 * A request the worker refuses, with the gRPC status kind it maps to and a message for the coordinator's
 * user.
 */
public final class WorkerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why a request was refused. */
    public enum Kind { INVALID, BUSY, NOT_FOUND, UNAVAILABLE, FAILED }

    private final Kind kind;

    public WorkerException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public WorkerException(Kind kind, String message) {
        this(kind, message, null);
    }

    public Kind kind() {
        return kind;
    }
}
