package io.kbench.driver.kafka;

/**
 * The record header that carries a message's intended send time (coordinator time, µs since epoch) as
 * 8 bytes, big-endian. A header rather than the record's CreateTime, which has only millisecond precision.
 */
final class Stamp {
    /** Header key; short, because it is written into every record. */
    static final String HEADER = "kb.t";

    private Stamp() { }

    static void write(byte[] into, long micros) {
        into[0] = (byte) (micros >>> 56);
        into[1] = (byte) (micros >>> 48);
        into[2] = (byte) (micros >>> 40);
        into[3] = (byte) (micros >>> 32);
        into[4] = (byte) (micros >>> 24);
        into[5] = (byte) (micros >>> 16);
        into[6] = (byte) (micros >>> 8);
        into[7] = (byte) micros;
    }

    static long read(byte[] from) {
        return ((long) from[0] << 56) | ((long) (from[1] & 0xff) << 48) | ((long) (from[2] & 0xff) << 40)
                | ((long) (from[3] & 0xff) << 32) | ((long) (from[4] & 0xff) << 24) | ((from[5] & 0xff) << 16)
                | ((from[6] & 0xff) << 8) | (from[7] & 0xff);
    }
}
