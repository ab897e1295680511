package io.kbench.driver.kafka;

/**
 * The record header that carries a message's intended send time (coordinator time, µs since epoch) as
 * 8 bytes, big-endian; with verification on, followed by the producer id and the message's sequence number
 * in its partition (8 bytes each): 24 bytes in all. A header rather than the record's CreateTime, which has
 * only millisecond precision; one header, because every header costs its key in every record.
 */
final class Stamp {
    /** Header key; short, because it is written into every record. */
    static final String HEADER = "kb.t";
    /** Length of the value without verification: the stamp. */
    static final int STAMP_ONLY = 8;
    /** Length of the value with verification: stamp, producer id, sequence. */
    static final int VERIFIED = 24;

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
}
