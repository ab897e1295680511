package io.kbench.coordinator.merge;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * Values of one type kept on disk instead of in the heap: appended as JSON lines to a file, read back as a
 * {@code List} in blocks of {@link #BLOCK} with two blocks in memory. What a long run produces per interval
 * (the coordinator's merged intervals, a result's intervals read back for a page) then costs a few MB of heap
 * whatever the run's length. A file that cannot be written keeps the values that follow in memory instead, and
 * says so in {@link #problem()}. The file is removed when the JVM exits (lists read from it stay valid until then).
 *
 * <p>Threads: methods are synchronized; a list's reads too.
 *
 * @param <T> the values' type, (de)serializable by Jackson
 */
public final class JsonLinesSpool<T> implements AutoCloseable {
    /** Values read from disk at once. */
    static final int BLOCK = 4096;
    /** Values written between two flushes at most (the lines a failed write could take with it, kept until then). */
    static final int FLUSH_EVERY = 64;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final ObjectWriter writer;
    private final ObjectReader reader;
    private OutputStream out;
    private long bytes;
    private int written;
    /**
     * The lines written since the last flush that succeeded: what a failing write may not have put on disk, kept to
     * be read back into memory then. At most {@link #FLUSH_EVERY}.
     */
    private final List<byte[]> unflushed = new ArrayList<>();
    /** Byte offset of the first line of each block. */
    private long[] blockStarts = new long[16];
    private final List<T> inMemory = new ArrayList<>();
    private String problem;

    public JsonLinesSpool(Path file, Class<T> type) {
        this(file, type, java.util.function.UnaryOperator.identity());
    }

    /** A spool whose file is written through {@code device} (tests: a disk that fills up). */
    JsonLinesSpool(Path file, Class<T> type, java.util.function.UnaryOperator<OutputStream> device) {
        this.file = file;
        this.writer = JSON.writerFor(type);
        this.reader = JSON.readerFor(type);
        file.toFile().deleteOnExit();
        try {
            out = new java.io.BufferedOutputStream(device.apply(Channels.newOutputStream(FileChannel.open(file,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))), 1 << 16);
        } catch (IOException e) {
            fail(e);
        }
    }

    /** The spool's file. */
    public Path file() {
        return file;
    }

    /** Adds {@code value} at the end. */
    public synchronized void append(T value) {
        if (out == null) {
            inMemory.add(value);
            return;
        }
        byte[] json;
        try {
            json = writer.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a value as JSON", e);
        }
        try {
            appendBytes(json);
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Adds one value given as its JSON text (one line: no raw line break), as a parser read it. */
    public synchronized void appendJson(byte[] json) {
        if (out == null) {
            try {
                inMemory.add(reader.readValue(json));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        try {
            appendBytes(json);
        } catch (IOException e) {
            fail(e);
        }
    }

    private void appendBytes(byte[] line) throws IOException {
        if (written % BLOCK == 0) {
            int block = written / BLOCK;
            if (block == blockStarts.length) {
                blockStarts = java.util.Arrays.copyOf(blockStarts, block * 2);
            }
            blockStarts[block] = bytes;
        }
        unflushed.add(line);
        bytes += line.length + 1;
        written++;
        out.write(line);
        out.write('\n');
        if (unflushed.size() >= FLUSH_EVERY) {
            flush();
        }
    }

    private void flush() throws IOException {
        out.flush();
        unflushed.clear();
    }

    /**
     * Goes on in memory: the lines since the last flush that succeeded may not be on disk (a full disk refuses a
     * write when the buffer is flushed, not when a value is added), so they are read back from their bytes and
     * counted as in memory, before any value added later; the file keeps the values before them.
     */
    private void fail(IOException e) {
        problem = "could not keep values on disk in " + file + " (" + e.getMessage() + "); those from then on were "
                + "kept in memory";
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException ignored) {
            // already failing: what is in its buffer is read back below
        }
        out = null;
        List<T> back = new ArrayList<>(unflushed.size());
        for (byte[] line : unflushed) {
            try {
                back.add(reader.readValue(line));
            } catch (IOException parse) {
                throw new UncheckedIOException("cannot read back a value kept for " + file, parse);
            }
        }
        written -= unflushed.size();
        for (byte[] line : unflushed) {
            bytes -= line.length + 1;
        }
        unflushed.clear();
        inMemory.addAll(0, back);
    }

    /** Why the spool fell back to memory, or null. */
    public synchronized String problem() {
        return problem;
    }

    /** Values held. */
    public synchronized int size() {
        return written + inMemory.size();
    }

    /** Every value so far, in order, read from the file as it is iterated (two blocks kept at a time). */
    public synchronized List<T> list() {
        if (out != null) {
            try {
                flush();
            } catch (IOException e) {
                fail(e);
            }
        }
        return new Reader(written, new ArrayList<>(inMemory));
    }

    private synchronized List<T> readBlock(int block, int onDisk) {
        int from = block * BLOCK;
        int n = Math.min(BLOCK, onDisk - from);
        List<T> values = new ArrayList<>(n);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             BufferedReader r = new BufferedReader(new java.io.InputStreamReader(
                     Channels.newInputStream(ch.position(blockStarts[block])), StandardCharsets.UTF_8), 1 << 16)) {
            for (int k = 0; k < n; k++) {
                String line = r.readLine();
                if (line == null) {
                    throw new IOException("it ends after " + (from + k) + " of the " + onDisk + " values written to it");
                }
                values.add(reader.readValue(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read back " + file + ": " + e.getMessage(), e);
        }
        return values;
    }

    /** The values as a list: those on disk read block by block, then those in memory. */
    private final class Reader extends AbstractList<T> {
        private final int onDisk;
        private final List<T> tail;
        private int blockA = -1;
        private List<T> a;
        private int blockB = -1;
        private List<T> b;

        Reader(int onDisk, List<T> tail) {
            this.onDisk = onDisk;
            this.tail = tail;
        }

        @Override
        public synchronized T get(int index) {
            if (index < 0 || index >= size()) {
                throw new IndexOutOfBoundsException(index);
            }
            if (index >= onDisk) {
                return tail.get(index - onDisk);
            }
            int block = index / BLOCK;
            if (block == blockA) {
                return a.get(index % BLOCK);
            }
            if (block != blockB) { // the older of the two cached blocks makes room
                blockB = blockA;
                b = a;
                blockA = block;
                a = readBlock(block, onDisk);
                return a.get(index % BLOCK);
            }
            return b.get(index % BLOCK);
        }

        @Override
        public int size() {
            return onDisk + tail.size();
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            fail(e);
        }
        out = null;
    }
}
