package io.kbench.coordinator.dashboard;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.protocol.metrics.MetricFamilies;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The live dashboard, served with Vert.x: {@code /} the report page, drawn from the run so far and redrawn
 * on every interval (it listens to {@code /events}, server-sent events), and the final report once the run
 * has its result; {@code /api/run} the state, the workers' health and the intervals so far as JSON;
 * {@code /api/report-data} the page's data; {@code /metrics} the run's merged figures for Prometheus
 * ({@link CoordinatorMetrics}). Read-only; binds where it is told (loopback by default).
 */
public final class DashboardServer implements AutoCloseable {
    private final Vertx vertx;
    private final HttpServer server;
    private final Context context;
    private final List<HttpServerResponse> streams = new CopyOnWriteArrayList<>();
    private final DashboardState state;

    private DashboardServer(Vertx vertx, HttpServer server, Context context, DashboardState state) {
        this.vertx = vertx;
        this.server = server;
        this.context = context;
        this.state = state;
    }

    /**
     * Starts serving {@code state} on {@code host:port} (port 0: a free one).
     *
     * @throws UserException one line when the address cannot be bound
     */
    public static DashboardServer start(String host, int port, DashboardState state) {
        Vertx vertx = Vertx.vertx();
        Context context = vertx.getOrCreateContext();
        HttpServer server = vertx.createHttpServer();
        DashboardServer d = new DashboardServer(vertx, server, context, state);
        server.requestHandler(d::handle);
        try {
            server.listen(port, host).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new UserException("--dashboard " + host + ":" + port + ": cannot listen: " + cause.getMessage());
        }
        state.onChange(d::push);
        return d;
    }

    /** The port it listens on. */
    public int port() {
        return server.actualPort();
    }

    /** Most pages kept informed at once (server-sent events); more are refused with 503. */
    static final int MAX_EVENT_CLIENTS = 32;

    private void handle(HttpServerRequest req) {
        HttpServerResponse res = req.response();
        if (req.method() != io.vertx.core.http.HttpMethod.GET && req.method() != io.vertx.core.http.HttpMethod.HEAD) {
            // read-only: what changes a run is the coordinator's command line, never this page
            res.setStatusCode(405).putHeader("allow", "GET, HEAD").putHeader("content-type", "text/plain")
                    .end("read-only: GET and HEAD only\n");
            return;
        }
        switch (req.path()) {
            // built off the event loop (one at a time, shared by the pages asking within an interval) and outside
            // the lock the merge path takes: a page left open on a long run does not slow the run
            case "/", "/index.html" -> offLoop(res, "text/html; charset=utf-8", () -> state.page(DashboardState.now()));
            case "/api/run" -> {
                int since;
                try {
                    String s = req.getParam("since");
                    since = s == null ? 0 : Integer.parseInt(s.strip());
                } catch (NumberFormatException e) {
                    res.setStatusCode(400).putHeader("content-type", "text/plain")
                            .end("since must be a whole number (an interval index)\n");
                    return;
                }
                int from = since;
                offLoop(res, "application/json", () -> ResultDocument.JSON.writeValueAsString(
                        state.api(DashboardState.now(), from)));
            }
            case "/api/report-data" -> offLoop(res, "application/json", () -> state.reportJson(DashboardState.now()));
            case "/metrics" -> {
                MetricFamilies.Scrape scrape = state.metrics(req.getHeader("accept"), DashboardState.now());
                res.putHeader("content-type", scrape.contentType()).end(Buffer.buffer(scrape.body()));
            }
            case "/events" -> {
                if (streams.size() >= MAX_EVENT_CLIENTS) {
                    res.setStatusCode(503).putHeader("content-type", "text/plain")
                            .end("too many open dashboard pages (at most " + MAX_EVENT_CLIENTS + ")\n");
                    return;
                }
                res.setChunked(true).putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-cache");
                res.write("retry: 1000\n\n");
                streams.add(res);
                res.closeHandler(v -> streams.remove(res));
            }
            default -> res.setStatusCode(404).putHeader("content-type", "text/plain").end("not found\n");
        }
    }

    private void offLoop(HttpServerResponse res, String contentType, java.util.concurrent.Callable<String> body) {
        vertx.executeBlocking(body).onComplete(r -> {
            if (r.succeeded()) {
                res.putHeader("content-type", contentType).end(r.result());
            } else {
                res.setStatusCode(500).putHeader("content-type", "text/plain").end("the dashboard could not build this: "
                        + r.cause().getMessage() + "\n");
            }
        });
    }

    /** Tells every open page that something changed (on the server's own thread). */
    private void push() {
        String message = "data: " + state.state() + "\n\n";
        context.runOnContext(v -> streams.forEach(s -> {
            try {
                s.write(message);
            } catch (IllegalStateException e) {
                streams.remove(s);
            }
        }));
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
