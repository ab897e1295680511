package io.kbench.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a small input file (workload, profile, properties, payload, token, PEM) with a bound on its size
 * that holds whatever the file is: a regular file larger than the bound, a directory, and a device or pipe
 * that never ends ({@code /dev/zero}) are refused instead of read without end. Thread-safe (no state).
 */
public final class BoundedFiles {
    private BoundedFiles() { }

    /** A file that cannot be read within the bound; its message says why, without the path. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(String message) {
            super(message);
        }
    }

    /**
     * The file's bytes.
     *
     * @param maxBytes the most bytes accepted
     * @throws java.nio.file.NoSuchFileException when it does not exist
     * @throws TooLargeException when it is larger than {@code maxBytes} (or endless), or a directory
     * @throws IOException when it cannot be read
     */
    public static byte[] read(Path file, long maxBytes) throws IOException {
        if (Files.isDirectory(file)) {
            throw new TooLargeException("is a directory, not a file");
        }
        if (Files.isRegularFile(file) && Files.size(file) > maxBytes) {
            throw new TooLargeException(String.format("the file is %,d bytes; at most %,d allowed", Files.size(file), maxBytes));
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new TooLargeException(String.format("more than %,d bytes (not a regular file, or it grew); at most "
                        + "%,d allowed", maxBytes, maxBytes));
            }
            return bytes;
        }
    }
}
