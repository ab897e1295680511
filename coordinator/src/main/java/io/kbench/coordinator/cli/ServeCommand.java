package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.serve.ResultsServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kbench serve}: a directory of results, read-only over HTTP ({@link ResultsServer}). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serves a directory of results read-only over HTTP.",
            "",
            "The page at / lists every run under DIR (its status, workload and start, with links to its report.html and result.json); a directory's path lists its files; a file's path is the file; a directory's path with .zip added is that directory as a zip (/results.zip: all of DIR). For results on a volume nothing with a shell can reach, as the Kubernetes Job's (docs/kubernetes.md: kubectl port-forward, then a browser or curl). Nothing outside DIR is served, symbolic links out of it neither; GET and HEAD only; no authentication, so it listens on a loopback address unless --bind says otherwise. Runs until stopped (Ctrl-C, SIGTERM)."})
public final class ServeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The directory that holds the runs (each a directory written by --output).")
    Path dir;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; kubectl port-forward reaches a loopback address in the pod).")
    String bind;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080", description = "TCP port to listen on (default: ${DEFAULT-VALUE}; 0: any free port).")
    int port;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new UserException("--port must be 0 to 65535, got " + port);
        }
        if (dir.toString().isBlank()) {
            throw new UserException("DIR is empty: give the directory that holds the runs");
        }
        if (bind.isBlank()) {
            throw new UserException("--bind must be an address, e.g. 127.0.0.1 or 0.0.0.0");
        }
        Inputs.listenAddress("--bind", bind);
        ResultsServer server = ResultsServer.start(dir, bind, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "kbench-serve-shutdown"));
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        System.out.println("kbench serve: " + server.root() + " on http://" + host + ":" + server.port()
                + "/ (read-only; Ctrl-C stops it)");
        stopped.await();
        return 0;
    }
}
