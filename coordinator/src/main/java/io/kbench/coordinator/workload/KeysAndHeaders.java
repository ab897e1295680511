package io.kbench.coordinator.workload;

/**
 * What every message carries besides its value and kbench's stamp, as Kafka's EndToEndLatency sizes them
 * ({@code --record-key-size}, {@code --num-headers}, {@code --record-header-key-size}, {@code --record-header-size}):
 * a key of {@code keySize} bytes (0: none, or as {@code keyDistribution} says), and {@code headersPerMessage} headers,
 * each a key of {@code headerKeySize} and a value of {@code headerValueSize} bytes (-1: a null value). Keys, header
 * keys and header values are one random capital letter repeated, as the tool's.
 */
public record KeysAndHeaders(int keySize, int headersPerMessage, int headerKeySize, int headerValueSize) {
    public static final KeysAndHeaders NONE = new KeysAndHeaders(0, 0, 0, 0);

    /** Largest {@code keySize}, and most bytes of headers on one message (both a Kafka request's default limit). */
    public static final int MAX_KEY_SIZE = 1024 * 1024;
    public static final int MAX_HEADER_BYTES = 1024 * 1024;

    /** Reads the keys of {@code y} (problems go to its errors, with their place); {@code keyed}: a keyDistribution is set. */
    static KeysAndHeaders parse(YamlMap y, boolean keyed) {
        int keySize = (int) y.integer("keySize", 0, 0, MAX_KEY_SIZE, "0 to " + MAX_KEY_SIZE + " bytes");
        int headers = (int) y.integer("headersPerMessage", 0, 0, 10_000, "0 to 10000");
        int headerKeySize = (int) y.integer("headerKeySize", 0, 0, 32_767, "0 to 32767 bytes");
        int headerValueSize = (int) y.integer("headerValueSize", 0, -1, MAX_HEADER_BYTES,
                "-1 (a null value) to " + MAX_HEADER_BYTES + " bytes");
        if (keySize > 0 && keyed) {
            y.errorAt("keySize", "keySize gives every message a key of its own size; keyDistribution chooses keys "
                    + "key-0, key-1 ...: give one of them");
        }
        if (headers == 0 && (headerKeySize > 0 || headerValueSize != 0)) {
            y.errorAt(headerKeySize > 0 ? "headerKeySize" : "headerValueSize", "headerKeySize and headerValueSize size "
                    + "the headers of headersPerMessage; set that too");
        }
        long bytes = (long) headers * (headerKeySize + Math.max(0, headerValueSize));
        if (bytes > MAX_HEADER_BYTES) {
            y.errorAt("headersPerMessage", String.format("headersPerMessage x (headerKeySize + headerValueSize) is %,d bytes "
                    + "of headers per message; at most %,d", bytes, MAX_HEADER_BYTES));
        }
        return new KeysAndHeaders(keySize, headers, headerKeySize, headerValueSize);
    }
}
