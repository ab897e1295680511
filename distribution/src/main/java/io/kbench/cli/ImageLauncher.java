package io.kbench.cli;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.kbench.coordinator.cli.ExitCodes;

/**
 * {@code KBENCH_JAVA_OPTS} in the container image. The archive's {@code bin/kbench} puts that variable's options on
 * the JVM's command line; the image has no shell, its entrypoint is the JVM itself ({@code -Dkbench.launcher=image}),
 * so when the variable is set kbench starts its JVM once more — same runtime, same options, then the variable's
 * (word-split as the launcher's shell does), same class path and arguments — and this JVM only waits for it: its
 * exit code is this one's, SIGTERM (a {@code docker stop}, a pod's deletion) is passed on and waited for. Without
 * the variable nothing is started again.
 */
final class ImageLauncher {
    /** The system property the image's entrypoint sets. */
    static final String PROPERTY = "kbench.launcher";
    static final String IMAGE = "image";
    static final String OPTIONS = "KBENCH_JAVA_OPTS";
    /** How long a stop waits for the JVM started again before this one ends anyway (Docker's own grace is 10 s). */
    private static final long STOP_WAIT_SECONDS = 60;

    private ImageLauncher() {
    }

    /** The JVM command that runs kbench with {@code KBENCH_JAVA_OPTS}, when this JVM is the image's and the variable is set. */
    static Optional<List<String>> command(String launcher, Map<String, String> env, String java, List<String> jvmArguments,
            String classPath, String[] args) {
        String options = env.getOrDefault(OPTIONS, "").strip();
        if (!IMAGE.equals(launcher) || options.isEmpty()) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(java);
        for (String a : jvmArguments) {
            if (!a.equals("-D" + PROPERTY + "=" + IMAGE)) {
                command.add(a);
            }
        }
        command.addAll(List.of(options.split("\\s+")));
        command.add("-cp");
        command.add(classPath);
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return Optional.of(command);
    }

    /**
     * Runs kbench in a JVM of its own when {@link #command} says so, and returns its exit code; empty when this JVM
     * runs kbench itself.
     */
    static Optional<Integer> relaunch(String[] args) {
        Optional<List<String>> command = command(System.getProperty(PROPERTY), System.getenv(),
                ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), System.getProperty("java.class.path"), args);
        if (command.isEmpty()) {
            return Optional.empty();
        }
        Process child;
        try {
            child = new ProcessBuilder(command.get()).inheritIO().start();
        } catch (java.io.IOException e) {
            System.err.println("kbench: cannot start the JVM with " + OPTIONS + ": " + e.getMessage());
            return Optional.of(ExitCodes.INTERNAL);
        }
        Thread stop = new Thread(() -> {
            if (child.isAlive()) {
                child.destroy(); // SIGTERM: kbench stops its load and writes what it has
                try {
                    child.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "kbench-image-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        while (true) {
            try {
                return Optional.of(child.waitFor());
            } catch (InterruptedException e) {
                // keep waiting: only the child's end ends this JVM (or SIGTERM, through the hook)
            }
        }
    }
}
