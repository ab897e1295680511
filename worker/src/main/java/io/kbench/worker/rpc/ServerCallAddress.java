package io.kbench.worker.rpc;

import java.net.SocketAddress;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Makes the caller's address of the current call available to handlers (for "busy with the coordinator at
 * ..." messages). Install with {@link #interceptor()}.
 */
final class ServerCallAddress {
    private static final Context.Key<SocketAddress> REMOTE = Context.key("kbench-remote");

    private ServerCallAddress() { }

    static SocketAddress current() {
        return REMOTE.get();
    }

    static ServerInterceptor interceptor() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                               ServerCallHandler<Q, R> next) {
                SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
                return Contexts.interceptCall(Context.current().withValue(REMOTE, remote), call, headers, next);
            }
        };
    }
}
