package io.kbench.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs an external program for a test (ansible, docker, tar, the release archive's launcher) and returns its
 * exit code and output (stdout and stderr together). One that outlives its time is killed, with its
 * children, and reported as an {@link IOException}: a test never leaves a process behind.
 */
final class Commands {
    private Commands() { }

    /** Exit code and combined output. */
    record Result(int exit, String output) { }

    static Result run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        return run(command, null, null, null, timeoutSeconds);
    }

    /**
     * @param env   the whole environment, or null to inherit this JVM's
     * @param dir   the working directory, or null for this JVM's
     * @param input what to write to its standard input, or null for none
     */
    static Result run(List<String> command, Map<String, String> env, Path dir, String input, int timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (env != null) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(output unreadable: " + e.getMessage() + ")";
            }
        });
        try (var stdin = p.getOutputStream()) {
            if (input != null) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException(String.join(" ", command) + ": did not finish within " + timeoutSeconds + " s");
        }
        return new Result(p.exitValue(), out.join());
    }
}
