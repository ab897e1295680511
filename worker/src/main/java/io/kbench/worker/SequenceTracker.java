package io.kbench.worker;

/**
 * Verifies what one consumer receives against the producers' sequence numbers: every message carries its
 * producer's id and its sequence number among that producer's messages to its partition (0, 1, 2 ...), so
 * within one (producer, partition) stream the numbers must arrive once each and in order. HOT PATH:
 * {@link #record} is a hash probe (skipped when the stream is the previous message's) and a few bit
 * operations; it allocates only when a new stream appears.
 *
 * <p>Per stream it keeps the next expected number and a window of the last {@value #WINDOW} numbers below
 * it, one bit each (was it received?). A number below the expected one is a duplicate if its bit is set, and
 * out of order if not (it arrived after a later one; it is then marked). A number that leaves the window
 * unreceived is counted lost, and so is every unreceived number still in the window at {@link #finish()}:
 * a gap is counted lost only once it can no longer be filled. Numbers more than the window behind are
 * counted as duplicates (the tracker cannot tell). Streams of this run's producers (their id carries the run
 * nonce) must start at 0, so a missing head is lost too; other producers' streams start where they are
 * first seen. Messages missing after the last one received (a lost tail) cannot be seen here; the
 * coordinator compares counts for those.
 *
 * <p>Memory is bounded: at most {@code maxStreams} streams of {@value #STREAM_BYTES} bytes or so each;
 * messages of further streams are counted as untracked.
 *
 * <p>Threads: {@link #record} and {@link #finish} on the consumer's thread (the only writer); the counters
 * from any thread.
 */
public final class SequenceTracker {
    /** Numbers remembered below the next expected one, per stream. */
    public static final int WINDOW = 256;
    /** Approximate heap bytes per stream: object header and fields, the bit window, the table slots. */
    public static final int STREAM_BYTES = 16 + 8 + 8 + 4 + (16 + WINDOW / 8) + 2 * (8 + 4 + 4);
    private static final int WORDS = WINDOW / 64;

    final SingleWriterCounter lost = new SingleWriterCounter();
    final SingleWriterCounter duplicated = new SingleWriterCounter();
    final SingleWriterCounter outOfOrder = new SingleWriterCounter();
    final SingleWriterCounter verified = new SingleWriterCounter();
    final SingleWriterCounter untracked = new SingleWriterCounter();

    private final long runNonce;
    private final int maxStreams;
    private long[] ids = new long[64];
    private int[] partitions = new int[64];
    private Stream[] streams = new Stream[64];
    private int size;
    private Stream lastStream;
    private long lastId = -1;
    private int lastPartition = -1;
    private boolean finished;

    /** One producer's messages to one partition. */
    private static final class Stream {
        final long start;
        long next;
        final long[] seen = new long[WORDS];

        Stream(long start) {
            this.start = start;
            this.next = start;
        }
    }

    /**
     * @param runNonce   the nonce in this run's producer ids ({@link #producerId}); streams with it start at 0
     * @param maxStreams the most streams tracked at once
     */
    public SequenceTracker(int runNonce, int maxStreams) {
        this.runNonce = runNonce & 0x7fffffffL;
        this.maxStreams = maxStreams;
    }

    /** The id a producer of a run carries: the run's nonce and the producer's index; never negative. */
    public static long producerId(int runNonce, int producerIndex) {
        return (runNonce & 0x7fffffffL) << 32 | (producerIndex & 0xffffffffL);
    }

    // HOT PATH
    public void record(long producerId, int partition, long sequence) {
        Stream s;
        if (producerId == lastId && partition == lastPartition) {
            s = lastStream;
        } else {
            s = find(producerId, partition, sequence);
            if (s == null) {
                untracked.add(1);
                return;
            }
            lastStream = s;
            lastId = producerId;
            lastPartition = partition;
        }
        long next = s.next;
        if (sequence >= next) {
            // next .. sequence take the window positions of the numbers W below them, which leave it
            long last = Math.min(sequence, next + WINDOW - 1);
            for (long x = next; x <= last; x++) {
                int bit = (int) (x & (WINDOW - 1));
                long mask = 1L << bit;
                if ((s.seen[bit >>> 6] & mask) == 0 && x - WINDOW >= s.start) {
                    lost.add(1);
                }
                s.seen[bit >>> 6] &= ~mask;
            }
            // missing numbers that are already below the new window can never be filled
            long fallenOut = sequence + 1 - WINDOW - next;
            if (fallenOut > 0) {
                lost.add(fallenOut);
            }
            int bit = (int) (sequence & (WINDOW - 1));
            s.seen[bit >>> 6] |= 1L << bit;
            s.next = sequence + 1;
            verified.add(1);
        } else if (sequence < s.start) {
            // before the first message seen of another run's stream: it arrived after later ones
            outOfOrder.add(1);
        } else if (sequence < next - WINDOW) {
            // beyond the window: the tracker cannot tell, and counts it as a repeat
            duplicated.add(1);
        } else {
            int bit = (int) (sequence & (WINDOW - 1));
            long mask = 1L << bit;
            int word = bit >>> 6;
            if ((s.seen[word] & mask) != 0) {
                duplicated.add(1);
            } else {
                s.seen[word] |= mask;
                outOfOrder.add(1);
                verified.add(1);
            }
        }
    }

    /**
     * End of the run: every number still in a window and not received is lost (nothing more will arrive).
     * Call once, on the writer thread or after it has ended.
     */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        long missing = 0;
        for (Stream s : streams) {
            if (s == null) {
                continue;
            }
            for (long q = Math.max(s.start, s.next - WINDOW); q < s.next; q++) {
                int bit = (int) (q & (WINDOW - 1));
                if ((s.seen[bit >>> 6] & (1L << bit)) == 0) {
                    missing++;
                }
            }
        }
        lost.add(missing);
    }

    /** Streams tracked now. */
    public int streams() {
        return size;
    }

    /** Approximate heap bytes held, bounded by about {@code maxStreams * STREAM_BYTES}. */
    public long memoryBytes() {
        return (long) size * (STREAM_BYTES - 2 * (8 + 4 + 4)) + (long) ids.length * (8 + 4 + 4);
    }

    private Stream find(long id, int partition, long sequence) {
        int mask = ids.length - 1;
        int i = hash(id, partition) & mask;
        while (streams[i] != null) {
            if (ids[i] == id && partitions[i] == partition) {
                return streams[i];
            }
            i = (i + 1) & mask;
        }
        if (size >= maxStreams) {
            return null;
        }
        Stream s = new Stream((id >>> 32) == runNonce ? 0 : sequence);
        ids[i] = id;
        partitions[i] = partition;
        streams[i] = s;
        if (++size * 2 > ids.length) {
            grow();
        }
        return s;
    }

    private void grow() {
        long[] oldIds = ids;
        int[] oldPartitions = partitions;
        Stream[] oldStreams = streams;
        int capacity = oldIds.length * 2;
        ids = new long[capacity];
        partitions = new int[capacity];
        streams = new Stream[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldStreams.length; j++) {
            if (oldStreams[j] != null) {
                int i = hash(oldIds[j], oldPartitions[j]) & mask;
                while (streams[i] != null) {
                    i = (i + 1) & mask;
                }
                ids[i] = oldIds[j];
                partitions[i] = oldPartitions[j];
                streams[i] = oldStreams[j];
            }
        }
    }

    private static int hash(long id, int partition) {
        long h = id * 0x9E3779B97F4A7C15L + partition * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 29));
    }
}
