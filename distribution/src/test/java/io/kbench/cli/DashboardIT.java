package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kbench run --dashboard}: a real run on an embedded broker, its dashboard opened in headless
 * Chromium while the run goes on — the page redraws on every interval (server-sent events), its charts gain
 * points, and it ends showing the final report; {@code /api/run} answers with the state and intervals.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DashboardIT {
    @TempDir
    Path dir;

    @Test
    void shouldRedrawTheLiveChartsAsTheRunGoesOnAndEndWithTheFinalReport() throws Exception {
        Path browser = Chromium.require();
        Path workload = Files.writeString(dir.resolve("w.yaml"), """
                name: dash
                topics: 1
                partitionsPerTopic: 3
                messageSize: 100
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                consumersPerSubscription: 1
                producerRate: 1000
                warmupSeconds: 2
                durationSeconds: 10
                """);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/";
        AtomicInteger exit = new AtomicInteger(-1);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            Thread run = new Thread(() -> exit.set(Main.execute("run", "--dashboard", Integer.toString(port),
                    "--dashboard-keep", "3", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    dir.resolve("out").toString(), workload.toString())), "kbench-run");
            run.start();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            JsonNode api = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) { // until the run is under way
                try {
                    api = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(url + "api/run")).build(),
                            HttpResponse.BodyHandlers.ofString()).body());
                    if (api.get("intervals").size() >= 2) {
                        break;
                    }
                } catch (java.io.IOException e) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            assertTrue(api != null && api.get("intervals").size() >= 2, String.valueOf(api));
            assertTrue(api.get("state").asText().matches("warm-up|measuring"), api.toString());
            assertEquals(1, api.get("workers").size(), api.toString());
            // read-only: nothing but GET and HEAD is answered
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(url + "api/run"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode(), post.body());
            assertEquals("GET, HEAD", post.headers().firstValue("allow").orElse(""));

            String dom = Chromium.dumpLiveDom(browser, url, Files.createDirectories(dir.resolve("chromium")));
            run.join(TimeUnit.SECONDS.toMillis(60));
            assertEquals(0, exit.get(), "the run completed");
            Matcher m = Pattern.compile("<pre id=\"kbench-selfcheck\">([^<]*)</pre>").matcher(dom);
            assertTrue(m.find(), dom.substring(0, Math.min(300, dom.length())));
            JsonNode check = new ObjectMapper().readTree(m.group(1).replace("&quot;", "\""));
            assertEquals(0, check.get("errors").size(), check.toString());
            JsonNode history = check.get("history");
            int live = 0;
            int last = -1;
            for (JsonNode h : history) {
                if (!h.get("state").asText().equals("final")) {
                    assertTrue(h.get("points").asInt() >= last, "points never go back: " + history);
                    last = h.get("points").asInt();
                    live++;
                }
            }
            assertTrue(live >= 3, "the open page redrew as intervals came: " + history);
            assertTrue(history.get(history.size() - 1).get("points").asInt() > history.get(0).get("points").asInt(),
                    "and gained points: " + history);
            assertEquals("final", history.get(history.size() - 1).get("state").asText(),
                    "the open page ends on the final report (served --dashboard-keep 3 s after the run): " + history);
            System.out.println("dashboard renders (state, chart points): " + history);
        }
    }
}
