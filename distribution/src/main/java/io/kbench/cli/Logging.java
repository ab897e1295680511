package io.kbench.cli;

/**
 * Log levels for slf4j-simple, set before the first logger is made: the run command's console is for
 * progress lines, so only warnings of kbench and errors of Kafka's clients show (the embedded cluster's own
 * server logs are off); a worker or broker logs kbench's info lines. {@code --verbose} logs more (kbench's info lines,
 * the clients' and the embedded cluster's warnings), {@code --quiet} errors only. Any level can still be overridden
 * with -Dorg.slf4j.simpleLogger.log.NAME=LEVEL in KBENCH_JAVA_OPTS.
 */
final class Logging {
    /** The options every command takes (Main adds them to each command's spec). */
    static final String[] VERBOSE = {"-v", "--verbose"};
    static final String[] QUIET = {"-q", "--quiet"};

    private Logging() { }

    /** -1 quiet, 0 default, 1 verbose: the last of the options given before a {@code --} wins. */
    static int verbosity(String[] args) {
        int v = 0;
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            if (java.util.List.of(VERBOSE).contains(a)) {
                v = 1;
            } else if (java.util.List.of(QUIET).contains(a)) {
                v = -1;
            }
        }
        return v;
    }

    static void configure(String[] args) {
        boolean server = args.length > 0 && (args[0].equals("worker") || args[0].equals("broker"));
        int verbosity = verbosity(args);
        setDefault("org.slf4j.simpleLogger.logFile", "System.err");
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        if (!server) {
            // the embedded cluster of a run is kbench's own: its nodes' logs (a multi-node cluster shutting
            // down logs raft resignation timeouts and request races with stack traces) are not the run's
            // business; a fatal fault still shows through io.kbench.embedded, client errors through the run
            for (String serverSide : new String[] {"kafka", "state.change.logger", "org.apache.kafka.raft",
                "org.apache.kafka.controller", "org.apache.kafka.server", "org.apache.kafka.storage",
                "org.apache.kafka.metadata", "org.apache.kafka.image", "org.apache.kafka.coordinator"}) {
                setDefault("org.slf4j.simpleLogger.log." + serverSide, verbosity > 0 ? "warn" : "off");
            }
            // the clients' network layer logs a refused login as an ERROR line (and a worker's log keeps it), but a
            // command's in-process clients report it as kbench's one line saying what to check; its other ERROR is
            // an internal fault of the client, not the run's (the run's sends and polls report their own errors)
            setDefault("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", verbosity > 0 ? "warn"
                    : "off");
        }
        // several nodes in one JVM (an embedded cluster) share Yammer's metrics registry, and two start-ups adding the
        // same metric at once both ask its JMX reporter to register it: the second is refused and logged as a warning
        // with its stack trace. The MBean the first registered is that same shared metric, which kbench reads; the
        // reporter's errors still show
        setDefault("org.slf4j.simpleLogger.log.com.yammer.metrics.reporting.JmxReporter", verbosity < 0 ? "off" : "error");
        String kafka = verbosity > 0 ? "warn" : verbosity < 0 ? "off" : "error";
        setDefault("org.slf4j.simpleLogger.log.io.kbench", verbosity > 0 || server && verbosity == 0 ? "info"
                : verbosity < 0 ? "error" : "warn");
        setDefault("org.slf4j.simpleLogger.log.org.apache.kafka", kafka);
        setDefault("org.slf4j.simpleLogger.log.kafka", kafka);
        setDefault("org.slf4j.simpleLogger.log.state.change.logger", kafka);
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
