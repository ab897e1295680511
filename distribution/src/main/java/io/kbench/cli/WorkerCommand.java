package io.kbench.cli;

import java.util.concurrent.Callable;

import io.kbench.protocol.MicrosClock;
import io.kbench.worker.WorkerServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kbench worker}: serves runs to coordinators until stopped (Ctrl-C / SIGTERM). */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serves runs to coordinators (one at a time).",
            "",
            "Waits for a coordinator ('kbench run --workers ...') and runs its share of the producers and consumers, streaming histograms back every interval. If the coordinator goes away, the run's load stops within a few seconds."})
public final class WorkerCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "7070", description = "TCP port to listen on (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "0.0.0.0", paramLabel = "ADDR",
            description = "Address to listen on (default: ${DEFAULT-VALUE}, all interfaces).")
    String bind;

    @Option(names = "--id", description = "Worker id in results (default: HOST:PORT).")
    String id;

    @Option(names = "--clock-skew-micros", hidden = true, defaultValue = "0",
            description = "Test only: shift this worker's clock.")
    long skewMicros;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 1 || port > 65535) {
            throw new io.kbench.coordinator.UserException("--port must be 1 to 65535, got " + port);
        }
        WorkerServer server;
        try {
            server = WorkerServer.start(bind, port, id, skewMicros == 0 ? MicrosClock.SYSTEM : new MicrosClock(skewMicros));
        } catch (java.io.UncheckedIOException e) {
            throw new io.kbench.coordinator.UserException(e.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "kbench-worker-shutdown"));
        System.out.println("kbench worker " + server.id() + " listening on " + bind + ":" + server.port());
        server.awaitTermination();
        return 0;
    }
}
