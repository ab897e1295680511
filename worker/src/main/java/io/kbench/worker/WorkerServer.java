package io.kbench.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.kbench.protocol.MicrosClock;
import io.kbench.worker.rpc.TokenCheck;
import io.kbench.worker.rpc.WorkerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running worker: the gRPC server on its address, and the {@link RunManager} behind it.
 *
 * <p>Who may call is {@link WorkerSecurity}'s business: the cluster token is checked on every call before
 * anything else runs, and TLS (optionally mutual) wraps the connection.
 *
 * <p>"Started" means bound: {@link #start} returns once the port accepts connections. A coordinator that
 * vanished without closing its connection (host down, network cut) stops renewing the run's lease, which
 * {@link RunManager} then ends; keepalive pings close such connections eventually. {@link #close()} aborts
 * any run and waits a bounded time.
 */
public final class WorkerServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerServer.class);
    /**
     * Keepalive ping interval asked for, and timeout. gRPC holds pings at least 10 s apart whatever is asked,
     * so a silent coordinator is found sooner by the lease ({@link RunManager#LEASE_TIMEOUT_MILLIS}).
     */
    static final long KEEPALIVE_SECONDS = 2;
    /** Largest request accepted: a Prepare carries the payload file's values (at most 32 MiB of them). */
    static final int MAX_MESSAGE_BYTES = 48 * 1024 * 1024;

    private final Server server;
    private final RunManager runs;
    private MetricsServer metrics;
    /** {@code in-process:NAME} for a worker of {@link #startInProcess}, else null. */
    private volatile String address;

    private WorkerServer(Server server, RunManager runs) {
        this.server = server;
        this.runs = runs;
    }

    /**
     * Says that this JVM also hosts {@code what} besides its workers (the coordinator's in-process workers: "coordinator,
     * embedded broker"): the workers' host figures — the whole process's CPU and heap — then say it.
     */
    public static void processSharedWith(String what) {
        HostSampler.sharedWith(what);
    }

    /**
     * Binds and starts a worker.
     *
     * @param bind     address to listen on ("0.0.0.0" for all)
     * @param port     TCP port, 0 for a free one
     * @param workerId id to report, or null for {@code host:port} (then {@code port} must not be 0)
     * @param clock    the worker's clock (tests pass a skewed one)
     */
    public static WorkerServer start(String bind, int port, String workerId, MicrosClock clock) {
        return start(bind, port, workerId, clock, WorkerSecurity.NONE);
    }

    /**
     * Binds and starts a worker that accepts work only as {@code security} allows.
     *
     * @throws IllegalArgumentException when {@code security} does not fit {@code bind} (see
     *                                  {@link WorkerSecurity#check}) or its TLS files cannot be used
     */
    public static WorkerServer start(String bind, int port, String workerId, MicrosClock clock,
                                     WorkerSecurity security) {
        security.check(bind);
        if (workerId == null && port == 0) {
            throw new IllegalArgumentException("a worker on a free port (0) needs an explicit id");
        }
        String id = workerId != null ? workerId : hostName() + ":" + port;
        io.grpc.netty.shaded.io.netty.handler.ssl.SslContext tls = security.sslContext();
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(bind, port));
        if (tls != null) {
            builder.sslContext(tls);
        }
        builder.keepAliveTime(KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                .keepAliveTimeout(KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                .permitKeepAliveTime(1, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true)
                .maxInboundMessageSize(MAX_MESSAGE_BYTES);
        WorkerServer started;
        try {
            started = start(builder, id, clock, security.token());
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("cannot listen on " + bind + ":" + port + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
        LOG.info("worker {} listening on {}:{} ({}{}{})", id, bind, started.port(),
                security.tls() ? (security.clientCa() != null ? "mutual TLS" : "TLS") : "plaintext",
                security.token() != null ? ", cluster token required" : "",
                security.authenticates() ? "" : ", unauthenticated");
        return started;
    }

    /** How an in-process worker's address starts: {@code in-process:NAME}, NAME its in-process server's name. */
    public static final String IN_PROCESS = "in-process:";

    /**
     * Starts a worker in this JVM that only this JVM reaches, over gRPC's in-process transport: no socket, and
     * messages handed over as objects, not serialized (the coordinator's in-process workers). Its address
     * ({@link #address()}) is {@link #IN_PROCESS}{@code workerId}, with a number after it when a server of that
     * name is still registered in this JVM (names must be unique here).
     */
    public static WorkerServer startInProcess(String workerId, MicrosClock clock) {
        String name = IN_PROCESS + workerId;
        for (int n = 2; ; n++) {
            try {
                WorkerServer w = start(io.grpc.inprocess.InProcessServerBuilder.forName(name)
                        .maxInboundMessageSize(MAX_MESSAGE_BYTES), workerId, clock, null);
                w.address = name;
                return w;
            } catch (UncheckedIOException e) {
                if (n > 1_000) {
                    throw e;
                }
                name = IN_PROCESS + workerId + "-" + n; // the name is taken (another server of this JVM holds it)
            }
        }
    }

    /** The in-process address of a worker started by {@link #startInProcess}; null for a network one. */
    public String address() {
        return address;
    }

    /**
     * Starts a worker on a server {@code builder} made by the caller (the network one above, or gRPC's
     * in-process transport in tests): adds the worker's service, behind the token check when {@code token} is
     * given, then builds and starts the server.
     *
     * @param token the cluster token every call must carry, or null for none
     * @throws UncheckedIOException when the server cannot start
     */
    public static WorkerServer start(ServerBuilder<?> builder, String workerId, MicrosClock clock,
                                     io.kbench.protocol.ClusterToken token) {
        RunManager runs = new RunManager(workerId, clock);
        ServerServiceDefinition service = ServerInterceptors.intercept(new WorkerService(runs), WorkerService.interceptor());
        if (token != null) {
            // interceptors run last-added first: the token is checked before anything else sees the call
            service = ServerInterceptors.intercept(service, new TokenCheck(token, workerId));
        }
        Server server = builder.addService(service).build();
        try {
            server.start();
        } catch (IOException e) {
            runs.close();
            throw new UncheckedIOException(e);
        }
        return new WorkerServer(server, runs);
    }

    public int port() {
        return server.getPort();
    }

    /**
     * Serves this worker's own metrics at {@code host:port}/metrics from now on; closed with the worker.
     *
     * @throws IllegalArgumentException one line when the address cannot be bound
     */
    public synchronized MetricsServer serveMetrics(String host, int metricsPort) {
        if (metrics != null) {
            throw new IllegalStateException("metrics are already served on port " + metrics.port());
        }
        WorkerMetrics m = new WorkerMetrics(runs.workerId());
        metrics = MetricsServer.start(host, metricsPort, m);
        runs.observe(m);
        return metrics;
    }

    public String id() {
        return runs.workerId();
    }

    /** Blocks until the server terminates. */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    @Override
    public void close() {
        runs.close();
        synchronized (this) {
            if (metrics != null) {
                metrics.close();
            }
        }
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.shutdownNow();
        }
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "worker";
        }
    }
}
