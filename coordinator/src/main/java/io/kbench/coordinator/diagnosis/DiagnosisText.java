package io.kbench.coordinator.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.report.result.ResultFile;

/**
 * A diagnosis as the console prints it after the summary: the limit, its evidence, the checks that held beside it, what
 * to turn next. Pure.
 */
public final class DiagnosisText {
    private DiagnosisText() { }

    /** The console's lines; none for a run without a diagnosis. */
    public static List<String> lines(ResultFile.Diagnosis d) {
        List<String> out = new ArrayList<>();
        if (d == null) {
            return out;
        }
        out.add("  limited by: " + d.limit() + switch (d.limit()) {
            case Diagnosis.NONE -> " (" + noneHeadline(d) + ")";
            case Diagnosis.UNKNOWN -> " (no figure kbench reads crossed its threshold; see docs/diagnosis.md)";
            default -> String.format(Locale.ROOT, " (strength %.2f%s%s)", d.strength(), Diagnosis.brokersUnread(d)
                    ? "; the brokers were not read: a limit of theirs would look the same from the "
                    + (Diagnosis.CONSUMERS.equals(d.limit()) ? "consumers" : "producers") : "", keptTarget(d)
                    ? "; the run kept its target: the generator's own delays are in its latencies" : "");
        });
        d.evidence().forEach(e -> out.add("    " + evidence(e)));
        if (!d.held().isEmpty()) {
            // beside a limit, what ruled the others out: a reader checks the verdict against these as well
            out.add("    held: " + String.join("; ", d.held().stream().map(DiagnosisText::evidence).toList()));
        }
        if (!d.suggestions().isEmpty()) {
            out.add("    next: " + String.join("; ", d.suggestions()));
        }
        for (ResultFile.Limit l : d.alsoLimitedBy()) {
            out.add(String.format(Locale.ROOT, "  also limited by: %s (strength %.2f): %s", l.limit(), l.strength(),
                    l.evidence().isEmpty() ? "" : evidence(l.evidence().get(0))));
        }
        return out;
    }

    /**
     * A {@code generator} verdict on a run that held its target (the window's acknowledged rate among the checks that
     * held): its saturated intervals delayed some sends, they did not cost it the rate.
     */
    private static boolean keptTarget(ResultFile.Diagnosis d) {
        return Diagnosis.GENERATOR.equals(d.limit()) && d.held().stream()
                .anyMatch(e -> e.figure().equals("ackedRate") && ">=".equals(e.op()));
    }

    /**
     * What {@code none} says of a run: that it kept up, and that nothing was near its limit — unless its busiest
     * worker's cores were 80% busy or more, by its process or by every process on its host (then it says so: the target was met, a higher one may be held back by
     * the client host before the cluster).
     */
    public static String noneHeadline(ResultFile.Diagnosis d) {
        boolean hostNear = d.evidence().stream().anyMatch(e -> (Diagnosis.WORKER_CPU.equals(e.figure())
                || Diagnosis.WORKER_HOST_BUSY.equals(e.figure())) && ">=".equals(e.op()));
        boolean backlog = d.evidence().stream().anyMatch(e -> Diagnosis.WINDOW_BACKLOG.equals(e.figure()));
        if (backlog) {
            return "the run kept up with its target, but its window began with a backlog of acknowledgements"
                    + (hostNear ? ", and its busiest worker host was near its limit" : "");
        }
        return hostNear ? "the run kept up with its target, but its busiest worker host was near its limit"
                : "the run kept up with its target and nothing was near its limit";
    }

    /** One piece of evidence: its text and, when it has one, the comparison that decided it. */
    public static String evidence(ResultFile.Evidence e) {
        if (e.value() == null || e.op() == null || e.threshold() == null) {
            return e.text();
        }
        return String.format(Locale.ROOT, "%s [%s %s %s %s]", e.text(), e.figure(), plain(e.value()), e.op(),
                plain(e.threshold()));
    }

    private static String plain(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}
