package io.kbench.protocol;

/**
 * One consumer's records and value bytes read since its run started, as its worker counted them (a share consumer's
 * deliveries, redeliveries included). Sent once, in the worker's last snapshot: the perf-tool commands print a line
 * per consumer from these ({@code share-consumer-perf --show-consumer-stats}).
 *
 * @param index    the consumer's index within the run
 * @param share    a share consumer (else a classic one)
 * @param records  records read
 * @param bytes    value bytes read
 * @param clientId the consumer's {@code client.id}
 */
public record ConsumerTotal(int index, boolean share, long records, long bytes, String clientId) {
    public ConsumerTotal {
        clientId = clientId == null ? "" : clientId;
        if (index < 0 || records < 0 || bytes < 0) {
            throw new IllegalArgumentException("consumer " + index + ": " + records + " records, " + bytes + " bytes");
        }
    }
}
