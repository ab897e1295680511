package io.kbench.coordinator.run;

/**
 * What a worker id may be: it names the worker in every console line, table, result.json, intervals.csv, the
 * histogram logs' tags and the metrics' labels, so one word of printable characters, at most {@link #MAX_LENGTH}
 * (the default, HOST:PORT, is one). Checked by {@code kbench worker --id} and by the coordinator for each id a
 * worker answers with (a worker of another build).
 */
public final class WorkerIds {
    /** The longest id taken: the default HOST:PORT of the longest host name DNS allows (253) fits. */
    public static final int MAX_LENGTH = 260;

    private WorkerIds() { }

    /** Why {@code id} is not a worker id, or null when it is one. */
    public static String problem(String id) {
        if (id == null || id.isEmpty()) {
            return "an empty id";
        }
        if (id.length() > MAX_LENGTH) {
            return "longer than " + MAX_LENGTH + " characters (" + id.length() + ")";
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                return "it holds white space (one word, e.g. host-1 or 10.0.0.5:7070)";
            }
            if (Character.isISOControl(c)) {
                return "it holds a control character (one word of printable characters)";
            }
        }
        return null;
    }
}
