package io.kbench.protocol;

/** The latency metrics kbench records, with their names in results. */
public enum Metric {
    /** send() called to broker ack. */
    PUBLISH_LATENCY("publishLatencyMicros"),
    /** Intended send time (rate schedule) to broker ack: free of coordinated omission. */
    PUBLISH_RESPONSE("publishResponseMicros"),
    /** Intended send time to send() called. */
    PUBLISH_DELAY("publishDelayMicros"),
    /** Intended send time to consumer receipt, coordinator time on both ends. */
    END_TO_END("endToEndLatencyMicros"),
    /** Duration of a transaction commit (transactional runs). */
    TRANSACTION_COMMIT("transactionCommitMicros"),
    /** Share consumers: intended send time to the record's first delivery, coordinator time on both ends. */
    SHARE_DELIVERY("shareDeliveryMicros"),
    /** Share consumers: intended send time to the record accepted (delivered and processed). */
    SHARE_ACCEPT("shareAcceptMicros"),
    /**
     * Share consumers committing their acknowledgements themselves ({@code shareCommit: sync}): the duration of
     * one poll's commit, acknowledgements sent to the broker's answer.
     */
    SHARE_COMMIT("shareCommitMicros");

    private final String key;

    Metric(String key) {
        this.key = key;
    }

    /** Name in result.json. */
    public String key() {
        return key;
    }
}
