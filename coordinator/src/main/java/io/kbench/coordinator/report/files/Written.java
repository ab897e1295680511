package io.kbench.coordinator.report.files;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a command wrote and what it could not: each output file once, with the reason it was not written. A
 * command whose outputs were not all written ends non-zero with {@link #problem()} as its one line, so a
 * full disk or a directory in the way is never an exit 0 with a result missing.
 *
 * <p>Thread-safe: the histogram logs record a failure from a snapshot thread, the rest from the run's thread.
 */
public final class Written {
    private final List<String> written = new ArrayList<>();
    private final Map<String, String> failed = new LinkedHashMap<>();

    /** {@code file} was written whole. */
    public synchronized void ok(Path file) {
        written.add(file.getFileName().toString());
    }

    /** {@code what} (several files, e.g. "12 histogram logs") was written whole. */
    public synchronized void ok(String what) {
        written.add(what);
    }

    /** {@code what} (a file name, or a kind such as "histogram logs") was not written, for {@code cause}. */
    public synchronized void failed(String what, Throwable cause) {
        failed.putIfAbsent(what, reason(cause));
    }

    /** True when nothing failed. */
    public synchronized boolean complete() {
        return failed.isEmpty();
    }

    /** What was not written and why, then what was: one line; null when everything was written. */
    public synchronized String problem() {
        if (failed.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        failed.forEach((what, why) -> parts.add(what + " (" + why + ")"));
        return "not written: " + String.join(", ", parts) + "; written: "
                + (written.isEmpty() ? "nothing" : String.join(", ", written));
    }

    /** Adds another command step's outcome to this one (a sweep's combinations, a search's trials). */
    public void addAll(Written other, String prefix) {
        if (other == null || other == this) {
            return;
        }
        List<String> w;
        Map<String, String> f;
        synchronized (other) {
            w = new ArrayList<>(other.written);
            f = new LinkedHashMap<>(other.failed);
        }
        synchronized (this) {
            w.forEach(x -> written.add(prefix + x));
            f.forEach((k, v) -> failed.putIfAbsent(prefix + k, v));
        }
    }

    private static String reason(Throwable e) {
        // the deepest message says it best ("No space left on device", "Is a directory")
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() != null ? t.getMessage() : e.getMessage();
        String type = t.getClass().getSimpleName();
        if (t instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        if (m == null) {
            return type;
        }
        return type.equals("IOException") || type.equals("UncheckedIOException") ? m : type + ": " + m;
    }
}
