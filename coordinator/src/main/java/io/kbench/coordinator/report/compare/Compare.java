package io.kbench.coordinator.report.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.kbench.coordinator.diagnosis.Diagnosis;
import io.kbench.coordinator.report.result.ResultFile;

/**
 * Compares results: the headline figures of each side (a side is one result, or several repeats of the same
 * setup), the difference of each side against the first (the baseline) in percent, and whether that
 * difference is beyond the run-to-run noise — known only when both sides have repeats: the larger of the two
 * sides' spreads (max - min, relative to the side's mean). And gates: {@link Gate}s that fail a CI pipeline
 * when the last side breaches them. Pure.
 */
public final class Compare {
    /** The figures compared, by their result.json path under {@code summary}, with how they read. */
    static final List<Figure> HEADLINE = List.of(
            new Figure("publishRate", "publish msg/s", false),
            new Figure("consumeRate", "consume msg/s", false),
            new Figure("publishLatencyMicros.p50", "pub p50 ms", true),
            new Figure("publishLatencyMicros.p99", "pub p99 ms", true),
            new Figure("publishResponseMicros.p99", "resp p99 ms", true),
            new Figure("publishResponseMicros.p999", "resp p99.9 ms", true),
            new Figure("endToEndLatencyMicros.p50", "e2e p50 ms", true),
            new Figure("endToEndLatencyMicros.p99", "e2e p99 ms", true),
            new Figure("endToEndLatencyMicros.p999", "e2e p99.9 ms", true),
            new Figure("failed", "failed sends", false),
            new Figure("saturatedIntervals", "saturated intervals", false));

    /** The transactional producers' commits: rows only when a result compared committed transactions. */
    static final List<Figure> TRANSACTIONS = List.of(
            new Figure("transactionCommitMicros.p50", "commit p50 ms", true),
            new Figure("transactionCommitMicros.p99", "commit p99 ms", true),
            new Figure("transactionCommitMicros.max", "commit max ms", true));

    /** The share groups' headline figures: rows only when a result compared has share groups. */
    static final List<Figure> SHARE = List.of(
            new Figure("share.rate", "share deliveries/s", false),
            new Figure("share.acceptRate", "share accepted/s", false),
            new Figure("share.redelivered", "share redelivered", false),
            new Figure("share.deliveryLatencyMicros.p99", "share dlv p99 ms", true),
            new Figure("share.acceptLatencyMicros.p99", "share acc p99 ms", true),
            new Figure("share.commitLatencyMicros.p99", "share commit p99 ms", true),
            new Figure("share.unsettled", "share unsettled", false),
            new Figure("share.verification.lost", "share lost", false),
            new Figure("share.verification.duplicated", "share duplicated", false));

    /**
     * A backlog run's catch-up: rows only when a result compared read a backlog (its end-to-end figures above hold the
     * backlog's wait; the latency after the catch-up is the live one).
     */
    static final List<Figure> CATCH_UP = List.of(
            new Figure("catchUp.rate", "catch-up msg/s", false),
            new Figure("catchUp.seconds", "catch-up s", false),
            new Figure("catchUp.endToEndAfterMicros.p99", "e2e p99 after catch-up ms", true));

    /** The figures that count things: one result's is shown whole. */
    private static final java.util.Set<String> COUNTS = java.util.Set.of("failed", "saturatedIntervals",
            "share.redelivered", "share.unsettled", "share.verification.lost", "share.verification.duplicated");

    /** Short names for the latency objects, as the console and docs use them. */
    private static final Map<String, String> SHORT = Map.of(
            "publishLatency", "publishLatencyMicros",
            "publishResponse", "publishResponseMicros",
            "publishDelay", "publishDelayMicros",
            "endToEnd", "endToEndLatencyMicros",
            "endToEndLatency", "endToEndLatencyMicros",
            "transactionCommit", "transactionCommitMicros");
    private static final Pattern GATE = Pattern.compile(
            "\\s*([A-Za-z][A-Za-z0-9.]*)\\s*([<>])\\s*([+-]?[0-9]+(?:\\.[0-9]+)?)\\s*(%|ms|us|µs|s)?\\s*");

