package io.kbench.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The starting side of a {@link NodeProcess}: starts the node's JVM on this JVM's class path, waits for it to serve,
 * asks it for its figures and stops it. One thread reads the node's answers into a queue, so that no call waits
 * longer than its own timeout for a node that hangs. Thread-safe: a call at a time holds the conversation.
 */
final class NodeChild {
    /**
     * The node JVM's heap and collector: what {@code kafka-server-start.sh} gives a broker (KAFKA_HEAP_OPTS and
     * KAFKA_JVM_PERFORMANCE_OPTS of Kafka 4.x).
     */
    static final List<String> KAFKA_JVM_OPTIONS = List.of("-Xmx1G", "-Xms1G", "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent",
            "-XX:MaxInlineLevel=15", "-Djava.awt.headless=true");

    private final int id;
    private final Process process;
    private final OutputStream toNode;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    /** Set once told to stop: a figures read then fails at once instead of waiting behind the shutdown. */
    private volatile boolean stopping;
    /**
     * Set once the node said it serves: until then its first answer is {@link #awaitReady}'s, and a figures read fails
     * at once (a read then would take that answer, and the node reads no command before it serves).
     */
    private volatile boolean ready;

    private NodeChild(int id, Process process) {
        this.id = id;
        this.process = process;
        this.toNode = process.getOutputStream();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    answers.add(line);
                }
            } catch (IOException ignored) {
                // the node is gone; a call waiting for it learns so from the process
            }
        }, "kbench-embedded-node-" + id + "-answers");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts node {@code id} of {@code properties} with {@code mainClass}; {@link #awaitReady} waits for it. */
    static NodeChild start(int id, Path properties, String mainClass) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(KAFKA_JVM_OPTIONS);
        command.addAll(inherited(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        // the log levels kbench set for itself (--verbose, --quiet), so that the node logs as an in-JVM one would
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("org.slf4j.simpleLogger.") && !name.equals("org.slf4j.simpleLogger.logFile")) {
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.add(properties.toString());
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        return new NodeChild(id, pb.start());
    }

    /**
     * The options of this JVM a node's JVM takes too: the class-data archive kbench's launcher made (the same class
     * path, so it applies; the JVM starts without it when it does not), its logging switches, huge pages for the
     * heap where the launcher found the kernel offers them, and the launcher's later C2 ({@code -XX:Tier4...}
     * thresholds: a node then compiles as the in-process brokers of {@code --brokers N} do). Nothing else: heap
     * sizes, agents, debuggers, recordings and archive dumps are this JVM's own.
     */
    static List<String> inherited(List<String> options) {
        List<String> out = new ArrayList<>();
        for (String o : options) {
            if (o.startsWith("-XX:SharedArchiveFile=") || o.startsWith("-Xlog:cds") || o.equals("-XX:+UseTransparentHugePages")
                    || o.startsWith("-XX:Tier4") || o.startsWith("-Djava.io.tmpdir=")) {
                out.add(o);
            }
        }
        return out;
    }

    int id() {
        return id;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Waits until the node serves; a node that failed or exited is an IllegalStateException saying why. */
    void awaitReady(long timeoutMillis) throws InterruptedException {
        String answer = next(timeoutMillis);
        if ("ready".equals(answer)) {
            ready = true;
            return;
        }
        process.destroyForcibly();
        if (answer == null) {
            throw new IllegalStateException("node " + id + " " + (process.isAlive() ? "did not start within "
                    + timeoutMillis / 1000 + " s" : "exited with code " + exitCode() + " before serving"));
        }
        throw new IllegalStateException("node " + id + " did not start: "
                + (answer.startsWith("failed ") ? answer.substring(7) : answer));
    }

    /** The node's figures; an IOException when it is stopping, gone, silent for {@code timeoutMillis} or says why not. */
    synchronized Map<String, Double> figures(long timeoutMillis) throws IOException {
        if (stopping || !process.isAlive()) {
            throw new IOException("broker " + id + " is stopped");
        }
        if (!ready) {
            throw new IOException("broker " + id + " is starting");
        }
        answers.clear(); // answers that came too late for earlier calls
        String seq = Long.toString(++requests);
        send("figures " + seq);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            String answer;
            try {
                answer = next(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading broker " + id);
            }
            if (answer == null) {
                throw new IOException(process.isAlive() ? "broker " + id + " did not answer within " + timeoutMillis
                        + " ms" : "broker " + id + "'s process exited with code " + exitCode());
            }
            if (answer.equals("figures " + seq) || answer.startsWith("figures " + seq + " ")) {
                return NodeProcess.decode(answer.substring(Math.min(answer.length(), 9 + seq.length())));
            }
            if (answer.startsWith("error " + seq + " ")) {
                throw new IOException(answer.substring(7 + seq.length()));
            }
            // an earlier request's late answer: not this one's
        }
    }

    /** Figures requests sent, each numbered. */
    private long requests;

    /**
     * Shuts the node down in order and waits for its JVM to exit; after {@code timeoutMillis} it is killed. Returns
     * whether it stopped in order.
     */
    boolean stop(long timeoutMillis) {
        stopping = true;
        synchronized (this) {
            try {
                send("stop");
            } catch (IOException e) {
                // already gone: waited for below
            }
        }
        try {
            if (process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                return process.exitValue() == 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
        return false;
    }

    /**
     * Ends the node's JVM without a controlled shutdown (SIGTERM: the node registers no shutdown hook, so its JVM
     * exits at once) and waits for it to be gone, killing it after 10 s. For a cluster going away as a whole.
     */
    void end() {
        stopping = true;
        process.destroy();
        try {
            if (process.waitFor(10, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
    }

    /** Kills the node's JVM at once and waits for it to be gone (at most 10 s). */
    void kill() {
        stopping = true;
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the node's standard input, as the end of this JVM would (tests: the node then stops by itself). */
    void closeInput() throws IOException {
        toNode.close();
    }

    /** The exit code, or -1 while it runs. */
    int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    private void send(String command) throws IOException {
        toNode.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        toNode.flush();
    }

    /** The next answer, or null when none came within the timeout or the node exited without one. */
    private String next(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            String a = answers.poll(50, TimeUnit.MILLISECONDS);
            if (a != null) {
                return a;
            }
            if (!process.isAlive()) {
                return answers.poll(200, TimeUnit.MILLISECONDS); // its last words, if the reader has them
            }
            if (System.nanoTime() > deadline) {
                return null;
            }
        }
    }
}
