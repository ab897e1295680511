package io.kbench.coordinator.report.console;

/**
 * The window of the Kafka consumer tools' {@code --show-detailed-stats} rows: records and bytes since the last row
 * and in all. A row is due, as in the tools, once a reporting interval has passed since the last one and records came
 * in it; the reporter prints it from the figures here, then {@link #rowPrinted} opens the next window. Not
 * thread-safe (its reporter serializes).
 */
final class DetailRows {
    private final long detailMicros;
    private long windowStartMicros = -1;
    private long windowRecords;
    private long windowBytes;
    private long totalRecords;
    private long totalBytes;

    /** @param detailMicros the reporting interval of the rows */
    DetailRows(long detailMicros) {
        this.detailMicros = detailMicros;
    }

    /** Adds an interval's records and bytes; true when a row is due at its end. */
    boolean add(long startMicros, long endMicros, long records, long bytes) {
        if (windowStartMicros < 0) {
            windowStartMicros = startMicros;
        }
        windowRecords += records;
        windowBytes += bytes;
        totalRecords += records;
        totalBytes += bytes;
        return endMicros - windowStartMicros >= detailMicros && windowRecords > 0;
    }

    /** The row for the window ending at {@code endMicros} is printed: the next window starts there. */
    void rowPrinted(long endMicros) {
        windowStartMicros = endMicros;
        windowRecords = 0;
        windowBytes = 0;
    }

    long windowStartMicros() {
        return windowStartMicros;
    }

    long windowRecords() {
        return windowRecords;
    }

    long windowBytes() {
        return windowBytes;
    }

    long totalRecords() {
        return totalRecords;
    }

    long totalBytes() {
        return totalBytes;
    }
}
