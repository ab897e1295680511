package io.kbench.coordinator.rpc;

import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.kbench.protocol.ClusterToken;

/**
 * Builds the network channel to one worker: TLS or plaintext, the cluster token on every call, keepalive.
 *
 * <p>Keepalive pings detect a worker that vanished without closing the connection (gRPC keeps a client's
 * pings at least 10 s apart, whatever is asked; the run's stream watch notices a silent run stream sooner).
 */
public final class WorkerChannels {
    /** Largest answer accepted (a snapshot with its histograms is far smaller). */
    static final int MAX_INBOUND_BYTES = 64 * 1024 * 1024;

    private WorkerChannels() { }

    /** How the address of a worker in this JVM starts (the worker's {@code WorkerServer.IN_PROCESS}). */
    public static final String IN_PROCESS = "in-process:";

    /**
     * @param address  {@code host:port} of the worker, or {@link #IN_PROCESS}{@code NAME} for one in this JVM
     * @param security token and TLS settings ({@link ClientSecurity#check() checked} by the caller)
     */
    public static ManagedChannel open(String address, ClientSecurity security) {
        if (address.startsWith(IN_PROCESS)) {
            // a worker in this JVM (the coordinator's own): gRPC's in-process transport, no socket, no serialization
            return io.grpc.inprocess.InProcessChannelBuilder.forName(address).maxInboundMessageSize(MAX_INBOUND_BYTES)
                    .build();
        }
        NettyChannelBuilder builder = NettyChannelBuilder.forTarget(address);
        if (security.tls()) {
            builder.sslContext(security.sslContext()).useTransportSecurity();
            if (security.serverName() != null) {
                builder.overrideAuthority(security.serverName());
            }
        } else {
            builder.usePlaintext();
        }
        if (security.token() != null) {
            builder.intercept(new TokenHeader(security.token()));
        }
        return builder
                .keepAliveTime(2, TimeUnit.SECONDS)
                .keepAliveTimeout(2, TimeUnit.SECONDS)
                .keepAliveWithoutCalls(true)
                .maxInboundMessageSize(MAX_INBOUND_BYTES)
                .maxInboundMetadataSize(64 * 1024)
                .build();
    }

    /** Adds the cluster token to the headers of every call on the channel. */
    record TokenHeader(ClusterToken token) implements ClientInterceptor {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void start(Listener<R> listener, Metadata headers) {
                    token.addTo(headers);
                    super.start(listener, headers);
                }
            };
        }
    }
}
