package io.kbench.cli;

/**
 * Log levels for slf4j-simple, set before the first logger is made: the run command's console is for
 * progress lines, so only warnings of kbench and errors of Kafka's clients show (the embedded cluster's own
 * server logs are off); a worker or broker logs kbench's info lines. Any level can be overridden with -Dorg.slf4j.simpleLogger.log.NAME=LEVEL in KBENCH_JAVA_OPTS.
 */
final class Logging {
    private Logging() { }

    static void configure(String[] args) {
        boolean server = args.length > 0 && (args[0].equals("worker") || args[0].equals("broker"));
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
                setDefault("org.slf4j.simpleLogger.log." + serverSide, "off");
            }
        }
        setDefault("org.slf4j.simpleLogger.log.io.kbench", server ? "info" : "warn");
        setDefault("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        setDefault("org.slf4j.simpleLogger.log.kafka", "error");
        setDefault("org.slf4j.simpleLogger.log.state.change.logger", "error");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