    private Compare() { }

    /** The latency metric a user's short name stands for ({@code endToEnd}, {@code publishResponse} ...), or null. */
    public static io.kbench.protocol.Metric latencyMetric(String shortName) {
        String key = SHORT.get(shortName);
        for (io.kbench.protocol.Metric m : io.kbench.protocol.Metric.values()) {
            if (m.key().equals(key)) {
                return m;
            }
        }
        return null;
    }

    /**
     * {@code summary} without the figures its run could not have: the classic consumers' (consume rate, end-to-end
     * latency) for a workload without classic subscriptions — a share-group run reads with share consumers only —
     * and the producers' for one without producers. They are absent then ("–"), not 0: a 0 against another run's
     * figure reads as a 100% regression. {@code workload}: the result's resolved workload (null: left as it is).
     */
    public static JsonNode applicable(JsonNode summary, JsonNode workload) {
        if (!(summary instanceof com.fasterxml.jackson.databind.node.ObjectNode o) || workload == null
                || !workload.isObject()) {
            return summary;
        }
        com.fasterxml.jackson.databind.node.ObjectNode copy = o.deepCopy();
        if (workload.path("subscriptionsPerTopic").asInt(1) == 0) {
            copy.remove(List.of("consumeRate", "consumeMBps", "endToEndLatencyMicros"));
        }
        if (workload.path("producersPerTopic").asInt(1) == 0) {
            copy.remove(List.of("publishRate", "publishMBps", "publishLatencyMicros", "publishResponseMicros",
                    "publishDelayMicros"));
        }
        return copy;
    }

    /** One short name per latency metric (the shortest, where there are aliases), sorted. */
    public static java.util.SortedSet<String> latencyNames() {
        java.util.Map<String, String> byKey = new java.util.HashMap<>();
        SHORT.forEach((name, key) -> byKey.merge(key, name, (a, b) -> a.length() <= b.length() ? a : b));
        return new java.util.TreeSet<>(byKey.values());
    }

    /**
     * A summary figure.
     *
     * @param path    its path under result.json's {@code summary}
     * @param label   how the table heads it
     * @param latency in microseconds (shown in ms; absolute gate limits take a time unit)
     */
    public record Figure(String path, String label, boolean latency) {
        /** The figure in one result's summary; NaN when the result does not have it. */
        double of(JsonNode summary) {
            JsonNode n = summary;
            for (String part : path.split("\\.")) {
                n = n == null ? null : n.get(part);
            }
            return n == null || !n.isNumber() ? Double.NaN : n.asDouble();
        }

        double shown(double value) {
            return latency ? value / 1000.0 : value;
        }
    }

    /** One side's values of a figure: its repeats. */
    /**
     * One side of a comparison: its results' summaries and what limited each ({@code diagnosis.limit}; null for a
     * result without a diagnosis, e.g. a merged one).
     */
    public record Side(String name, List<JsonNode> summaries, List<String> limits) {
        public Side {
            limits = limits == null ? List.of() : java.util.Collections.unmodifiableList(new ArrayList<>(limits));
        }

        /** A side whose results' limits are not known. */
        public Side(String name, List<JsonNode> summaries) {
            this(name, summaries, List.of());
        }

        /**
         * What limited its runs, as one cell: the name when every run agrees ("none"), else each name with its
         * count, most frequent first ("generator ×2, none ×1"); "–" when no run was diagnosed.
         */
        String limitedBy() {
            Map<String, Integer> counts = new java.util.LinkedHashMap<>();
            limits.stream().filter(java.util.Objects::nonNull).forEach(l -> counts.merge(l, 1, Integer::sum));
            if (counts.isEmpty()) {
                return "–";
            }
            if (counts.size() == 1 && counts.values().iterator().next() == limits.size()) {
                return counts.keySet().iterator().next();
            }
            List<Map.Entry<String, Integer>> e = new ArrayList<>(counts.entrySet());
            e.sort((a, b) -> b.getValue() - a.getValue());
            String known = String.join(", ", e.stream().map(x -> x.getKey() + " ×" + x.getValue()).toList());
            long unknown = limits.stream().filter(java.util.Objects::isNull).count();
            return unknown == 0 ? known : known + ", not diagnosed ×" + unknown;
        }

