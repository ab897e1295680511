package io.kbench.coordinator.rpc;

import java.util.Optional;
import java.util.regex.Pattern;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * Turns a failed call's gRPC status into what the user reads: a {@link WorkerCallException} of the right
 * {@link WorkerCallException.Kind}, or, for the run stream, whether the connection was lost. Decisions rest
 * on status codes and the status's cause; the transport's own wording is looked at in one place only
 * ({@link Transport}), where no code tells a reset or closed connection from other failures. Pure.
 */
public final class CallFailures {
    private CallFailures() { }

    /**
     * The only knowledge of Netty's message text: the prefix its native transport puts before the operating
     * system's words, and the words of a connection the peer closed or reset (what a TLS server does to a
     * plaintext client).
     */
    static final class Transport {
        private static final Pattern NATIVE_PREFIX = Pattern.compile("^.*failed with error\\(-?\\d+\\): ");

        private Transport() { }

        /** "recvAddress(..) failed with error(-104): Connection reset by peer" → "Connection reset by peer". */
        static String detail(String message) {
            return NATIVE_PREFIX.matcher(message).replaceFirst("");
        }

        /** The peer closed or reset the connection. */
        static boolean dropped(String message) {
            return message.contains("reset") || message.contains("Network closed");
        }

        /** gRPC's description of a connection that closed under a call. */
        static boolean closed(String description) {
            return description.contains("Network closed");
        }
    }

    /**
     * @param address the worker's {@code host:port}
     * @param tls     the channel uses TLS (a plaintext one meeting a TLS worker gets a hint)
     * @param what    the call, as the user should read it ("identify", "prepare", ...)
     */
    /** The seconds in grpc-java's description of a deadline that passed. */
    private static final java.util.regex.Pattern DEADLINE = java.util.regex.Pattern.compile("after ([0-9]+(?:\\.[0-9]+)?)s");

    public static WorkerCallException translate(StatusRuntimeException e, String address, boolean tls, String what) {
        Status s = e.getStatus();
        String desc = s.getDescription() == null ? s.getCode().toString() : s.getDescription();
        javax.net.ssl.SSLException tlsFailure = cause(e, javax.net.ssl.SSLException.class);
        if (tlsFailure != null) {
            return new WorkerCallException(WorkerCallException.Kind.REFUSED, "TLS handshake with worker " + address
                    + " failed (" + what + "): " + tlsFailure.getMessage() + (tls
                    ? " (check --tls-ca, --tls-cert/--tls-key and the worker's certificate)"
                    : " (the worker serves TLS: give --tls and --tls-ca)"), e);
        }
        if (s.getCode() == Status.Code.UNAUTHENTICATED) {
            return new WorkerCallException(WorkerCallException.Kind.REFUSED, desc, e);
        }
        // a transport failure carries its cause; an Identify that timed out never reached a worker either
        boolean transport = s.getCause() != null || s.getCode() == Status.Code.DEADLINE_EXCEEDED && what.equals("identify");
        if ((s.getCode() == Status.Code.UNAVAILABLE || s.getCode() == Status.Code.DEADLINE_EXCEEDED) && transport) {
            String cause = Transport.detail(s.getCause() != null && s.getCause().getMessage() != null
                    ? s.getCause().getMessage() : desc);
            return new WorkerCallException(WorkerCallException.Kind.UNREACHABLE,
                    "cannot reach worker " + address + " (" + what + "): " + cause + tlsHint(cause, tls), e);
        }
        if (s.getCode() == Status.Code.UNAVAILABLE && Transport.closed(desc)) {
            return new WorkerCallException(WorkerCallException.Kind.UNREACHABLE, "worker " + address + " (" + what
                    + ") closed the connection: " + desc + tlsHint(desc, tls), e);
        }
        if (s.getCode() == Status.Code.DEADLINE_EXCEEDED) {
            // grpc-java's text ("CallOptions deadline exceeded after 59.999541899s. Name resolution delay 0.000000000
            // seconds. [...]") says the call's deadline passed: say it in the user's terms, whole seconds
            java.util.regex.Matcher m = DEADLINE.matcher(desc);
            desc = m.find() ? String.format(java.util.Locale.ROOT, "did not answer within %.0f s",
                    Double.parseDouble(m.group(1))) : "did not answer within the call's deadline";
        }
        WorkerCallException.Kind kind = switch (s.getCode()) {
            case INVALID_ARGUMENT, FAILED_PRECONDITION, NOT_FOUND -> WorkerCallException.Kind.REFUSED;
            case UNAVAILABLE -> WorkerCallException.Kind.CLUSTER_UNREACHABLE;
            default -> WorkerCallException.Kind.FAILED;
        };
        return new WorkerCallException(kind, "worker " + address + " (" + what + "): " + desc, e);
    }

    /**
     * How a run stream ended with an error: the reason the connection to the worker was lost (process gone,
     * host or network down), or empty when the worker itself ended the stream (ABORTED with its reason).
     */
    public static Optional<String> connectionLost(Status status, String address) {
        Status.Code code = status.getCode();
        boolean lost = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
                || code == Status.Code.UNKNOWN && status.getCause() != null;
        if (!lost) {
            return Optional.empty();
        }
        Throwable cause = status.getCause();
        String detail = cause != null && cause.getMessage() != null ? cause.getMessage()
                : status.getDescription() != null ? status.getDescription() : code.toString();
        return Optional.of("lost the connection to worker " + address + ": " + Transport.detail(detail));
    }

    /**
     * A TLS worker answers a plaintext client by closing or resetting the connection, which looks like any
     * dropped connection: say what is the likely cause.
     */
    private static String tlsHint(String failure, boolean tls) {
        return !tls && Transport.dropped(failure) ? " (if the worker serves TLS, give --tls and --tls-ca)" : "";
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
