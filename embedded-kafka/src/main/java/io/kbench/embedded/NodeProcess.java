package io.kbench.embedded;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * One node of an embedded cluster in a JVM of its own ({@link EmbeddedKafka.Builder#processPerNode}): what a
 * {@code kafka-server-start.sh} of that node's properties would run, talked to over its standard input and output by
 * the JVM that started it ({@link NodeChild}). A broker in a process of its own has its own metrics registry, heap,
 * collector and CPU, so its figures are its own: brokers sharing one JVM share Kafka's metrics registry and read as
 * one.
 *
 * <p>The conversation, a line each way: the node says {@code ready} once serving (or {@code failed REASON} and exits
 * 1); to {@code figures SEQ} it answers {@code figures SEQ NAME=VALUE ...} (its metrics read by the {@link Figures}
 * given to {@link #serve}) or {@code error SEQ REASON} — the request's number, so that an answer that came too late
 * for its request is never taken for the next one's; to {@code stop} it shuts down in order, answers {@code stopped} and exits 0.
 * When its standard input closes (the JVM that started it is gone, even killed) it shuts down within
 * {@link #ORPHAN_STOP_MILLIS} and exits: an embedded broker never outlives its run. Its log goes to standard error.
 */
public final class NodeProcess {
    /** A node's own metrics, as running totals and gauges by name (no spaces or '=' in a name). */
    @FunctionalInterface
    public interface Figures {
        Map<String, Double> read() throws IOException;
    }

    /** Longest an orphaned node (its starter gone) takes to shut down before it halts. */
    static final long ORPHAN_STOP_MILLIS = 15_000;

    private NodeProcess() { }

    /** A node without figures (they are read by the worker module, which this one may not depend on). */
    public static void main(String[] args) {
        serve(args, null);
    }

    /**
     * Runs the node of the properties file {@code args[0]} (formatted storage) until told to stop or orphaned, and
     * exits the JVM.
     *
     * @param figures opens the node's figures reader, once, at the first {@code figures}; null: none
     */
    public static void serve(String[] args, Supplier<Figures> figures) {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // whatever else prints goes with the log, not into the conversation
        KafkaRaftServer server;
        try {
            if (args.length != 1) {
                throw new IllegalArgumentException("usage: NodeProcess NODE.properties");
            }
            Properties props = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
                props.load(in);
            }
            server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM);
            server.startup();
        } catch (Throwable e) {
            protocol.println("failed " + oneLine(e));
            Runtime.getRuntime().halt(1);
            return;
        }
        protocol.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Figures reader = null;
        try {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.matches("figures [0-9]{1,18}")) {
                    String seq = line.substring(8);
                    try {
                        if (figures == null) {
                            throw new IOException("this node reads no figures");
                        }
                        if (reader == null) {
                            reader = figures.get();
                        }
                        String read = encode(reader.read());
                        protocol.println("figures " + seq + (read.isEmpty() ? "" : " " + read));
                    } catch (Exception e) {
                        protocol.println("error " + seq + " " + oneLine(e));
                    }
                } else if (line.equals("stop")) {
                    server.shutdown();
                    server.awaitShutdown();
                    protocol.println("stopped");
                    Runtime.getRuntime().halt(0);
                } else {
                    protocol.println("error unknown command: " + line.substring(0, Math.min(40, line.length())));
                }
            }
        } catch (IOException e) {
            // standard input broken: as good as closed
        }
        // orphaned: stop in order if it can be done quickly (the other nodes may be going away too), else halt
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(ORPHAN_STOP_MILLIS);
            } catch (InterruptedException ignored) {
                // halting now is as good
            }
            Runtime.getRuntime().halt(0);
        }, "kbench-node-orphan-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        server.shutdown();
        server.awaitShutdown();
        Runtime.getRuntime().halt(0);
    }

    /** {@code NAME=VALUE ...}; a name with a space or '=' is left out (it could not be read back). */
    static String encode(Map<String, Double> figures) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Double> e : figures.entrySet()) {
            String name = e.getKey();
            if (name.isEmpty() || name.indexOf(' ') >= 0 || name.indexOf('=') >= 0 || e.getValue() == null) {
                continue;
            }
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(name).append('=').append(e.getValue().doubleValue());
        }
        return b.toString();
    }

    /** What {@link #encode} wrote; a malformed pair is an IOException. */
    static Map<String, Double> decode(String line) throws IOException {
        Map<String, Double> out = new java.util.HashMap<>();
        if (line.isEmpty()) {
            return out;
        }
        for (String pair : line.split(" ")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IOException("a malformed figure from the node: " + pair);
            }
            try {
                out.put(pair.substring(0, eq), Double.parseDouble(pair.substring(eq + 1)));
            } catch (NumberFormatException e) {
                throw new IOException("a malformed figure from the node: " + pair);
            }
        }
        return out;
    }

    /** A throwable's root message on one line. */
    static String oneLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getClass().getSimpleName() + ": " + t.getMessage();
        return m.replace('\n', ' ').replace('\r', ' ');
    }
}