        double mean(Figure f) {
            return summaries.stream().mapToDouble(f::of).average().orElse(Double.NaN);
        }

        /** Spread of the repeats relative to their mean; NaN with a single result. */
        double spread(Figure f) {
            if (summaries.size() < 2) {
                return Double.NaN;
            }
            double min = summaries.stream().mapToDouble(f::of).min().orElse(Double.NaN);
            double max = summaries.stream().mapToDouble(f::of).max().orElse(Double.NaN);
            double mean = mean(f);
            return mean == 0 ? 0 : (max - min) / Math.abs(mean);
        }
    }

    /**
     * A threshold on the last side: {@code FIGURE OP LIMIT}, failing when the figure is {@code OP} the limit.
     * The limit is relative to the baseline ({@code -10%}: 10% below the baseline's value) or absolute
     * ({@code 50ms}, {@code 2s}, {@code 500us} for latencies; a plain number otherwise).
     */
    public record Gate(String text, Figure figure, boolean above, double limit, boolean relative) {
        /**
         * @throws IllegalArgumentException one line: what is wrong and what is allowed
         */
        public static Gate parse(String text) {
            Matcher m = GATE.matcher(text);
            if (!m.matches()) {
                throw new IllegalArgumentException("--fail-if '" + text + "': not FIGURE OP LIMIT; e.g. 'publishRate < -10%', "
                        + "'endToEnd.p99 > 50ms', 'publishResponse.p99 > +5%' (OP is < or >)");
            }
            Figure f = Compare.figure(m.group(1));
            if (f == null) {
                throw new IllegalArgumentException("--fail-if '" + text + "': unknown figure '" + m.group(1) + "'; allowed: "
                        + "a summary number of result.json (publishRate, consumeRate, failed, saturatedIntervals, ...) or a "
                        + "latency percentile (endToEnd.p99, publishLatency.p50, publishResponse.p99.9, ...), a share "
                        + "group figure (share.acceptRate, share.redelivered, share.acceptLatencyMicros.p99, ...), or a "
                        + "backlog run's catch-up (catchUp.rate, catchUp.seconds, catchUp.endToEndAfterMicros.p99)");
            }
            String unit = m.group(4);
            double value = Double.parseDouble(m.group(3));
            boolean relative = "%".equals(unit);
            if (!relative && unit != null && !f.latency()) {
                throw new IllegalArgumentException("--fail-if '" + text + "': " + m.group(1)
                        + " is not a time; give a plain number or a percentage");
            }
            if (!relative && f.latency()) {
                if (unit == null) {
                    throw new IllegalArgumentException("--fail-if '" + text + "': " + m.group(1)
                            + " is a time: give a unit (ms, us, s) or a percentage");
                }
                value *= switch (unit) {
                    case "s" -> 1_000_000;
                    case "ms" -> 1_000;
                    default -> 1;
                };
            }
            if (relative && !m.group(3).startsWith("+") && !m.group(3).startsWith("-")) {
                throw new IllegalArgumentException("--fail-if '" + text + "': a relative limit needs its sign, e.g. -10% or +5%");
            }
            return new Gate(text.strip(), f, ">".equals(m.group(2)), value, relative);
        }

        /** The limit in the figure's units, given the baseline's value. */
        public double threshold(double baseline) {
            return relative ? baseline * (1 + limit / 100.0) : limit;
        }

        /**
         * True when {@code value} breaches the gate — or cannot be judged: the last side lacks the figure, or a relative
         * limit's baseline does (a gate that cannot be checked must not pass a pipeline).
         */
        public boolean breached(double value, double baseline) {
            double t = threshold(baseline);
            return Double.isNaN(value) || Double.isNaN(t) || (above ? value > t : value < t);
        }
    }

