package io.kbench.coordinator.capacity;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kbench.coordinator.merge.Summary;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * A service-level objective a max-rate trial must meet: {@code METRIC.QUANTILE<=VALUE}, e.g.
 * {@code publishResponse.p99<=50ms} or {@code endToEnd.p999<=200ms}. The quantile is read from the trial's
 * merged histogram of the measured window (exact across workers); an end-to-end figure counts the clock bound
 * against the objective (p99 + its uncertainty), so an objective that holds holds whatever the clocks did.
 *
 * @param text        as given (whitespace removed)
 * @param metric      whose histogram
 * @param percentile  0 &lt; p &lt;= 100 (100 is the maximum)
 * @param limitMicros the largest value that meets the objective
 */
public record Slo(String text, Metric metric, double percentile, long limitMicros) {
    private static final Pattern FORM = Pattern.compile(
            "([A-Za-z][A-Za-z0-9]*)\\.(p[0-9]+(?:\\.[0-9]+)?|max)(<=?)([0-9]+(?:\\.[0-9]+)?)(ms|us|µs|s)?");
    private static final String EXAMPLE = "e.g. 'publishResponse.p99<=50ms', 'endToEnd.p99.9<=200ms'";

    /**
     * @throws IllegalArgumentException one line: what is wrong and what is allowed
     */
    public static Slo parse(String given) {
        String text = given.replaceAll("\\s+", "");
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("--slo '" + given + "': not METRIC.QUANTILE<=VALUE; " + EXAMPLE);
        }
        // the names kbench compare's --fail-if takes
        Metric metric = io.kbench.coordinator.report.compare.Compare.latencyMetric(m.group(1));
        if (metric == null) {
            throw new IllegalArgumentException("--slo '" + given + "': unknown metric '" + m.group(1) + "'; allowed: "
                    + String.join(", ", io.kbench.coordinator.report.compare.Compare.latencyNames()));
        }
        double p = percentile(m.group(2));
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("--slo '" + given + "': unknown quantile " + m.group(2) + "; write a "
                    + "percentile above 0: p50, p99, p99.9 (or p999), p99.99 (or p9999), max (or p100)");
        }
        if (m.group(5) == null) {
            throw new IllegalArgumentException("--slo '" + given + "': give the limit's unit (ms, us or s); " + EXAMPLE);
        }
        double scale = switch (m.group(5)) {
            case "s" -> 1_000_000;
            case "ms" -> 1_000;
            default -> 1;
        };
        double micros = Double.parseDouble(m.group(4)) * scale;
        if (micros < 1 || micros > 3_600_000_000.0) {
            throw new IllegalArgumentException("--slo '" + given + "': the limit must be 1 µs to 1 hour");
        }
        // '<' on whole microseconds: below the limit is at most one microsecond under it
        long limit = "<".equals(m.group(3)) ? (long) Math.ceil(micros) - 1 : (long) Math.floor(micros);
        return new Slo(text, metric, p, limit);
    }

    /** p99 → 99, p999 → 99.9, p9999 → 99.99, p99.9 → 99.9, p50 → 50, max → 100. */
    static double percentile(String q) {
        if (q.equals("max")) {
            return 100;
        }
        String digits = q.substring(1);
        if (digits.contains(".") || digits.length() <= 2) {
            return Double.parseDouble(digits);
        }
        if (digits.equals("100")) {
            return 100;
        }
        // p999 is 99.9 and p9995 99.95: the digits after "99" are decimals; other long forms are not quantiles
        return digits.startsWith("99") ? Double.parseDouble("99." + digits.substring(2)) : Double.NaN;
    }

    /** The objective's figure in a trial: the quantile in µs (end-to-end: plus the clock bound). */
    public long value(Summary summary) {
        Histogram h = summary.histograms().get(metric);
        if (h == null || h.getTotalCount() == 0) {
            return -1;
        }
        long v = percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
        return metric == Metric.END_TO_END ? v + summary.endToEndUncertaintyMicros() : v;
    }

    /** The figure as the console shows it. */
    static String millis(long micros) {
        return micros < 0 ? "none" : String.format(Locale.ROOT, micros < 10_000 ? "%.2f ms" : "%.1f ms", micros / 1000.0);
    }
}
