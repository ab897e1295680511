package io.kbench.driver.kafka;

/**
 * Where a message carries its intended send time (coordinator time, µs since epoch, 8 bytes big-endian) and,
 * with verification, its producer id and its sequence number in its partition (8 bytes each).
 *
 * <p>In the value, when the value has room: its first bytes are a 4-byte magic ({@link #MAGIC_STAMP} or
 * {@link #MAGIC_VERIFIED}) followed by the stamp [, producer id, sequence] — {@link #IN_VALUE_STAMP_ONLY} or
 * {@link #IN_VALUE_VERIFIED} bytes of the value the workload asked for, so the record is exactly as large
 * as a plain one and has no header for the broker to parse (the broker's validation of an uncompressed v2
 * batch reads every record, its headers into objects; docs/performance.md has what the header cost). The
 * magic lets a consumer tell a stamped value from any other (a consumer-only run over a topic written by
 * something else): a value that does not start with it carries no stamp.
 *
 * <p>In a record header {@link #HEADER} otherwise (a value shorter than the stamp): 8 or 24 bytes — and a
 * consumer still reads headers, so records written by earlier kbench versions keep their stamps. Not the
 * record's CreateTime, which has only millisecond precision.
 */
final class Stamp {
    /** Header key; short, because it is written into every record. */
    static final String HEADER = "kb.t";
    /** Length of the header value without verification: the stamp. */
    static final int STAMP_ONLY = 8;
    /** Length of the header value with verification: stamp, producer id, sequence. */
    static final int VERIFIED = 24;
    /** The first 4 bytes of a value that carries a stamp (no verification): 0xCB 0x7A 0x5E 0x01. */
    static final int MAGIC_STAMP = 0xCB7A5E01;
    /** The first 4 bytes of a value that carries a stamp, a producer id and a sequence: 0xCB 0x7A 0x5E 0x02. */
    static final int MAGIC_VERIFIED = 0xCB7A5E02;
    static final int MAGIC_BYTES = 4;
    /** The shortest value that carries the stamp in itself: magic and stamp. */
    static final int IN_VALUE_STAMP_ONLY = MAGIC_BYTES + STAMP_ONLY;
    /** The shortest value that carries stamp, producer id and sequence in itself. */
    static final int IN_VALUE_VERIFIED = MAGIC_BYTES + VERIFIED;

    private Stamp() { }

    /** Writes {@code value} big-endian into {@code into[at, at + 8)}. */
    static void write(byte[] into, int at, long value) {
        into[at] = (byte) (value >>> 56);
        into[at + 1] = (byte) (value >>> 48);
        into[at + 2] = (byte) (value >>> 40);
        into[at + 3] = (byte) (value >>> 32);
        into[at + 4] = (byte) (value >>> 24);
        into[at + 5] = (byte) (value >>> 16);
        into[at + 6] = (byte) (value >>> 8);
        into[at + 7] = (byte) value;
    }

    /** Reads a big-endian long from {@code from[at, at + 8)}. */
    static long read(byte[] from, int at) {
        return ((long) from[at] << 56) | ((long) (from[at + 1] & 0xff) << 48) | ((long) (from[at + 2] & 0xff) << 40)
                | ((long) (from[at + 3] & 0xff) << 32) | ((long) (from[at + 4] & 0xff) << 24)
                | ((from[at + 5] & 0xff) << 16) | ((from[at + 6] & 0xff) << 8) | (from[at + 7] & 0xff);
    }

    /** Writes {@code value} big-endian into {@code into[at, at + 4)}. */
    static void writeInt(byte[] into, int at, int value) {
        into[at] = (byte) (value >>> 24);
        into[at + 1] = (byte) (value >>> 16);
        into[at + 2] = (byte) (value >>> 8);
        into[at + 3] = (byte) value;
    }

    /** Reads a big-endian int from {@code from[at, at + 4)}. */
    static int readInt(byte[] from, int at) {
        return (from[at] << 24) | ((from[at + 1] & 0xff) << 16) | ((from[at + 2] & 0xff) << 8) | (from[at + 3] & 0xff);
    }
}
