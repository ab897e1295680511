package io.kbench.worker;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.kbench.protocol.ClusterToken;
import io.kbench.protocol.PemFiles;

/**
 * Who may give a worker work: the cluster token callers must present, TLS (the worker's certificate and
 * key, PEM) and mutual TLS (the CA that signs coordinators' certificates). Validated once, before the
 * server binds ({@link #check}).
 *
 * <p>A worker that authenticates nobody (no token, no client CA) is allowed only on a loopback address, or
 * with {@code insecure} set by an operator who knows the network is trusted.
 *
 * @param token    the token callers must present, or null
 * @param certFile the worker's certificate chain (PEM) for TLS, or null for plaintext
 * @param keyFile  the private key of {@code certFile} (PEM, PKCS#8), or null
 * @param clientCa CA certificates (PEM) that coordinators' client certificates must chain to (mutual TLS),
 *                 or null
 * @param insecure serve without authentication on a non-loopback address
 */
public record WorkerSecurity(ClusterToken token, Path certFile, Path keyFile, Path clientCa, boolean insecure) {
    /** No token, no TLS: for workers on loopback (the in-process workers of {@code kbench run}). */
    public static final WorkerSecurity NONE = new WorkerSecurity(null, null, null, null, false);

    /** True when TLS is configured. */
    public boolean tls() {
        return certFile != null;
    }

    /** True when callers are authenticated (a token, or client certificates under mutual TLS). */
    public boolean authenticates() {
        return token != null || clientCa != null;
    }

    /**
     * Checks the settings against the address the worker will listen on.
     *
     * @throws IllegalArgumentException one line saying what is wrong and what is allowed
     */
    public void check(String bind) {
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("TLS needs both --tls-cert and --tls-key");
        }
        if (clientCa != null && certFile == null) {
            throw new IllegalArgumentException("--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key");
        }
        PemFiles.check(certFile, "--tls-cert", PemFiles.Kind.CERTIFICATES);
        PemFiles.check(keyFile, "--tls-key", PemFiles.Kind.PRIVATE_KEY);
        PemFiles.check(clientCa, "--tls-client-ca", PemFiles.Kind.CERTIFICATES);
        if (!authenticates() && !insecure && !loopback(bind)) {
            throw new IllegalArgumentException("refusing to accept unauthenticated work on " + bind
                    + ": give a cluster token (--token-file, or $" + ClusterToken.ENV
                    + "), mutual TLS (--tls-cert, --tls-key, --tls-client-ca), bind to loopback (--bind 127.0.0.1), "
                    + "or pass --insecure on a network you trust");
        }
    }

    /** The server's TLS context, or null for plaintext. */
    SslContext sslContext() {
        if (!tls()) {
            return null;
        }
        try {
            SslContextBuilder b = GrpcSslContexts.forServer(certFile.toFile(), keyFile.toFile());
            if (clientCa != null) {
                b.trustManager(clientCa.toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            return b.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS: cannot use " + files() + ": " + rootMessage(e));
        }
    }

    private String files() {
        StringBuilder s = new StringBuilder(certFile + ", " + keyFile);
        if (clientCa != null) {
            s.append(", ").append(clientCa);
        }
        return s.toString();
    }

    /** True when {@code bind} is a loopback address (only this host can connect). */
    public static boolean loopback(String bind) {
        if (bind == null || bind.isBlank()) {
            return false; // Java resolves "" to the loopback address, but a server bound to "" listens on every interface
        }
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    @Override
    public String toString() {
        return "WorkerSecurity[token=" + (token == null ? "none" : token.source()) + ", tls=" + tls()
                + ", mutualTls=" + (clientCa != null) + ", insecure=" + insecure + "]";
    }
}
