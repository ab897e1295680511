package io.kbench.coordinator.workload;

/**
 * When a workload's producers commit their transactions (both 0: they are not transactional). A part of
 * {@link Workload}; result.json keeps its fields among the workload's keys.
 *
 * @param transactionRecords transactional producers commit after this many messages (0: not by count)
 * @param transactionMillis  ... or once a transaction is open this long (0: not by time)
 */
public record Transactions(long transactionRecords, long transactionMillis) {
    public static final Transactions NONE = new Transactions(0, 0);

    /** True when producers are transactional. */
    public boolean any() {
        return transactionRecords > 0 || transactionMillis > 0;
    }
}
