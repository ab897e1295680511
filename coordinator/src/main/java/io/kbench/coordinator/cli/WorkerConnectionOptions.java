package io.kbench.coordinator.cli;

import java.nio.file.Path;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.protocol.ClusterToken;
import picocli.CommandLine.Option;

/**
 * How the coordinator commands ({@code run}, {@code producer-perf}, {@code consumer-perf}) authenticate to
 * workers given with {@code --workers}: the cluster token and TLS options, shared as a picocli mixin.
 */
public final class WorkerConnectionOptions {
    @Option(names = "--token-file", paramLabel = "FILE",
            description = "File whose first line is the workers' cluster token. Without it, $" + ClusterToken.ENV + " is read.")
    Path tokenFile;

    @Option(names = "--tls", description = "Connect to the workers over TLS (they run with --tls-cert/--tls-key).")
    boolean tls;

    @Option(names = "--tls-ca", paramLabel = "PEM",
            description = "CA certificate(s) (PEM) that signed the workers' certificates (default: the JDK's trust store).")
    Path tlsCa;

    @Option(names = "--tls-cert", paramLabel = "PEM",
            description = "Mutual TLS: this coordinator's certificate chain (PEM), for workers run with --tls-client-ca.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "Private key of --tls-cert (PEM, PKCS#8, unencrypted).")
    Path tlsKey;

    @Option(names = "--tls-server-name", paramLabel = "NAME",
            description = "Check the workers' certificates against NAME instead of the host in each HOST:PORT.")
    String tlsServerName;

    @Option(names = "--insecure",
            description = "Send the cluster token and the run's settings (the profile, passwords included) to workers that "
                    + "are not on this host without TLS. Without it, such workers are refused unless --tls is given.")
    boolean insecure;

    /**
     * Refuses, before anything is contacted, to send the token and the profile in clear text to a worker on
     * another host: as a worker refuses unauthenticated coordinators, the coordinator refuses an unencrypted
     * path off the host unless {@code --tls} or {@code --insecure} says otherwise.
     *
     * @param workers the resolved worker addresses (HOST:PORT)
     * @throws UserException one line naming the first such worker and the two ways on
     */
    public void checkTransport(java.util.List<String> workers) {
        java.util.List<String> remote = remote(workers);
        if (!tls && !insecure && !remote.isEmpty()) {
            throw new UserException("worker " + remote.get(0) + (remote.size() > 1 ? " (and " + (remote.size() - 1)
                    + " more)" : "") + " is not on this host: without TLS the cluster token and the run's profile "
                    + "(passwords included) would cross the network in clear text; use --tls (docs/operations.md), or "
                    + "--insecure to send them anyway");
        }
    }

    /** The workers that are not on loopback (127.0.0.0/8, localhost, ::1). */
    static java.util.List<String> remote(java.util.List<String> workers) {
        return workers.stream().filter(w -> !w.startsWith("127.") && !w.startsWith("localhost:")
                && !w.startsWith("[::1]:")).toList();
    }

    /**
     * The settings for {@code workers}, checked: none for in-process workers (no worker named), for which a token or
     * TLS flag is refused rather than ignored — it says the user meant to reach workers of their own.
     *
     * @throws UserException one line naming the flag, or as {@link #security()}
     */
    public ClientSecurity securityFor(java.util.List<String> workers) {
        if (!workers.isEmpty()) {
            return security();
        }
        String given = tokenFile != null ? "--token-file" : tls ? "--tls" : tlsCa != null ? "--tls-ca"
                : tlsCert != null ? "--tls-cert" : tlsKey != null ? "--tls-key" : tlsServerName != null ? "--tls-server-name"
                : insecure ? "--insecure" : null;
        if (given != null) {
            throw new UserException(given + " applies to the workers of --workers or --workers-file; none are given "
                    + "(the run's workers would be in-process, reached without a token or TLS)");
        }
        return ClientSecurity.NONE;
    }

    /**
     * The settings, checked.
     *
     * @throws UserException one line when a file is missing or unusable, or the options do not fit together
     */
    public ClientSecurity security() {
        try {
            ClientSecurity s = new ClientSecurity(ClusterToken.resolve(tokenFile, System.getenv()), tls, tlsCa, tlsCert,
                    tlsKey, tlsServerName);
            s.check();
            return s;
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }
}
