package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;

/**
 * What the three Kafka perf-tool reporters share: the tool's lines on {@code out}, kbench's own lines
 * ({@link RunEvent.Info}) on {@code err}, and with {@code --print-metrics} the clients' metrics gathered from every
 * worker ({@link RunEvent.ClientMetrics}) to print at the end. Each reporter handles the rest in {@link #event}.
 *
 * <p>kbench's lines name what to change in a workload's keys (the diagnosis's "next:" among them, as result.json
 * keeps it); a tool's user sets them with its flags, so each reporter gives the phrases to print instead
 * ({@link #terms}): {@code (producersPerTopic)} becomes {@code (--producers)} in {@code producer-perf}.
 */
abstract class ToolLinesReporter implements RunReporter {
    protected final PrintStream out;
    protected final PrintStream err;
    /** The clients' metrics for {@code --print-metrics}; null without it. */
    protected final MetricsDumpPrinter metrics;
    private final List<Map.Entry<String, String>> terms;

    /** What every tool says instead of the broker-reading flags of {@code kbench run}, which it does not have. */
    static final Map.Entry<String, String> BROKER_TERMS = Map.entry(io.kbench.coordinator.diagnosis.Diagnosis.BROKER_FLAGS,
            "(this command reads only an embedded broker; kbench run reads others with --broker-jmx or "
                    + "--broker-metrics)");

    /**
     * @param terms phrases of kbench's lines and what this tool prints instead, tried in their order (the longer
     *              phrase first where one holds another)
     */
    ToolLinesReporter(PrintStream out, PrintStream err, boolean printMetrics, List<Map.Entry<String, String>> terms) {
        this.out = out;
        this.err = err;
        this.metrics = printMetrics ? new MetricsDumpPrinter() : null;
        List<Map.Entry<String, String>> t = new ArrayList<>(terms);
        t.add(BROKER_TERMS);
        this.terms = List.copyOf(t);
    }

    /** {@code line} in this tool's terms. */
    final String inTerms(String line) {
        String s = line;
        for (Map.Entry<String, String> t : terms) {
            s = s.replace(t.getKey(), t.getValue());
        }
        return s;
    }

    @Override
    public final void on(RunEvent event) {
        if (event instanceof RunEvent.Info e) {
            synchronized (this) {
                err.println(inTerms(e.line()));
            }
        } else if (event instanceof RunEvent.ClientMetrics e) {
            if (metrics != null) {
                metrics.add(e.dumps());
            }
        } else {
            event(event);
        }
    }

    /** Every other event of the run. */
    protected abstract void event(RunEvent event);
}
