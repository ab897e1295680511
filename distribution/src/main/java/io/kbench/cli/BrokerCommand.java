package io.kbench.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.kbench.embedded.EmbeddedKafka;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kbench broker}: the embedded KRaft broker on its own, for trying kbench against a "cluster". */
@Command(name = "broker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts an embedded Kafka broker for trying kbench.",
            "",
            "A real Kafka broker (KRaft, combined broker+controller) in a temporary directory; serves until stopped (Ctrl-C / SIGTERM), then removes the directory."})
public final class BrokerCommand implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9092", description = "Client port of the first node (default: ${DEFAULT-VALUE}; 0: any free port; the other nodes take free ports).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDR",
            description = "Address to listen on and advertise (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "1", description = "Nodes in the cluster, 1 to 9 (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Override
    public Integer call() throws InterruptedException {
        if (nodes < 1 || nodes > 9) {
            throw new io.kbench.coordinator.UserException("--nodes must be 1 to 9, got " + nodes);
        }
        if (port < 0 || port > 65535) {
            throw new io.kbench.coordinator.UserException("--port must be 0 (any free port) to 65535, got " + port);
        }
        if (host.isBlank()) {
            throw new io.kbench.coordinator.UserException("--host must be an address to listen on and advertise, e.g. "
                    + "127.0.0.1");
        }
        io.kbench.coordinator.cli.Inputs.listenAddress("--host", host, true);
        EmbeddedKafka kafka;
        try {
            kafka = EmbeddedKafka.builder().host(host).port(port).nodes(nodes).start();
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            throw new io.kbench.coordinator.UserException(e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kafka.close();
            stopped.countDown();
        }, "kbench-broker-shutdown"));
        System.out.println("kafka broker ready: bootstrap.servers=" + kafka.bootstrapServers() + " (Ctrl-C to stop)");
        stopped.await();
        return 0;
    }
}
