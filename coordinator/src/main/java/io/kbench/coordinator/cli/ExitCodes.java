package io.kbench.coordinator.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kbench's exit codes, the same for every command, so that a script can act on them (docs/operations.md#exit-codes):
 * each command's {@code --help} lists them.
 */
public final class ExitCodes {
    /** Done: the run completed, the gates held, the file was written. */
    public static final int OK = 0;
    /** The run failed (its results so far are written, status FAILED), or a gate was breached or refused. */
    public static final int FAILED = 1;
    /** Bad input: the command line, a workload, a profile, a file, a value. Nothing was started. */
    public static final int USAGE = 2;
    /** The environment is unreachable: a Kafka broker or a worker did not answer. Nothing was started. */
    public static final int UNREACHABLE = 3;
    /** An internal error: a bug in kbench (its stack trace follows the message). */
    public static final int INTERNAL = 4;
    /**
     * Stopped by Ctrl-C (SIGINT); SIGTERM is 143. Not returned by kbench: the JVM ends a process a signal stopped with
     * 128 + the signal's number, as a shell expects, after kbench's shutdown hook has written the run's results.
     */
    public static final int INTERRUPTED = 130;

    private ExitCodes() { }

    /** The list every {@code --help} shows, code to meaning. */
    public static Map<String, String> help() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(OK + "", "success");
        m.put(FAILED + "", "the run failed (results so far written, status FAILED), or a gate was breached or refused");
        m.put(USAGE + "", "bad input: command line, workload, profile, file or value; nothing started");
        m.put(UNREACHABLE + "", "unreachable: a Kafka broker or a worker did not answer; nothing started");
        m.put(INTERNAL + "", "internal error (a bug: please report it with the stack trace)");
        m.put(INTERRUPTED + "", "stopped by Ctrl-C (143: by SIGTERM); a run's results so far written, status FAILED");
        return m;
    }
}