    /** A figure by the name a user writes: a summary path, a short latency name, p99.9 for p999. */
    static Figure figure(String name) {
        String[] parts = name.split("\\.", 2);
        String head = SHORT.getOrDefault(parts[0], parts[0]);
        String tail = parts.length > 1 ? parts[1].replace("p99.99", "p9999").replace("p99.9", "p999") : null;
        String path = tail == null ? head : head + "." + tail;
        for (Figure f : HEADLINE) {
            if (f.path().equals(path)) {
                return f;
            }
        }
        if (tail != null && head.endsWith("Micros") && tail.matches("count|mean|p50|p75|p95|p99|p999|p9999|max")) {
            return new Figure(path, path, !tail.equals("count"));
        }
        if (tail == null && List.of("sent", "acked", "received", "measuredSeconds", "publishMBps", "consumeMBps",
                "clamped", "negativeEndToEnd").contains(head)) {
            return new Figure(path, path, false);
        }
        if (head.equals("catchUp") && tail != null) {
            if (tail.matches("rate|mbps|seconds|backlogRecords")) {
                return new Figure(path, path, false);
            }
            if (tail.matches("endToEndAfterMicros\\.(count|mean|p50|p75|p95|p99|p999|p9999|max)")) {
                return new Figure(path, path, !tail.endsWith(".count"));
            }
        }
        if (head.equals("share") && tail != null) {
            if (tail.matches("rate|acceptRate|MBps|delivered|bytes|redelivered|accepted|released|rejected|unsettled"
                    + "|verification\\.(lost|duplicated|untracked)")) {
                return new Figure(path, path, false);
            }
            if (tail.matches("(deliveryLatencyMicros|acceptLatencyMicros|commitLatencyMicros)"
                    + "\\.(count|mean|p50|p75|p95|p99|p999|p9999|max)")) {
                return new Figure(path, path, !tail.endsWith(".count"));
            }
        }
        return null;
    }

    /** The figures compared: the headline ones (the share groups' when a side has them), then each gate's not among them. */
    public static List<Figure> figures(List<Side> sides, List<Gate> gates) {
        List<Figure> figures = new ArrayList<>(HEADLINE);
        if (sides.stream().anyMatch(s -> s.summaries().stream()
                .anyMatch(j -> j.path("transactionCommitMicros").path("count").asLong() > 0))) {
            figures.addAll(TRANSACTIONS);
        }
        if (sides.stream().anyMatch(s -> s.summaries().stream().anyMatch(j -> j.has("catchUp")))) {
            figures.addAll(CATCH_UP);
        }
        if (sides.stream().anyMatch(s -> s.summaries().stream().anyMatch(j -> j.has("share")))) {
            boolean commit = sides.stream().anyMatch(s -> s.summaries().stream()
                    .anyMatch(j -> j.path("share").has("commitLatencyMicros")));
            // the commit latency only when a side measured it (shareCommit: sync)
            SHARE.stream().filter(f -> commit || !f.path().startsWith("share.commitLatencyMicros")).forEach(figures::add);
        }
        for (Gate g : gates) {
            if (figures.stream().noneMatch(f -> f.path().equals(g.figure().path()))) {
                figures.add(g.figure());
            }
        }
        return figures;
    }

    /** The difference of {@code v} from the baseline's {@code base}, in % (NaN when either is missing or base is 0). */
    static double percent(double base, double v) {
        return Double.isNaN(base) || Double.isNaN(v) || base == 0 ? Double.NaN : 100 * (v - base) / Math.abs(base);
    }

    /** "beyond", "within" the run-to-run noise of the two sides, or null when either has no repeats. */
    static String noiseVerdict(Side base, Side s, Figure f) {
        String n = noise(base, s, f, base.mean(f), s.mean(f));
        return n.isEmpty() ? null : n.contains("beyond") ? "beyond" : "within";
    }

    /**
     * What a gate found: the last side's value, the baseline's, the limit they make, whether the limit was crossed,
     * the run-to-run noise of the two sides (the larger spread of their repeats; NaN unless both have repeats) and
     * whether it was breached: a relative limit crossed by a difference no larger than that noise is not a breach (the repeats cannot
     * tell the difference from chance). {@code line} says what was found: the breach, a crossing within the noise,
     * or null when the gate held.
     */
    public record GateOutcome(Gate gate, double value, double baseline, double threshold, boolean crossed, double noise,
                              boolean breached, String line) {
    }

