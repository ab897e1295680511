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
