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
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * A run's merged intervals on disk instead of in the heap: each one is appended, in index order, as a JSON
 * line to a spool file in the run's directory as it is merged, and {@link #list()} reads them back as a
 * {@code List} in blocks of {@link #BLOCK}, keeping two blocks in memory. A week-long run (604,800 intervals)
 * then costs the coordinator a few MB of heap whatever its length; what the result needs of the intervals —
 * the summary, the catch-up, the trial verdict, result.json, intervals.csv, the page — is read through the
 * list, in order.
 *
 * <p>Intervals can reach {@link #append} slightly out of order (merged on several gRPC threads): the few
 * that come early wait in memory for the one before them. A spool that cannot be written (a full disk) keeps
 * the intervals that follow in memory instead, and says so in {@link #problem()}.
 *
 * <p>Threads: {@link #append} from the merge path (any thread), {@link #list()} after the run; methods are
 * synchronized.
 */
public final class IntervalSpool implements AutoCloseable {
    /** Intervals read from disk at once. */
    static final int BLOCK = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectWriter WRITER = JSON.writerFor(MergedInterval.class);

    private final Path file;
    private OutputStream out;
    private long bytes;
    private int written;
    /** Byte offset of the first line of each block. */
    private long[] blockStarts = new long[16];
    private final TreeMap<Long, MergedInterval> early = new TreeMap<>();
    /** The index the next stored interval must have: a run's intervals are numbered from 0, as the merger emits them. */
    private long next;
    /** Intervals kept in memory after a write failed. */
    private final List<MergedInterval> inMemory = new ArrayList<>();
    private String problem;

    /**
     * A spool at {@code file} (created, or truncated). The file is removed when the JVM exits: the lists read
     * from it stay valid for the whole command (a max-rate search writes its chosen trial's result at its end).
     */
    public IntervalSpool(Path file) {
        this.file = file;
        file.toFile().deleteOnExit();
        try {
            out = new java.io.BufferedOutputStream(Channels.newOutputStream(FileChannel.open(file,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)), 1 << 16);
        } catch (IOException e) {
            fail(e);
        }
    }

    /** The spool's file. */
    public Path file() {
        return file;
    }

    /** Adds one merged interval; intervals are kept in index order whatever order they come in. */
    public synchronized void append(MergedInterval i) {
        if (i.index() != next) {
            early.put(i.index(), i);
            return;
        }
        store(i);
        next++;
        while (!early.isEmpty() && early.firstKey() == next) {
            store(early.pollFirstEntry().getValue());
            next++;
        }
    }

    private void store(MergedInterval i) {
        if (out == null) {
            inMemory.add(i);
            return;
        }
        try {
            byte[] line = WRITER.writeValueAsBytes(i);
            if (written % BLOCK == 0) {
                int block = written / BLOCK;
                if (block == blockStarts.length) {
                    blockStarts = java.util.Arrays.copyOf(blockStarts, block * 2);
                }
                blockStarts[block] = bytes;
            }
            out.write(line);
            out.write('\n');
            bytes += line.length + 1;
            written++;
        } catch (IOException e) {
            fail(e);
            inMemory.add(i);
        }
    }

    private void fail(IOException e) {
        problem = "the intervals could not be spooled to " + file + " (" + e.getMessage() + "); those from then on "
                + "were kept in memory";
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException ignored) {
            // already failing
        }
        out = null;
    }

    /** Why the spool fell back to memory, or null. */
    public synchronized String problem() {
        return problem;
    }

    /** Intervals held, the early ones waiting for a gap included. */
    public synchronized int size() {
        return written + inMemory.size() + early.size();
    }

    /**
     * Every interval so far, in index order, read from the spool as it is iterated (two blocks of {@link #BLOCK}
     * kept at a time). An interval still missing before an early one (a run that ended with a gap) is skipped:
     * the early ones follow in order.
     */
    public synchronized List<MergedInterval> list() {
        flush();
        int onDisk = written;
        List<MergedInterval> tail = new ArrayList<>(inMemory);
        tail.addAll(early.values());
        return new Reader(onDisk, tail);
    }

    private void flush() {
        if (out != null) {
            try {
                out.flush();
            } catch (IOException e) {
                fail(e);
            }
        }
    }

    private synchronized List<MergedInterval> readBlock(int block, int onDisk) {
        int from = block * BLOCK;
        int n = Math.min(BLOCK, onDisk - from);
        List<MergedInterval> out = new ArrayList<>(n);
        try (BufferedReader r = new BufferedReader(new java.io.InputStreamReader(
                Channels.newInputStream(FileChannel.open(file, StandardOpenOption.READ).position(blockStarts[block])),
                StandardCharsets.UTF_8), 1 << 16)) {
            for (int k = 0; k < n; k++) {
                out.add(JSON.readValue(r.readLine(), MergedInterval.class));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the run's intervals back from " + file + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** The intervals as a list: those on disk read block by block, then those in memory. */
    private final class Reader extends AbstractList<MergedInterval> {
        private final int onDisk;
        private final List<MergedInterval> tail;
        private int blockA = -1;
        private List<MergedInterval> a;
        private int blockB = -1;
        private List<MergedInterval> b;

        Reader(int onDisk, List<MergedInterval> tail) {
            this.onDisk = onDisk;
            this.tail = tail;
        }

        @Override
        public synchronized MergedInterval get(int index) {
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
