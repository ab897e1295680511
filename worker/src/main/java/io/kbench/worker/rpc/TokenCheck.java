package io.kbench.worker.rpc;

import java.net.SocketAddress;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.kbench.protocol.ClusterToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses every call that does not carry the cluster token with {@code UNAUTHENTICATED} and a description
 * the coordinator prints as it is; the refused caller's address goes to this worker's log. The token itself
 * is never logged.
 *
 * <p>Threads: gRPC transport threads, concurrently; stateless apart from the immutable token.
 */
public final class TokenCheck implements ServerInterceptor {
    private static final Logger LOG = LoggerFactory.getLogger(TokenCheck.class);
    private static final ServerCall.Listener<Object> NOTHING = new ServerCall.Listener<>() { };

    private final ClusterToken token;
    private final String workerId;

    public TokenCheck(ClusterToken token, String workerId) {
        this.token = token;
        this.workerId = workerId;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        String presented = headers.get(ClusterToken.HEADER);
        if (token.matches(presented)) {
            return next.startCall(call, headers);
        }
        SocketAddress from = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        String why = presented == null ? "no cluster token presented" : "wrong cluster token";
        LOG.warn("refused {} from {}: {}", call.getMethodDescriptor().getBareMethodName(), from, why);
        call.close(Status.UNAUTHENTICATED.withDescription("worker " + workerId + " refused the call: " + why
                + " (give the coordinator the workers' token with --token-file or $" + ClusterToken.ENV + ")"),
                new Metadata());
        return (ServerCall.Listener<Q>) NOTHING;
    }
}
