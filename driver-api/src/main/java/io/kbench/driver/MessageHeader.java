package io.kbench.driver;

/**
 * A header every message of a producer carries ({@link ProducerOptions#headers()}), besides the driver's own stamp.
 *
 * @param key   the header's key
 * @param value its value; null for a null value
 */
public record MessageHeader(String key, byte[] value) {
    public MessageHeader {
        java.util.Objects.requireNonNull(key, "key");
    }

    /** Bytes the header adds to a record, roughly: its key and value. */
    public int size() {
        return key.length() + (value == null ? 0 : value.length);
    }
}
