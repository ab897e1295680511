package io.kbench.coordinator.report.console;

import java.io.PrintStream;

import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;

/**
 * What the three Kafka perf-tool reporters share: the tool's lines on {@code out}, kbench's own lines
 * ({@link RunEvent.Info}) on {@code err}, and with {@code --print-metrics} the clients' metrics gathered from every
 * worker ({@link RunEvent.ClientMetrics}) to print at the end. Each reporter handles the rest in {@link #event}.
 */
abstract class ToolLinesReporter implements RunReporter {
    protected final PrintStream out;
    protected final PrintStream err;
    /** The clients' metrics for {@code --print-metrics}; null without it. */
    protected final MetricsDumpPrinter metrics;

    ToolLinesReporter(PrintStream out, PrintStream err, boolean printMetrics) {
        this.out = out;
        this.err = err;
        this.metrics = printMetrics ? new MetricsDumpPrinter() : null;
    }

    @Override
    public final void on(RunEvent event) {
        if (event instanceof RunEvent.Info e) {
            synchronized (this) {
                err.println(e.line());
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
