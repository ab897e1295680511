package io.kbench.worker;

import java.io.IOException;
import java.util.Map;

/**
 * The embedded cluster's brokers when each runs in a JVM of its own (kbench's {@code --brokers N}): broker source
 * {@code local:N} is node N, read by asking that node's JVM for its own metrics ({@link #readWith}, set by the
 * process that started the cluster — so only its in-process workers can read them), and each node's JVM reads them
 * with {@link #readThisJvm}, as the source "local" reads a broker in this JVM. Such a source is labelled
 * {@code embedded-N}.
 */
public final class EmbeddedBrokers {
    /** How a node's own figures are asked for: running totals and gauges by name, as {@link JmxBrokerSource} reads. */
    @FunctionalInterface
    public interface Reader {
        Map<String, Double> read(int node, long timeoutMillis) throws IOException;
    }

    private static volatile Reader reader;
    private static JmxBrokerSource local;

    private EmbeddedBrokers() { }

    /** Sets how this process's embedded nodes are read; null when it has none in processes of their own. */
    public static void readWith(Reader r) {
        reader = r;
    }

    /** The broker metrics of this JVM (a node's own, in the node's JVM), opened at the first call. */
    public static synchronized Map<String, Double> readThisJvm() throws IOException {
        if (local == null) {
            local = JmxBrokerSource.open("local", 0, 0);
        }
        return local.read();
    }

    /** The node of a {@code local:N} source, or -1 when {@code spec} is not one. */
    static int node(String spec) {
        return spec.matches("local:[1-9]") ? spec.charAt(6) - '0' : -1;
    }

    /** What a source of node {@code node} shows as its name. */
    static String label(int node) {
        return "embedded-" + node;
    }

    /** Node {@code node}'s figures source; an IOException when this process has no such node to read. */
    static BrokerScraper.Source source(int node, long timeoutMillis) throws IOException {
        Reader r = reader;
        if (r == null) {
            throw new IOException("no embedded broker " + node + " runs from this worker's process (local:N is the "
                    + "embedded cluster kbench run started beside its in-process workers)");
        }
        BrokerScraper.Source s = new BrokerScraper.Source() {
            @Override
            public Map<String, Double> read() throws IOException {
                Reader now = reader; // the cluster a sweep started again
                if (now == null) {
                    throw new IOException("the embedded cluster is stopped");
                }
                return now.read(node, timeoutMillis);
            }

            @Override
            public void close() {
                // the node's JVM is the cluster's to stop
            }
        };
        s.read(); // read while the run is prepared, as every source is
        return s;
    }
}
