package io.kbench.coordinator.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The errors the workers reported in one interval, bounded whatever their number: how many workers reported
 * one, and the first {@link #MAX_DISTINCT} distinct texts (each cut at {@link #MAX_CHARS}) with the first
 * worker that reported each and how many others did. 1,000 workers sending a 2 KB error every second cost a
 * few lines per interval, not 2 MB. Not thread-safe: the merger's lock guards it.
 */
final class IntervalErrors {
    /** Distinct error texts kept per interval. */
    static final int MAX_DISTINCT = 3;
    /** Longest error text kept (characters); longer ones are cut and marked. */
    static final int MAX_CHARS = 300;

    private final Map<String, int[]> texts = new LinkedHashMap<>(); // text -> {workers}
    private final Map<String, String> firstWorker = new LinkedHashMap<>();
    private int workers;
    private int otherWorkers;

    void add(String worker, String error) {
        workers++;
        String text = error.length() <= MAX_CHARS ? error : error.substring(0, MAX_CHARS) + "... (cut at " + MAX_CHARS
                + " of " + error.length() + " characters)";
        int[] n = texts.get(text);
        if (n != null) {
            n[0]++;
        } else if (texts.size() < MAX_DISTINCT) {
            texts.put(text, new int[] {1});
            firstWorker.put(text, worker);
        } else {
            otherWorkers++;
        }
    }

    /** One line per distinct text ("w3 and 41 more workers: ..."), then what was not kept; empty without errors. */
    List<String> lines() {
        List<String> out = new ArrayList<>(texts.size() + 1);
        texts.forEach((text, n) -> out.add(firstWorker.get(text) + (n[0] > 1 ? " and " + (n[0] - 1) + " more worker(s)" : "")
                + ": " + text));
        if (otherWorkers > 0) {
            out.add(otherWorkers + " more worker(s) reported other errors (" + workers + " in all)");
        }
        return out;
    }
}
