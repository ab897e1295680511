package io.kbench.coordinator.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Optional;
import java.util.stream.Stream;

import io.grpc.Status;
import io.kbench.coordinator.rpc.WorkerCallException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CallFailuresTest {
    private static final String W = "10.0.0.7:7070";

    static Stream<Arguments> statuses() {
        IOException refused = new IOException("connect(..) failed with error(-111): Connection refused");
        IOException reset = new IOException("recvAddress(..) failed with error(-104): Connection reset by peer");
        return Stream.of(
                Arguments.of(Status.UNAVAILABLE.withCause(refused).withDescription("io exception"), false, "identify",
                        Kind.UNREACHABLE, "cannot reach worker 10.0.0.7:7070 (identify): Connection refused"),
                Arguments.of(Status.UNAVAILABLE.withCause(reset), false, "prepare",
                        Kind.UNREACHABLE, "cannot reach worker 10.0.0.7:7070 (prepare): Connection reset by peer"
                                + " (if the worker serves TLS, give --tls and --tls-ca)"),
                Arguments.of(Status.UNAVAILABLE.withCause(reset), true, "prepare",
                        Kind.UNREACHABLE, "cannot reach worker 10.0.0.7:7070 (prepare): Connection reset by peer"),
                Arguments.of(Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded after 9.9s"), false, "identify",
                        Kind.UNREACHABLE, "cannot reach worker 10.0.0.7:7070 (identify): deadline exceeded after 9.9s"),
                Arguments.of(Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded after 119s"), false, "prepare",
                        Kind.FAILED, "worker 10.0.0.7:7070 (prepare): did not answer within 119 s"),
                Arguments.of(Status.DEADLINE_EXCEEDED.withDescription("CallOptions deadline exceeded after 59.999541899s. "
                        + "Name resolution delay 0.000000000 seconds. []"), false, "stop",
                        Kind.FAILED, "worker 10.0.0.7:7070 (stop): did not answer within 60 s"),
                Arguments.of(Status.DEADLINE_EXCEEDED, false, "stop",
                        Kind.FAILED, "worker 10.0.0.7:7070 (stop): did not answer within the call's deadline"),
                Arguments.of(Status.UNAVAILABLE.withDescription("Network closed for unknown reason"), false, "identify",
                        Kind.UNREACHABLE, "worker 10.0.0.7:7070 (identify) closed the connection: Network closed for "
                                + "unknown reason (if the worker serves TLS, give --tls and --tls-ca)"),
                Arguments.of(Status.UNAVAILABLE.withDescription("cannot reach the Kafka cluster at b:9092"), false, "prepare",
                        Kind.CLUSTER_UNREACHABLE, "worker 10.0.0.7:7070 (prepare): cannot reach the Kafka cluster at b:9092"),
                Arguments.of(Status.UNAUTHENTICATED.withDescription("worker w1 refused: wrong cluster token"), false, "identify",
                        Kind.REFUSED, "worker w1 refused: wrong cluster token"),
                Arguments.of(Status.FAILED_PRECONDITION.withDescription("busy with run r1"), false, "prepare",
                        Kind.REFUSED, "worker 10.0.0.7:7070 (prepare): busy with run r1"),
                Arguments.of(Status.INVALID_ARGUMENT.withDescription("no such driver: x"), false, "prepare",
                        Kind.REFUSED, "worker 10.0.0.7:7070 (prepare): no such driver: x"),
                Arguments.of(Status.NOT_FOUND.withDescription("no run r2"), false, "stop",
                        Kind.REFUSED, "worker 10.0.0.7:7070 (stop): no run r2"),
                Arguments.of(Status.INTERNAL, false, "stop", Kind.FAILED, "worker 10.0.0.7:7070 (stop): INTERNAL"),
                Arguments.of(Status.UNAVAILABLE.withCause(new javax.net.ssl.SSLHandshakeException("PKIX path building failed")),
                        true, "identify", Kind.REFUSED, "TLS handshake with worker 10.0.0.7:7070 failed (identify): "
                                + "PKIX path building failed (check --tls-ca, --tls-cert/--tls-key and the worker's certificate)"),
                Arguments.of(Status.UNAVAILABLE.withCause(new javax.net.ssl.SSLException("not an SSL/TLS record")),
                        false, "identify", Kind.REFUSED, "TLS handshake with worker 10.0.0.7:7070 failed (identify): "
                                + "not an SSL/TLS record (the worker serves TLS: give --tls and --tls-ca)"));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("statuses")
    void shouldTranslateAStatusIntoOneLineOfTheRightKind(Status status, boolean tls, String what, Kind kind,
                                                        String message) {
        WorkerCallException e = CallFailures.translate(status.asRuntimeException(), W, tls, what);
        assertEquals(kind, e.kind());
        assertEquals(message, e.getMessage());
    }

    @Test
    void shouldTellALostConnectionFromAWorkerEndingItsStream() {
        assertEquals(Optional.of("lost the connection to worker 10.0.0.7:7070: Connection reset by peer"),
                CallFailures.connectionLost(Status.UNAVAILABLE.withCause(
                        new IOException("readAddress(..) failed with error(-104): Connection reset by peer")), W));
        assertEquals(Optional.of("lost the connection to worker 10.0.0.7:7070: keepalive failed"),
                CallFailures.connectionLost(Status.UNAVAILABLE.withDescription("keepalive failed"), W));
        assertEquals(Optional.of("lost the connection to worker 10.0.0.7:7070: DEADLINE_EXCEEDED"),
                CallFailures.connectionLost(Status.DEADLINE_EXCEEDED, W));
        assertEquals(Optional.of("lost the connection to worker 10.0.0.7:7070: broken pipe"),
                CallFailures.connectionLost(Status.UNKNOWN.withCause(new IOException("broken pipe")), W));
        assertEquals(Optional.empty(), CallFailures.connectionLost(Status.ABORTED.withDescription("lease expired"), W));
        assertEquals(Optional.empty(), CallFailures.connectionLost(Status.UNKNOWN.withDescription("boom"), W));
        assertEquals(Optional.empty(), CallFailures.connectionLost(Status.CANCELLED, W));
    }

    @Test
    void shouldKeepNettysWordingInOnePlace() {
        assertEquals("Connection refused",
                CallFailures.Transport.detail("connect(..) failed with error(-111): Connection refused"));
        assertEquals("plain words", CallFailures.Transport.detail("plain words"));
        assertEquals(true, CallFailures.Transport.dropped("Connection reset by peer"));
        assertEquals(true, CallFailures.Transport.dropped("Network closed for unknown reason"));
        assertEquals(false, CallFailures.Transport.dropped("Connection refused"));
    }
}
