package io.kbench.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Prometheus server (Debian's {@code prometheus}, which {@code .ci/run} installs when missing) for the
 * metrics tests: started on loopback with its data in a temporary directory, queried over its HTTP API,
 * stopped by its PID. {@link #check} runs {@code promtool check metrics}.
 */
final class Prometheus implements AutoCloseable {
    private static final Path SERVER = Path.of("/usr/bin/prometheus");
    private static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    private Prometheus(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Skips the test with one line when the Prometheus package is not installed. */
    static void require() {
        if (!Files.isExecutable(SERVER) || !Files.isExecutable(PROMTOOL)) {
            String why = "no Prometheus here (" + SERVER + ", " + PROMTOOL + "); .ci/run installs it";
            System.out.println("Prometheus test SKIPPED: " + why);
            Assumptions.abort(why);
        }
    }

    /**
     * Starts a server scraping every target each second ({@code jobs}: job name, then its HOST:PORT targets),
     * and waits until it answers.
     */
    static Prometheus start(Path dir, List<List<String>> jobs) throws IOException, InterruptedException {
        StringBuilder config = new StringBuilder("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                + "scrape_configs:\n");
        for (List<String> job : jobs) {
            config.append("  - job_name: ").append(job.get(0)).append("\n    static_configs:\n      - targets: [");
            config.append(String.join(", ", job.subList(1, job.size()).stream().map(t -> "'" + t + "'").toList()));
            config.append("]\n");
        }
        Path file = Files.writeString(dir.resolve("prometheus.yml"), config.toString());
        int port = KbenchProcesses.freePort();
        Process p = new ProcessBuilder(SERVER.toString(), "--config.file=" + file,
                "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("data")),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        Prometheus prometheus = new Prometheus(p, port);
        try {
            KbenchProcesses.awaitListening(port, p);
            prometheus.awaitReady();
        } catch (RuntimeException | InterruptedException | IOException e) {
            prometheus.close();
            throw e;
        }
        return prometheus;
    }

    /**
     * Waits (at most 60 s) until the server is ready: it listens before its storage is open, and answers queries
     * with 503 "Service Unavailable" until then.
     */
    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            int status;
            try {
                status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready"))
                        .timeout(java.time.Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = -1;
            }
            if (status == 200) {
                return;
            }
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new IOException("Prometheus on port " + port + " was not ready within 60 s (last status " + status + ")");
            }
            Thread.sleep(100);
        }
    }

    /** The result vector of an instant query, now. */
    JsonNode query(String promql) throws IOException, InterruptedException {
        return query(promql, null);
    }

    /** The result vector of an instant query evaluated at {@code time} (epoch seconds; null: now). */
    JsonNode query(String promql, String time) throws IOException, InterruptedException {
        String url = "http://127.0.0.1:" + port + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                + (time == null ? "" : "&time=" + time);
        JsonNode body = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(url)).timeout(java.time.Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        if (!"success".equals(body.path("status").asText())) {
            throw new IOException(promql + ": " + body);
        }
        return body.path("data").path("result");
    }

    /** The scrape targets and their health, as Prometheus sees them. */
    JsonNode targets() throws IOException, InterruptedException {
        return new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/targets")).timeout(java.time.Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
                .body()).path("data")
                .path("activeTargets");
    }

    /** {@code promtool check metrics} on a scrape: its exit code and output (empty when clean). */
    static String check(String exposition) throws IOException, InterruptedException {
        Commands.Result r = Commands.run(List.of(PROMTOOL.toString(), "check", "metrics"), null, null, exposition, 30);
        return "exit " + r.exit() + (r.output().isBlank() ? "" : ": " + r.output().strip());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
