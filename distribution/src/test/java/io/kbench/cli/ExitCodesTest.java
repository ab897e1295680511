package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.cli.ExitCodes;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.workload.ConfigError;
import io.kbench.coordinator.workload.InvalidConfigException;
import org.junit.jupiter.api.Test;

/** The exit code a script sees for each way a command can end (docs/operations.md#exit-codes). */
class ExitCodesTest {
    @Test
    void eachKindOfEndingHasItsCode() {
        assertEquals(ExitCodes.USAGE, Main.exitCode(new UserException("no such file")));
        assertEquals(ExitCodes.UNREACHABLE, Main.exitCode(UserException.unreachable("no broker answered")));
        assertEquals(ExitCodes.USAGE, Main.exitCode(new InvalidConfigException(List.of(
                new ConfigError("w.yaml", 1, 1, "bad")))));
        for (WorkerCallException.Kind k : WorkerCallException.Kind.values()) {
            int want = switch (k) {
                case UNREACHABLE, CLUSTER_UNREACHABLE -> ExitCodes.UNREACHABLE;
                case REFUSED -> ExitCodes.USAGE;
                case FAILED -> ExitCodes.FAILED;
            };
            assertEquals(want, Main.exitCode(new WorkerCallException(k, "w", null)), k.name());
        }
        assertEquals(ExitCodes.INTERNAL, Main.exitCode(new IllegalStateException("a bug")));
        assertEquals(6, ExitCodes.help().size());
    }

    @Test
    void anUnreachableWorkerIs3AndATypoIs2() {
        String quickstart = java.nio.file.Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
                .resolve("workloads/quickstart.yaml").toString();
        InProcessRun.Outcome o = InProcessRun.execute("run", "--workers", "127.0.0.1:1", "--bootstrap-servers",
                "127.0.0.1:9", quickstart);
        assertEquals(ExitCodes.UNREACHABLE, o.exitCode(), o.stderr());
        assertTrue(o.stderr().startsWith("kbench: cannot reach worker 127.0.0.1:1 (identify)"), o.stderr());
        InProcessRun.Outcome typo = InProcessRun.execute("rnu");
        assertEquals(ExitCodes.USAGE, typo.exitCode(), typo.stderr());
    }

    @Test
    void verboseAndQuietSetTheLogLevelsTheLastOneWins() {
        assertEquals(0, Logging.verbosity(new String[] {"run", "w.yaml"}));
        assertEquals(1, Logging.verbosity(new String[] {"run", "-v", "w.yaml"}));
        assertEquals(-1, Logging.verbosity(new String[] {"run", "--verbose", "--quiet", "w.yaml"}));
        assertEquals(0, Logging.verbosity(new String[] {"run", "--", "-q"}), "after --, not an option");
    }

    /**
     * The console of a run on an embedded cluster of three nodes showed Yammer's JMX reporter's warning with a 30-line
     * stack trace (two nodes in one JVM registering one MBean, a race of their start-ups); client refusals kbench says
     * itself. Both stay out of a command's console by default, and out of a broker's for the MBeans.
     */
    @Test
    void shouldKeepTheEmbeddedNodesMBeanCollisionsAndTheClientsLoginErrorsOffTheConsole() {
        String jmx = "org.slf4j.simpleLogger.log.com.yammer.metrics.reporting.JmxReporter";
        String network = "org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient";
        String before = System.getProperty(jmx);
        String beforeNetwork = System.getProperty(network);
        try {
            System.clearProperty(jmx);
            System.clearProperty(network);
            Logging.configure(new String[] {"run", "w.yaml"});
            assertEquals("error", System.getProperty(jmx));
            assertEquals("off", System.getProperty(network));
            System.clearProperty(jmx);
            System.clearProperty(network);
            Logging.configure(new String[] {"broker", "--nodes", "3"});
            assertEquals("error", System.getProperty(jmx));
            assertEquals(null, System.getProperty(network), "a server logs the clients' network errors");
        } finally {
            restore(jmx, before);
            restore(network, beforeNetwork);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
