package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.kbench.protocol.ClientMetricsDump;

/**
 * Prints clients' metrics as the Kafka tools' {@code --print-metrics} does (ToolsUtils.printMetrics of Kafka
 * 4.3.1): an empty line, a {@code Metric Name   Value} header, then one {@code name : value} line per metric,
 * names padded to the longest. One such block per client, producers first, each in index order: with one
 * client (the tools' case) the output is the tool's; with several, each client's block is whole (their
 * metrics differ by the client-id tag, and averaged metrics cannot be added).
 */
public final class MetricsDumpPrinter {
    /**
     * Most clients a run may print (one block each, each up to ~150 KB on a large cluster, all in the workers'
     * last snapshots): the commands refuse more before the run starts.
     */
    public static final int MAX_CLIENTS = 100;

    private final List<ClientMetricsDump> dumps = new ArrayList<>();

    /** Adds one worker's dumps (gRPC threads). */
    public synchronized void add(List<ClientMetricsDump> more) {
        dumps.addAll(more);
    }

    /** Prints every block gathered; nothing when no client reported metrics. */
    public synchronized void print(PrintStream out) {
        dumps.sort(Comparator.comparing((ClientMetricsDump d) -> !d.kind().equals("producer"))
                .thenComparingInt(ClientMetricsDump::index));
        for (ClientMetricsDump d : dumps) {
            if (d.values().isEmpty()) {
                continue;
            }
            int width = d.values().keySet().stream().mapToInt(String::length).max().orElse(0);
            out.println();
            out.println(String.format("%-" + width + "s   %s", "Metric Name", "Value"));
            for (Map.Entry<String, String> e : d.values().entrySet()) {
                out.println(String.format("%-" + width + "s : %s", e.getKey(), e.getValue()));
            }
        }
    }
}
