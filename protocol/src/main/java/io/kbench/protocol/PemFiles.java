package io.kbench.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Checks the TLS files given on the command line (worker and coordinator) one by one, so that a file that
 * is missing, unreadable or of the wrong kind is named with the option that gave it, before a TLS context
 * is built from them. Pure apart from reading the file; thread-safe.
 */
public final class PemFiles {
    /** Largest PEM file read. */
    static final long MAX_BYTES = 1024 * 1024;

    /** What a PEM file must hold. */
    public enum Kind {
        /** One or more certificates (a chain, or CA certificates). */
        CERTIFICATES,
        /** An unencrypted PKCS#8 private key. */
        PRIVATE_KEY
    }

    private PemFiles() { }

    /**
     * @param file the file, or null (not given: nothing to check)
     * @param flag the option that named it, e.g. {@code --tls-ca}
     * @throws IllegalArgumentException one line naming the option and the file, saying what is wrong
     */
    public static void check(Path file, String flag, Kind kind) {
        if (file == null) {
            return;
        }
        String where = flag + " " + file + ": ";
        String text;
        try {
            text = new String(BoundedFiles.read(file, MAX_BYTES), StandardCharsets.ISO_8859_1);
        } catch (BoundedFiles.TooLargeException e) {
            throw new IllegalArgumentException(where + e.getMessage() + (e.getMessage().startsWith("an empty path") ? ""
                    : " (not a PEM file)"));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(where + "file not found");
        } catch (IOException e) {
            throw new IllegalArgumentException(where + "cannot be read (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
        if (kind == Kind.CERTIFICATES && !text.contains("-----BEGIN CERTIFICATE-----")) {
            throw new IllegalArgumentException(where + "holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        if (kind == Kind.PRIVATE_KEY) {
            if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
                throw new IllegalArgumentException(where + "the key is encrypted; kbench reads unencrypted PKCS#8 keys "
                        + "(openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8)");
            }
            if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
                throw new IllegalArgumentException(where + "holds no PKCS#8 private key (-----BEGIN PRIVATE KEY-----; "
                        + "convert with openssl pkcs8 -topk8 -nocrypt)");
            }
        }
    }
}
