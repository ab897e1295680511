package io.kbench.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;

import io.grpc.Metadata;

/**
 * The shared secret a coordinator presents to workers: every call carries it in the {@code authorization}
 * header as {@code Bearer <token>}, and a worker started with a token refuses calls without it
 * ({@code UNAVAILABLE} never; {@code UNAUTHENTICATED} with a description).
 *
 * <p>Both sides read it the same way: from a file ({@code --token-file}, first line, surrounding white space
 * removed) or, without one, from the environment variable {@value #ENV}. A token is at least
 * {@value #MIN_LENGTH} characters of printable ASCII ({@code openssl rand -hex 32} makes a good one).
 * The token never appears in results, logs or messages; {@link #toString()} is redacted.
 *
 * <p>Immutable and thread-safe.
 */
public final class ClusterToken {
    /** Environment variable read when no token file is given. */
    public static final String ENV = "KBENCH_TOKEN";
    /** Shortest token accepted. */
    public static final int MIN_LENGTH = 16;
    /** The gRPC header that carries it. */
    public static final Metadata.Key<String> HEADER = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final String SCHEME = "Bearer ";

    private final byte[] value;
    private final String source;

    private ClusterToken(String value, String source) {
        this.value = value.getBytes(StandardCharsets.US_ASCII);
        this.source = source;
    }

    /**
     * The token from {@code file}, or else from {@value #ENV} in {@code env}; null when neither is given.
     *
     * @throws IllegalArgumentException with a one-line message when the file cannot be read or the token is
     *                                  unusable (too short, not printable ASCII)
     */
    public static ClusterToken resolve(Path file, Map<String, String> env) {
        if (file != null) {
            String text;
            try {
                text = new String(BoundedFiles.read(file, 64 * 1024), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("token file " + file + " not found");
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read token file " + (file.toString().isBlank() ? "''" : file)
                        + ": " + e.getMessage());
            }
            String first = text.lines().findFirst().orElse("").strip();
            return of(first, "token file " + file);
        }
        String fromEnv = env.get(ENV);
        return fromEnv == null || fromEnv.isBlank() ? null : of(fromEnv.strip(), "$" + ENV);
    }

    /** A token given directly; {@code source} names where it came from in messages. */
    public static ClusterToken of(String token, String source) {
        if (token.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("the token in " + source + " has " + token.length()
                    + " characters; use at least " + MIN_LENGTH + " (e.g. 'openssl rand -hex 32')");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("the token in " + source
                        + " may hold only printable ASCII without spaces (e.g. 'openssl rand -hex 32')");
            }
        }
        return new ClusterToken(token, source);
    }

    /**
     * True when {@code file} can be read by users other than its owner (a token file should be 0600): readable by
     * all, or by a group other than this process's own. Group-readable by the process's own group is accepted: that
     * is how Kubernetes mounts a Secret for a pod with an {@code fsGroup} (mode 0440, the pod's group), and, with
     * Debian's user private groups, a group of one user.
     */
    public static boolean readableByOthers(Path file) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            if (p.contains(PosixFilePermission.OTHERS_READ)) {
                return true;
            }
            return p.contains(PosixFilePermission.GROUP_READ) && !ownGroup(file);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** True when {@code file}'s group is this process's (effective) group. */
    private static boolean ownGroup(Path file) throws IOException {
        try {
            Object gid = Files.getAttribute(file, "unix:gid");
            long processGid = new com.sun.security.auth.module.UnixSystem().getGid();
            return gid instanceof Integer g && g == processGid;
        } catch (UnsupportedOperationException | IllegalArgumentException | LinkageError e) {
            return false; // no unix view or no UnixSystem here: say so as before
        }
    }

    /** Where the token came from ("token file /etc/kbench/token", "$KBENCH_TOKEN"). */
    public String source() {
        return source;
    }

    /** Adds this token to outgoing call headers. */
    public void addTo(Metadata headers) {
        headers.put(HEADER, SCHEME + new String(value, StandardCharsets.US_ASCII));
    }

    /** Checks an incoming {@code authorization} header value in constant time; null or malformed is false. */
    public boolean matches(String header) {
        if (header == null || !header.startsWith(SCHEME)) {
            return false;
        }
        return MessageDigest.isEqual(value, header.substring(SCHEME.length()).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "ClusterToken(" + source + ", redacted)";
    }
}