    /** Every gate's outcome, in order. */
    public static List<GateOutcome> outcomes(List<Side> sides, List<Gate> gates) {
        List<GateOutcome> out = new ArrayList<>();
        Side base = sides.get(0);
        Side last = sides.get(sides.size() - 1);
        for (Gate g : gates) {
            Figure f = g.figure();
            double b = base.mean(f);
            double v = last.mean(f);
            boolean crossed = g.breached(v, b);
            double noise = Math.max(base.spread(f), last.spread(f));
            boolean withinNoise = crossed && g.relative() && !Double.isNaN(v) && !Double.isNaN(noise) && b != 0
                    && Math.abs(v - b) / Math.abs(b) <= noise;
            String unit = f.latency() ? " ms" : "";
            String found = String.format(Locale.ROOT, "%s — %s is %s%s, limit %s%s", g.text(), f.path(),
                    Double.isNaN(v) ? "missing" : String.format(Locale.ROOT, "%.2f", f.shown(v)), Double.isNaN(v) ? "" : unit,
                    Double.isNaN(g.threshold(b)) ? "unknown" : String.format(Locale.ROOT, "%.2f%s",
                            f.shown(g.threshold(b)), unit), !g.relative() ? "" : Double.isNaN(b) ? " (the baseline does "
                            + "not have it)" : String.format(Locale.ROOT, " (baseline %.2f%s)", f.shown(b), unit));
            String line = !crossed ? null : withinNoise ? String.format(Locale.ROOT, "within noise: %s; a side's "
                    + "repeats range over %.1f%% of their mean (±%.1f%%), more than the %.1f%% difference: not a breach",
                    found, 100 * noise, 50 * noise, 100 * Math.abs(v - b) / Math.abs(b)) : "breached: " + found;
            out.add(new GateOutcome(g, v, b, g.threshold(b), crossed, noise, crossed && !withinNoise, line));
        }
        return out;
    }

