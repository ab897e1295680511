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
        if (file.toString().isBlank()) { // the working directory to Java: nearly always an unset variable
            throw new TooLargeException("an empty path; give a file");
        }
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

    /** A file that is not UTF-8 text; its message says where, without the path. */
    public static final class NotTextException extends IOException {
        private static final long serialVersionUID = 1L;

        NotTextException(String message) {
            super(message);
        }
    }

    /**
     * The file's text, strictly UTF-8 (a byte that is not, as in a Latin-1 or binary file, is refused rather
     * than replaced: a replaced byte would change what kbench sends or configures).
     *
     * @throws NotTextException naming the line and the byte that is not UTF-8
     * @throws TooLargeException as {@link #read}
     */
    public static String readUtf8(Path file, long maxBytes) throws IOException {
        return utf8(read(file, maxBytes));
    }

    /** {@code bytes} as strict UTF-8 text. */
    public static String utf8(byte[] bytes) throws NotTextException {
        java.nio.charset.CharsetDecoder d = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
        try {
            return d.decode(in).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            // name the bad byte's place: scan sequence by sequence (only on this error path)
            int at = firstInvalid(bytes);
            int line = 1;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                }
            }
            throw new NotTextException(String.format("not UTF-8 text: byte 0x%02X at line %d (offset %,d)",
                    bytes[at] & 0xff, line, at));
        }
    }

    /** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
    private static int firstInvalid(byte[] b) {
        java.nio.charset.CharsetDecoder d = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xff;
            int n = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
            if (n < 0 || i + n >= b.length) {
                return i;
            }
            try { // this one sequence, strictly: overlong forms, surrogates and bad continuation bytes are refused
                d.reset().decode(java.nio.ByteBuffer.wrap(b, i, n + 1));
            } catch (java.nio.charset.CharacterCodingException e) {
                return i;
            }
            i += n + 1;
        }
        return Math.max(0, b.length - 1); // not reached for bytes the whole-text decoder refused
    }
}
