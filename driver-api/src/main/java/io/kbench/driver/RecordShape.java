package io.kbench.driver;

/**
 * One record of a workload in bytes, as a driver sizes it against its clients' and its cluster's limits — the
 * smallest record of a workload, to say that every record would be refused ({@link Driver#recordProblem}).
 *
 * @param keyBytes         the key's length; -1 for no key
 * @param valueBytes       the value's length
 * @param headers          the workload's own headers per record ({@code headersPerMessage})
 * @param headerKeyBytes   each of those headers' key length
 * @param headerValueBytes each of those headers' value length; -1 for a null value
 * @param stamped          the driver's stamp travels with the record (end-to-end latency)
 * @param verified         ... with the producer id and sequence (verification)
 */
public record RecordShape(int keyBytes, int valueBytes, int headers, int headerKeyBytes, int headerValueBytes,
                          boolean stamped, boolean verified) {
    /** This record with a value of {@code bytes}. */
    public RecordShape withValue(int bytes) {
        return new RecordShape(keyBytes, bytes, headers, headerKeyBytes, headerValueBytes, stamped, verified);
    }
}
