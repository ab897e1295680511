package io.kbench.coordinator.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.kbench.protocol.BoundedFiles;

/**
 * Reads a payload file as {@code kafka-producer-perf-test --payload-file} does: the file's text split at
 * every delimiter (a newline unless given), empty pieces dropped; each piece is one message value, sent
 * verbatim as its UTF-8 bytes. Producers use the values in file order and start again at the end.
 */
public final class PayloadFile {
    /** Largest payload file accepted (its values travel to every worker in the prepare request). */
    public static final long MAX_BYTES = 32L * 1024 * 1024;
    /** Most values a payload file may hold (each is an array on every worker, about 40 bytes of overhead). */
    public static final int MAX_VALUES = 1_000_000;

    private PayloadFile() { }

    /**
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException when it is too large, holds too many values or none
     */
    public static List<byte[]> read(Path file, String delimiter) throws IOException {
        String text;
        try {
            text = BoundedFiles.readUtf8(file, MAX_BYTES);
        } catch (BoundedFiles.TooLargeException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (BoundedFiles.NotTextException e) {
            // kafka-producer-perf-test reads the file as UTF-8 text too: a replaced byte would send other values
            throw new IllegalArgumentException(e.getMessage() + "; a payload file is UTF-8 text (values split at the "
                    + "delimiter), as kafka-producer-perf-test reads it");
        }
        List<byte[]> values = new ArrayList<>();
        for (String piece : text.split(Pattern.quote(delimiter))) {
            if (!piece.isEmpty()) {
                if (values.size() == MAX_VALUES) {
                    throw new IllegalArgumentException("payload file holds more than " + String.format("%,d", MAX_VALUES)
                            + " values; at most that many allowed (join short values, or use messageSize)");
                }
                values.add(piece.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException("payload file holds no value (empty, or only delimiters)");
        }
        return values;
    }
}
