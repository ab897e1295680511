package io.kbench.coordinator.rpc;

/**
 * A call to a worker failed. {@link #unreachable()} distinguishes a worker that could not be reached at all
 * from one that answered with a refusal; the message is one line fit for the user.
 */
public final class WorkerCallException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** How the call failed. */
    public enum Kind {
        /** No connection to the worker (down, wrong address, network). */
        UNREACHABLE,
        /** The worker refused the request as invalid or because it is busy. */
        REFUSED,
        /** The worker could not reach the Kafka cluster. */
        CLUSTER_UNREACHABLE,
        /** Anything else: the worker failed while doing it. */
        FAILED
    }

    private final Kind kind;

    public WorkerCallException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    public boolean unreachable() {
        return kind == Kind.UNREACHABLE;
    }
}
