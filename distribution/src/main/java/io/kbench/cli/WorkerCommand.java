package io.kbench.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.kbench.coordinator.UserException;
import io.kbench.protocol.ClusterToken;
import io.kbench.protocol.MicrosClock;
import io.kbench.worker.WorkerSecurity;
import io.kbench.worker.WorkerServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kbench worker}: serves runs to coordinators until stopped (Ctrl-C / SIGTERM). */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serves runs to coordinators (one at a time).",
            "",
            "Waits for a coordinator ('kbench run --workers ...') and runs its share of the producers and consumers, streaming histograms back every interval. The open run stream is the run's lease: if the coordinator goes away (killed, host or network down), the load stops within a few seconds and the worker is free for the next run.",
            "",
            "Only a coordinator presenting the cluster token (--token-file, or $" + ClusterToken.ENV + ") may call it; with --tls-client-ca only one holding a certificate signed by that CA. A worker that authenticates nobody serves only on a loopback address, or with --insecure."})
public final class WorkerCommand implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "PORT", defaultValue = "7070", description = "TCP port to listen on (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "0.0.0.0", paramLabel = "ADDR",
            description = "Address to listen on (default: ${DEFAULT-VALUE}, all interfaces).")
    String bind;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Also serve this worker's own metrics for Prometheus at http://ADDR:PORT/metrics (ADDR: --bind): messages and bytes sent, acked, failed and received, latency histograms, its process and host (CPU, JIT and GC time, heap after GC, late wake-ups of its load threads, the host busy and stolen), clock offset and run state, labelled with run id, workload and worker id. Read-only and unauthenticated, as Prometheus endpoints are. See docs/metrics.md.")
    Integer metricsPort;

    @Option(names = "--id", paramLabel = "ID", description = "Worker id in results (default: HOST:PORT): one word of "
            + "printable characters, at most 260.")
    String id;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "File whose first line is the cluster token coordinators must present (at least 16 characters; keep it mode 0600). Without it, $" + ClusterToken.ENV + " is read.")
    Path tokenFile;

    @Option(names = "--tls-cert", paramLabel = "PEM", description = "This worker's certificate chain (PEM): serve over TLS.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "Private key of --tls-cert (PEM, PKCS#8, unencrypted).")
    Path tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "PEM",
            description = "Mutual TLS: accept only coordinators whose client certificate is signed by this CA (PEM).")
    Path tlsClientCa;

    @Option(names = "--insecure",
            description = "Accept work from anyone who can reach the port, on a non-loopback address, without a token or mutual TLS. Only on a network you trust.")
    boolean insecure;

    @Option(names = "--clock-skew-micros", paramLabel = "MICROS", hidden = true, defaultValue = "0",
            description = "Test only: shift this worker's clock.")
    long skewMicros;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 1 || port > 65535) {
            throw new UserException("--port must be 1 to 65535, got " + port);
        }
        if (bind.isBlank()) {
            // an unset variable (--bind "$ADDR"): never every interface by accident
            throw new UserException("--bind must be an address, e.g. 0.0.0.0 (every interface) or 127.0.0.1 (this host only)");
        }
        io.kbench.coordinator.cli.Inputs.listenAddress("--bind", bind);
        String idProblem = id == null ? null : io.kbench.coordinator.run.WorkerIds.problem(id);
        if (idProblem != null) {
            throw new UserException("--id '" + io.kbench.coordinator.workload.ConfigError.excerpt(id) + "': " + idProblem);
        }
        if (metricsPort != null && (metricsPort < 1 || metricsPort > 65535 || metricsPort == port)) {
            throw new UserException("--metrics-port must be 1 to 65535 and differ from --port (" + port + "), got "
                    + metricsPort);
        }
        WorkerSecurity security;
        WorkerServer server;
        try {
            ClusterToken token = ClusterToken.resolve(tokenFile, System.getenv());
            if (tokenFile != null && ClusterToken.readableByOthers(tokenFile)) {
                System.err.println("kbench worker: warning: token file " + tokenFile
                        + " is readable by other users; chmod 600 it");
            }
            security = new WorkerSecurity(token, tlsCert, tlsKey, tlsClientCa, insecure);
            if (token != null && tlsCert == null && !WorkerSecurity.loopback(bind)) {
                System.err.println("kbench worker: note: without TLS the cluster token crosses the network in clear "
                        + "text (--tls-cert/--tls-key, see docs/operations.md)");
            }
            server = WorkerServer.start(bind, port, id, skewMicros == 0 ? MicrosClock.SYSTEM : new MicrosClock(skewMicros),
                    security);
        } catch (java.io.UncheckedIOException | IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
        if (metricsPort != null) {
            try {
                server.serveMetrics(bind, metricsPort);
            } catch (IllegalArgumentException e) {
                server.close();
                throw new UserException(e.getMessage());
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "kbench-worker-shutdown"));
        System.out.println("kbench worker " + server.id() + " listening on " + bind + ":" + server.port() + " ("
                + (security.tls() ? (tlsClientCa != null ? "mutual TLS" : "TLS") : "plaintext")
                + (security.token() != null ? ", cluster token from " + security.token().source() : "")
                + (security.authenticates() ? "" : ", unauthenticated: anyone who reaches the port can start load") + ")"
                + (metricsPort != null ? "; metrics at http://" + hostPort(bind, metricsPort) + "/metrics" : ""));
        server.awaitTermination();
        return 0;
    }

    private static String hostPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
