package io.kbench.coordinator.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.kbench.coordinator.report.result.ResultFile;
import org.junit.jupiter.api.Test;

/**
 * Every comparison a diagnosis prints ({@code [figure value op threshold]}) holds for its own value and threshold,
 * whatever the window's figures: a reader checks the verdict by that comparison, so one that is false is a wrong
 * verdict (it found "7 of 10 interval(s) saturated: fewer than 3 [saturatedIntervals 7 < 3]").
 */
class DiagnosisEvidenceTest {
    private static final double[] SHARES = {0, 0.005, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.79, 0.8, 0.81, 0.95, 1};

    @Test
    void shouldPrintOnlyComparisonsThatHold() {
        Random r = new Random(Long.getLong("seed", 20261130));
        int checked = 0;
        for (int i = 0; i < Integer.getInteger("cases", 10_000); i++) {
            WindowFigures f = figures(r);
            ResultFile.Diagnosis d = Diagnosis.of(f);
            List<ResultFile.Evidence> all = new ArrayList<>(d.evidence());
            all.addAll(d.held());
            d.alsoLimitedBy().forEach(l -> all.addAll(l.evidence()));
            for (ResultFile.Evidence e : all) {
                if (e.op() == null || e.value() == null || e.threshold() == null) {
                    continue;
                }
                checked++;
                assertTrue(holds(e.value(), e.op(), e.threshold()), "[" + e.figure() + " " + e.value() + " " + e.op()
                        + " " + e.threshold() + "] " + e.text() + " in " + d.limit() + " of " + f);
            }
            assertTrue(d.strength() >= 0 && d.strength() <= 1, d.strength() + " of " + f);
        }
        assertTrue(checked > 20_000, checked + " comparisons");
    }

    @Test
    void shouldTellAFalseComparisonFromATrueOne() {
        assertTrue(holds(7, ">=", 3));
        assertTrue(holds(0.8, ">=", 0.8));
        assertEquals(false, holds(7, "<", 3));
        assertEquals(false, holds(0.2, "<=", 0.1));
    }

    /** {@code value op threshold}, allowing for the evidence's rounding to 3 decimals. */
    private static boolean holds(double value, String op, double threshold) {
        double slack = 0.0005 + 1e-9 * Math.abs(threshold);
        return switch (op) {
            case "<" -> value < threshold + slack;
            case "<=" -> value <= threshold + slack;
            case ">" -> value > threshold - slack;
            case ">=" -> value >= threshold - slack;
            case "=", "==" -> Math.abs(value - threshold) <= slack;
            default -> throw new AssertionError("unknown op " + op);
        };
    }

    private static double pick(Random r, double... values) {
        return values[r.nextInt(values.length)];
    }

    private static double share(Random r) {
        return r.nextInt(4) == 0 ? r.nextDouble() : SHARES[r.nextInt(SHARES.length)];
    }

    private static double maybeNaN(Random r, double v) {
        return r.nextInt(10) == 0 ? Double.NaN : v;
    }

    static WindowFigures figures(Random r) {
        long target = r.nextInt(6) == 0 ? -1 : r.nextInt(12) == 0 ? 0 : (long) pick(r, 1_000, 10_000, 50_000, 200_000);
        double seconds = pick(r, 3, 4, 10, 20, 60);
        int intervals = (int) seconds;
        double base = target > 0 ? target : 80_000;
        double sent = base * pick(r, 0.5, 0.9, 0.99, 0.995, 0.999, 1, 1.01);
        double acked = sent * pick(r, 0.5, 0.95, 0.995, 1);
        boolean keptUp = target > 0 && sent >= 0.995 * target && acked >= 0.995 * target && r.nextInt(4) > 0;
        boolean behind = target > 0 && sent < 0.995 * target && r.nextBoolean();
        int saturated = r.nextInt(intervals + 1);
        int stalled = r.nextInt(saturated + 1);
        WindowFigures.Load load = new WindowFigures.Load(target, seconds, sent, acked, keptUp, behind,
                behind ? "the producers sent less" : "", intervals, saturated, 10, stalled);
        WindowFigures.Settings settings = new WindowFigures.Settings(r.nextBoolean() ? "all" : "1",
                pick(r, 0, 1, 5, 100), (long) pick(r, 16_384, 131_072), (long) pick(r, 33_554_432, 1_048_576),
                (int) pick(r, 1, 5), (int) pick(r, 1, 3));
        int producers = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(4);
        WindowFigures.Producers p = new WindowFigures.Producers(producers, share(r) * pick(r, 0.02, 1),
                maybeNaN(r, pick(r, 0.5, 5, 8, 40, 500)), maybeNaN(r, pick(r, 0.5, 3, 20, 300)),
                maybeNaN(r, pick(r, 0, 1, 5, 30)), maybeNaN(r, pick(r, 1_000, 15_000)), settings, 1 + r.nextInt(12));
        WindowFigures.Hosts h = r.nextInt(8) == 0 ? WindowFigures.Hosts.UNKNOWN : new WindowFigures.Hosts(share(r),
                "w1", (long) pick(r, 0, 5_000, 40_000), r.nextBoolean() ? "" : "coordinator, embedded broker",
                (long) pick(r, -1, 2_000, 30_000), pick(r, -1, 0.5, 0.97), pick(r, -1, 0, 0.03), pick(r, -1, 0, 0.05, 0.3));
        double lagFirst = maybeNaN(r, pick(r, 0, 100, 10_000));
        WindowFigures.Consumers c = new WindowFigures.Consumers(r.nextInt(4), 6, lagFirst,
                maybeNaN(r, pick(r, 0, 100, 10_000, 1_000_000)), maybeNaN(r, pick(r, 0, 50, 500_000)));
        WindowFigures.Brokers b = r.nextInt(6) == 0 ? null : new WindowFigures.Brokers(maybeNaN(r, share(r)),
                "embedded", maybeNaN(r, share(r)), "embedded", "embedded", maybeNaN(r, pick(r, 1, 5, 50, 500)),
                pick(r, 0.1, 3, 30), pick(r, 0.2, 2, 40), pick(r, 0, 1, 30), pick(r, 0.1, 5), pick(r, 0, 0.5),
                pick(r, 0, 0, 3), pick(r, 0, 0, 2), maybeNaN(r, pick(r, 0, 1, 50)), maybeNaN(r, share(r)),
                pick(r, 0, 0, 2), pick(r, 0, 0, 1));
        long failed = r.nextInt(5) == 0 ? (long) pick(r, 1, 100, 100_000) : 0;
        WindowFigures.Errors errors = new WindowFigures.Errors(failed, (long) (sent * seconds),
                failed > 0 ? "TimeoutException" : "");
        WindowFigures.Commits commits = r.nextInt(5) == 0 ? new WindowFigures.Commits(producers, 100, 0,
                (long) pick(r, 10, 2_000), pick(r, 1_000, 8_000, 60_000), 50_000, share(r), r.nextInt(saturated + 1))
                : WindowFigures.Commits.NONE;
        return new WindowFigures(load, p, h, c, b, errors, commits);
    }
}
