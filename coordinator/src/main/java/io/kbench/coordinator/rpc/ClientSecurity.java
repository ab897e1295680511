package io.kbench.coordinator.rpc;

import java.nio.file.Path;
import javax.net.ssl.SSLException;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.kbench.protocol.ClusterToken;
import io.kbench.protocol.PemFiles;

/**
 * How the coordinator proves itself to workers and checks them: the cluster token sent with every call,
 * and TLS — the CA that signed the workers' certificates (or the JDK's trust store), and for mutual TLS the
 * coordinator's own certificate and key (PEM). Validated once ({@link #check}) before any worker is called.
 *
 * @param token      the cluster token, or null
 * @param tls        connect with TLS
 * @param caFile     CA certificates (PEM) the workers' certificates must chain to; null for the JDK's trust
 *                   store (with {@code tls})
 * @param certFile   the coordinator's certificate chain (PEM) for mutual TLS, or null
 * @param keyFile    its private key (PEM, PKCS#8), or null
 * @param serverName name to check the workers' certificates against instead of the host in their address,
 *                   or null
 */
public record ClientSecurity(ClusterToken token, boolean tls, Path caFile, Path certFile, Path keyFile,
                             String serverName) {
    /** Plaintext, no token: for the in-process workers (in-process transport) and workers on loopback. */
    public static final ClientSecurity NONE = new ClientSecurity(null, false, null, null, null, null);

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException one line saying what is wrong
     */
    public void check() {
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("mutual TLS needs both --tls-cert and --tls-key");
        }
        if (!tls && (caFile != null || certFile != null || serverName != null)) {
            throw new IllegalArgumentException("--tls-ca, --tls-cert, --tls-key and --tls-server-name need --tls");
        }
        PemFiles.check(caFile, "--tls-ca", PemFiles.Kind.CERTIFICATES);
        PemFiles.check(certFile, "--tls-cert", PemFiles.Kind.CERTIFICATES);
        PemFiles.check(keyFile, "--tls-key", PemFiles.Kind.PRIVATE_KEY);
        sslContext();
    }

    /** The channel's TLS context, or null for plaintext. */
    SslContext sslContext() {
        if (!tls) {
            return null;
        }
        try {
            SslContextBuilder b = GrpcSslContexts.forClient();
            if (caFile != null) {
                b.trustManager(caFile.toFile());
            }
            if (certFile != null) {
                b.keyManager(certFile.toFile(), keyFile.toFile());
            }
            return b.build();
        } catch (SSLException | IllegalArgumentException e) {
            Throwable t = e;
            while (t.getCause() != null && t.getCause() != t) {
                t = t.getCause();
            }
            throw new IllegalArgumentException("TLS: cannot use " + (caFile != null ? "--tls-ca " + caFile + " " : "")
                    + (certFile != null ? "--tls-cert " + certFile + " with --tls-key " + keyFile + " " : "")
                    + (caFile == null && certFile == null ? "the JDK's trust store " : "") + "(" + t.getMessage() + ")");
        }
    }

    @Override
    public String toString() {
        return "ClientSecurity[token=" + (token == null ? "none" : token.source()) + ", tls=" + tls
                + ", mutualTls=" + (certFile != null) + "]";
    }
}