    /** The comparison table: a row per headline figure, then one per gate figure not among them. */
    public static List<List<String>> table(List<Side> sides, List<Gate> gates) {
        List<Figure> figures = figures(sides, gates);
        List<List<String>> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("figure"));
        for (int i = 0; i < sides.size(); i++) {
            head.add(sides.get(i).name() + (sides.get(i).summaries().size() > 1
                    ? " (" + sides.get(i).summaries().size() + " runs)" : ""));
            if (i > 0) {
                head.add("vs first");
            }
        }
        rows.add(head);
        Side base = sides.get(0);
        for (Figure f : figures) {
            List<String> row = new ArrayList<>(List.of(f.label()));
            double b = base.mean(f);
            for (int i = 0; i < sides.size(); i++) {
                Side s = sides.get(i);
                double v = s.mean(f);
                // a count of one result (failed sends, saturated intervals) is whole: "4", not "4.0"; a mean of repeats
                // keeps its decimal
                boolean whole = COUNTS.contains(f.path()) && s.summaries().size() == 1 && v == Math.rint(v);
                // seconds (a catch-up's) in ms-sized steps, as the console prints them
                String format = f.latency() ? "%.2f" : whole ? "%.0f" : f.path().endsWith(".seconds") ? "%.3f" : "%.1f";
                row.add(Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, f.shown(v))
                        + (s.summaries().size() > 1 ? String.format(Locale.ROOT, " ±%.1f%%", 50 * s.spread(f)) : ""));
                if (i > 0) {
                    row.add(diff(b, v) + noise(base, s, f, b, v));
                }
            }
            rows.add(row);
        }
        if (sides.stream().anyMatch(x -> x.limits().stream().anyMatch(java.util.Objects::nonNull))) {
            // a difference means the change's effect only if both sides were held back by the same thing (or nothing)
            List<String> row = new ArrayList<>(List.of("limited by"));
            for (int i = 0; i < sides.size(); i++) {
                row.add(sides.get(i).limitedBy());
                if (i > 0) {
                    row.add("");
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static String diff(double base, double v) {
        if (Double.isNaN(base) || Double.isNaN(v)) {
            return "–";
        }
        if (base == 0) {
            return v == 0 ? "0%" : "new";
        }
        return String.format(Locale.ROOT, "%+.1f%%", 100 * (v - base) / Math.abs(base));
    }

    private static String noise(Side base, Side s, Figure f, double b, double v) {
        double noise = Math.max(base.spread(f), s.spread(f));
        if (Double.isNaN(noise) || Double.isNaN(b) || Double.isNaN(v) || b == 0) {
            return "";
        }
        return Math.abs(v - b) / Math.abs(b) > noise ? " (beyond noise)" : " (within noise)";
    }

    /**
     * Why a result cannot back a verdict, or null when it can: a run whose status is not COMPLETED (a failed run's
     * figures stop where it failed), or one whose load generator fell behind its schedule by the run's own diagnosis
     * ({@link Diagnosis#generatorFellBehind}: more than {@link Diagnosis#SATURATED_SHARE} of the window's intervals
     * saturated and at least {@link Diagnosis#SATURATED_MIN}, the window sent short of its target, or a warm-up's backlog
     * acknowledged in it) — its latencies then include the generator's own backlog — each unless allowed. A few
     * saturated intervals are a pause of the generator's host, not a pattern: the result is judged, and {@link
     * #saturationNote} says so. A result without a diagnosis (written before result.json had one, or merged) is
     * refused for any saturated interval, as it was then.
     */
    public static String unfit(String status, long saturatedIntervals, ResultFile.Diagnosis diagnosis,
                               boolean allowFailed, boolean allowSaturated) {
        if (!allowFailed && status != null && !status.equals("COMPLETED")) {
            return "status " + status + ": its figures stop where it failed (--allow-failed to judge it anyway)";
        }
        if (allowSaturated) {
            return null;
        }
        if (diagnosis == null) {
            return saturatedIntervals <= 0 ? null : saturatedIntervals + " measured interval(s) GENERATOR SATURATED and "
                    + "no diagnosis to tell a pause from a generator that fell behind: its latencies may include the "
                    + "load generator's own backlog (--allow-saturated to judge it anyway)";
        }
        ResultFile.Evidence behind = Diagnosis.generatorFellBehind(diagnosis);
        return behind == null ? null : "the load generator fell behind its schedule ("
                + (behind.text() == null ? behind.figure() : behind.text()) + "): its "
                + "latencies include the generator's own backlog (--allow-saturated to judge it anyway)";
    }

    /**
     * What a result's saturated intervals were when they do not make it {@link #unfit} — a pause of the load
     * generator's host, which its latencies include as they include any other — or null when there were none or they do.
     */
    public static String saturationNote(long saturatedIntervals, ResultFile.Diagnosis diagnosis) {
        if (saturatedIntervals <= 0 || diagnosis == null || Diagnosis.generatorFellBehind(diagnosis) != null) {
            return null;
        }
        return String.format(Locale.ROOT, "%,d measured interval(s) GENERATOR SATURATED, judged: by the run's diagnosis "
                + "the load generator did not fall behind (that takes more than %.0f%% of the window's intervals and at "
                + "least %d, or the window short of its target); its latencies include those intervals",
                saturatedIntervals, 100 * Diagnosis.SATURATED_SHARE, Diagnosis.SATURATED_MIN);
    }

    /** One line per breached gate: the figure, the last side's value and the limit (see {@link #outcomes}). */
    public static List<String> breaches(List<Side> sides, List<Gate> gates) {
        return outcomes(sides, gates).stream().filter(GateOutcome::breached).map(GateOutcome::line).toList();
    }

    /** One line per gate whose relative limit was crossed within the run-to-run noise (not a breach). */
    public static List<String> withinNoise(List<Side> sides, List<Gate> gates) {
        return outcomes(sides, gates).stream().filter(o -> o.crossed() && !o.breached()).map(GateOutcome::line).toList();
    }
}
