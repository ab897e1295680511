package io.kbench.worker;

import java.util.concurrent.TimeUnit;

import io.kbench.protocol.metrics.MetricFamilies;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;

/**
 * Serves a worker's {@link WorkerMetrics} at {@code /metrics} with Vert.x (Prometheus text, or OpenMetrics
 * when the scraper asks for it). Read-only; anything else is 404.
 */
public final class MetricsServer implements AutoCloseable {
    private final Vertx vertx;
    private final HttpServer server;

    private MetricsServer(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    /**
     * Listens on {@code host:port} (port 0: a free one).
     *
     * @throws IllegalArgumentException one line when the address cannot be bound
     */
    public static MetricsServer start(String host, int port, WorkerMetrics metrics) {
        Vertx vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(req -> {
            HttpServerResponse res = req.response();
            if (req.method() != io.vertx.core.http.HttpMethod.GET && req.method() != io.vertx.core.http.HttpMethod.HEAD) {
                // read-only, as Prometheus endpoints are
                res.setStatusCode(405).putHeader("allow", "GET, HEAD").putHeader("content-type", "text/plain")
                        .end("read-only: GET and HEAD only\n");
            } else if (req.path().equals("/metrics")) {
                MetricFamilies.Scrape scrape = metrics.families().write(req.getHeader("accept"));
                res.putHeader("content-type", scrape.contentType()).end(Buffer.buffer(scrape.body()));
            } else {
                res.setStatusCode(404).putHeader("content-type", "text/plain").end("not found: try /metrics\n");
            }
        });
        try {
            server.listen(port, host).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("--metrics-port: cannot listen on " + host + ":" + port + ": "
                    + cause.getMessage());
        }
        return new MetricsServer(vertx, server);
    }

    /** The port it listens on. */
    public int port() {
        return server.actualPort();
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
    }
}
