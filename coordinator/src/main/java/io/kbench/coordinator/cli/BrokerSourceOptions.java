package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

/**
 * Where a run reads the brokers' own metrics from — {@code --broker-jmx} (with its password file and TLS) and
 * {@code --broker-metrics} — a picocli mixin; {@link BrokerSources} checks them.
 */
public final class BrokerSourceOptions {
    @Option(names = "--broker-jmx", paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "Read the brokers' own metrics every interval from their JMX ports (what JMX_PORT opens; a login "
                    + "with --broker-jmx-password-file, TLS with --broker-jmx-tls), from the first worker, and keep them with the run's figures. The embedded "
                    + "brokers are read without it. At most 100 sources in all; each must answer before the load starts.")
    List<String> brokerJmx = new ArrayList<>();

    @Option(names = "--broker-metrics", paramLabel = "URL[,URL...]",
            description = "Read the brokers' own metrics every interval from their JMX exporter's Prometheus endpoint "
                    + "(jmx_prometheus_javaagent, e.g. http://broker-1:7071/metrics; the exporter's default naming or "
                    + "Strimzi's example rules; user:password@ in the URL is sent as basic authentication and never shown), "
                    + "from the first worker, like --broker-jmx.")
    List<String> brokerMetrics = new ArrayList<>();

    @Option(names = "--broker-jmx-password-file", paramLabel = "FILE",
            description = "A JMX password file (the JDK's jmxremote.password format: 'USER PASSWORD') with the login for "
                    + "the --broker-jmx ports that require one (com.sun.management.jmxremote.authenticate=true). Read "
                    + "here, sent to the worker that reads the brokers, never shown.")
    Path brokerJmxPasswordFile;

    @Option(names = "--broker-jmx-tls",
            description = "The --broker-jmx ports use TLS, registry included (com.sun.management.jmxremote.ssl and "
                    + "registry.ssl=true). The worker that reads them trusts the brokers' certificates as the JDK's JMX "
                    + "client does: -Djavax.net.ssl.trustStore=FILE (and a keystore for client authentication) in "
                    + "KBENCH_JAVA_OPTS on its host.")
    boolean brokerJmxTls;

    /**
     * The sources, checked ({@link BrokerSources#check}): each as the worker that reads them takes it.
     *
     * @param embedded the run starts the embedded cluster (read without these options)
     */
    List<String> check(boolean embedded) {
        return BrokerSources.check(Inputs.commaList(brokerJmx), Inputs.commaList(brokerMetrics), embedded,
                brokerJmxPasswordFile, brokerJmxTls);
    }
}
