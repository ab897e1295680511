package io.kbench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code kbench} commands as separate JVM processes from the packaged distribution
 * ({@code target/kbench.jar}), with their output in files under {@code target/it-logs}, and stops every
 * one it started (by PID) on {@link #close()}.
 */
final class KbenchProcesses implements AutoCloseable {
    private final Path jar = Path.of(System.getProperty("basedir", ".")).resolve("target/kbench.jar");
    private final Path logs;
    private final List<Process> started = new ArrayList<>();

    KbenchProcesses(String testName) throws IOException {
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the integration tests with 'mvn verify'");
        }
        logs = Files.createDirectories(jar.getParent().resolve("it-logs").resolve(testName));
    }

    Process start(String name, String... args) throws IOException {
        return startIn(List.of(), name, args);
    }

    /** Starts a kbench command behind {@code prefix} (e.g. {@code ip netns exec NS}, which execs it). */
    Process startIn(List<String> prefix, String name, String... args) throws IOException {
        return start(prefix, List.of(), name, args);
    }

    /** Starts a kbench command behind {@code prefix} with extra JVM options ({@code -Dkey=value}). */
    Process start(List<String> prefix, List<String> jvmOptions, String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(javaBin(), "-Xmx512m"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(logs.resolve(name + ".out").toFile())
                .redirectError(logs.resolve(name + ".err").toFile())
                .start();
        started.add(p);
        return p;
    }

    /** The directory holding every started process's output files. */
    Path logDirectory() {
        return logs;
    }

    String output(String name) throws IOException {
        return Files.readString(logs.resolve(name + ".out"));
    }

    String errors(String name) throws IOException {
        return Files.readString(logs.resolve(name + ".err"));
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until something accepts TCP connections on 127.0.0.1:port. */
    static void awaitListening(int port, Process owner) throws InterruptedException {
        awaitListening("127.0.0.1", port, owner);
    }

    /** Waits until something accepts TCP connections on host:port. */
    static void awaitListening(String host, int port, Process owner) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!owner.isAlive()) {
                throw new IllegalStateException("process exited with " + owner.exitValue() + " before listening on " + port);
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("nothing listening on " + port + " after 30 s");
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : started) {
            p.destroy();
        }
        for (Process p : started) {
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
