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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics endpoints against the real tools: two {@code kbench worker --metrics-port} processes and a
 * coordinator with {@code --dashboard}, scraped every second by a real Prometheus server on loopback while a
 * 2,000 msg/s run goes on. {@code promtool check metrics} passes on every endpoint's output, and Prometheus's
 * own {@code rate()} of the publish counters — the workers' summed, and the coordinator's cluster-wide one —
 * is within 2% of the target.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PrometheusIT {
    private static final int RATE = 2_000;

    @TempDir
    Path dir;

    @Test
    void shouldBeScrapedByARealPrometheusWhoseRateMatchesTheTarget() throws Exception {
        Prometheus.require();
        Path workload = Files.writeString(dir.resolve("scraped.yaml"), """
                name: scraped
                topics: 1
                partitionsPerTopic: 4
                messageSize: 200
                producersPerTopic: 2
                subscriptionsPerTopic: 1
                consumersPerSubscription: 2
                producerRate: %d
                warmupSeconds: 3
                durationSeconds: 18
                """.formatted(RATE));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             KbenchProcesses procs = new KbenchProcesses("prometheus")) {
            int p1 = KbenchProcesses.freePort();
            int p2 = KbenchProcesses.freePort();
            int m1 = KbenchProcesses.freePort();
            int m2 = KbenchProcesses.freePort();
            int dash = KbenchProcesses.freePort();
            Process w1 = procs.start("worker-1", "worker", "--bind", "127.0.0.1", "--port", "" + p1, "--id", "w1",
                    "--metrics-port", "" + m1);
            Process w2 = procs.start("worker-2", "worker", "--bind", "127.0.0.1", "--port", "" + p2, "--id", "w2",
                    "--metrics-port", "" + m2);
            KbenchProcesses.awaitListening(m1, w1);
            KbenchProcesses.awaitListening(m2, w2);
            KbenchProcesses.awaitListening(p1, w1);
            KbenchProcesses.awaitListening(p2, w2);
            try (Prometheus prometheus = Prometheus.start(Files.createDirectories(dir.resolve("prometheus")), List.of(
                    List.of("kbench-coordinator", "127.0.0.1:" + dash),
                    List.of("kbench-workers", "127.0.0.1:" + m1, "127.0.0.1:" + m2)))) {
                Process coordinator = procs.start("coordinator", "run", "--workers", "127.0.0.1:" + p1 + ",127.0.0.1:"
                        + p2, "--dashboard", "127.0.0.1:" + dash, "--dashboard-keep", "3", "--bootstrap-servers",
                        kafka.bootstrapServers(), "--output", dir.resolve("out").toString(), workload.toString());

                // once Prometheus holds a few measured intervals, each endpoint's live output (histograms filled) is
                // read once for promtool
                long start = System.nanoTime();
                StringBuilder seen = new StringBuilder();
                double intervals = 0;
                while (intervals < 6) {
                    assertTrue(coordinator.isAlive(), () -> "the run ended before Prometheus held 6 merged intervals; "
                            + "seen:" + seen + "\n" + read(procs));
                    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60), () -> "Prometheus held fewer "
                            + "than 6 merged intervals after 60 s; seen:" + seen + "\n" + raw(prometheus));
                    JsonNode r = prometheus.query("kbench_intervals_total{job=\"kbench-coordinator\"}");
                    intervals = r.isEmpty() ? 0 : r.get(0).get("value").get(1).asDouble();
                    seen.append(String.format(" %.1fs:%.0f", (System.nanoTime() - start) / 1e9, intervals));
                    Thread.sleep(500);
                }
                Map<Integer, String> bodies = new LinkedHashMap<>();
                for (int port : new int[] {dash, m1, m2}) {
                    bodies.put(port, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body());
                    // read-only, as Prometheus endpoints are
                    assertEquals(405, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                            .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                            HttpResponse.BodyHandlers.ofString()).statusCode(), "POST on port " + port);
                }
                assertTrue(coordinator.waitFor(90, TimeUnit.SECONDS), "coordinator did not finish");
                assertEquals(0, coordinator.exitValue(), () -> "coordinator failed:\n" + read(procs));

                // every endpoint's output passes promtool's own checks (format and naming conventions)
                for (Map.Entry<Integer, String> e : bodies.entrySet()) {
                    assertEquals("exit 0", Prometheus.check(e.getValue()), "promtool check metrics on port " + e.getKey()
                            + ":\n" + e.getValue());
                }

                // The queries are evaluated at the first scrape of the coordinator that found 16 merged intervals (3 of
                // warm-up, then 13 measured; the run has 21): a moment inside the measured window read from the
                // coordinator's own answer, so the checks do not race the run's end when the machine is slow.
                JsonNode samples = prometheus.query("kbench_intervals_total{job=\"kbench-coordinator\"}[5m]");
                assertEquals(1, samples.size(), samples.toString());
                String at = null;
                for (JsonNode sample : samples.get(0).get("values")) {
                    if (sample.get(1).asDouble() >= 16) {
                        at = sample.get(0).decimalValue().toPlainString();
                        break;
                    }
                }
                assertTrue(at != null, "Prometheus never held 16 merged intervals: " + samples);
                String when = at;
                StringBuilder scraped = new StringBuilder("the coordinator's merged intervals as Prometheus scraped them "
                        + "(time: count):");
                for (JsonNode sample : samples.get(0).get("values")) {
                    scraped.append(' ').append(sample.get(0).decimalValue().toPlainString()).append(": ")
                            .append(sample.get(1).asText());
                }
                String timeline = scraped + "\nthe test's own polls (seconds since the coordinator started: count):" + seen;
                // every target answered its scrapes around that moment
                JsonNode up = prometheus.query("min_over_time(up[10s])", when);
                assertEquals(3, up.size(), up.toString());
                for (JsonNode t : up) {
                    assertEquals(1, t.get("value").get(1).asDouble(), () -> "a failed scrape: " + up + "\n" + timeline);
                }

                // the workers' counters are live: rate() over them, as a dashboard would ask
                double sent = value(prometheus.query("sum(rate(kbench_worker_messages_sent_total[10s]))", when));
                double acked = value(prometheus.query("sum(rate(kbench_worker_messages_acked_total[10s]))", when));
                // the coordinator's merged counters step once per interval, and carry no timestamp of their own
                // (staleness works): read per merged interval, the acknowledged count over the interval count moves
                // in the same steps, so no aliasing against the scrape (docs/metrics.md says why and how to read them)
                double cluster = value(prometheus.query(
                        "sum(increase(kbench_messages_acked_total{job=\"kbench-coordinator\"}[10s])) / "
                                + "sum(increase(kbench_intervals_total{job=\"kbench-coordinator\"}[10s]))", when));
                System.out.printf("Prometheus rate() over 10 s at %s: workers' sent %.1f msg/s, acked %.1f msg/s; "
                        + "cluster-wide acked %.1f msg per 1-s interval (target %d)%n", when, sent, acked, cluster, RATE);
                assertEquals(RATE, sent, RATE * 0.02, () -> "the publish rate, from the workers' live counters; "
                        + "samples: " + raw(prometheus, "kbench_worker_messages_sent_total[12s]", when) + "\n" + timeline);
                assertEquals(RATE, acked, RATE * 0.02, () -> "the acknowledged rate, from the workers' live counters\n"
                        + timeline);
                assertEquals(RATE, cluster, RATE * 0.02, () -> "the cluster-wide acknowledged rate; samples: "
                        + raw(prometheus, "kbench_messages_acked_total[12s]", when) + "\n" + timeline);
                assertEquals(RATE, value(prometheus.query("kbench_target_messages_per_second", when)), 0.001);
                assertEquals(2, value(prometheus.query(
                        "count(kbench_worker_run_state{state=\"running\"} == 1)", when)), "both workers running");
                // latency histograms: the coordinator's (all workers merged) and the workers' own, summed by bucket
                // (what histograms are for) say the same p99 within a bucket
                JsonNode p99 = prometheus.query("histogram_quantile(0.99, sum by (le, workload) "
                        + "(rate(kbench_publish_response_time_seconds_bucket[10s])))", when);
                assertEquals(1, p99.size(), p99.toString());
                double p99Seconds = value(p99);
                assertTrue(p99Seconds > 0 && p99Seconds < 5, "p99 " + p99Seconds);
                assertEquals("scraped", p99.get(0).get("metric").get("workload").asText());
                double workersP99 = value(prometheus.query("histogram_quantile(0.99, sum by (le) "
                        + "(rate(kbench_worker_publish_response_time_seconds_bucket[10s])))", when));
                System.out.printf("p99 response time from the buckets: coordinator %.4f s, workers summed %.4f s%n",
                        p99Seconds, workersP99);
                assertTrue(workersP99 > p99Seconds / 2.5 && workersP99 < p99Seconds * 2.5,
                        "the workers' summed buckets and the coordinator's agree within a bucket: " + workersP99 + " / "
                                + p99Seconds);

                // the workers' processes as they run: each one's CPU as a share of its processors from its counter,
                // and the coordinator's busiest worker of the last interval, both real shares
                JsonNode cpu = prometheus.query("rate(kbench_worker_process_cpu_seconds_total[10s]) / on (worker, run_id) "
                        + "kbench_worker_processors", when);
                assertEquals(2, cpu.size(), cpu.toString());
                for (JsonNode w : cpu) {
                    double share = w.get("value").get(1).asDouble();
                    assertTrue(share > 0 && share <= 1, "a worker's CPU share: " + cpu);
                }
                double busiest = value(prometheus.query("kbench_workers_cpu_max_ratio", when));
                double hostBusy = value(prometheus.query("kbench_workers_host_busy_max_ratio", when));
                System.out.printf("workers' CPU over 10 s: %s; the busiest in the last interval %.3f, its host %.3f%n",
                        cpu, busiest, hostBusy);
                assertTrue(busiest > 0 && busiest <= 1 && hostBusy > 0 && hostBusy <= 1, busiest + " / " + hostBusy);

                // the workers, still up, say their runs ended normally (once Prometheus has scraped them since)
                JsonNode done = null;
                for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); System.nanoTime() < end; ) {
                    done = prometheus.query("kbench_worker_run_state{state=\"ended\"} == 1");
                    if (done.size() == 2) {
                        break;
                    }
                    Thread.sleep(250);
                }
                assertEquals(2, done.size(), "both workers' runs ended normally: " + done);
            }
        }
    }

    private static double value(JsonNode vector) {
        assertEquals(1, vector.size(), vector.toString());
        return vector.get(0).get("value").get(1).asDouble();
    }

    private static String raw(Prometheus prometheus, String query, String time) {
        try {
            return prometheus.query(query, time).toString();
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** The scrape targets as Prometheus sees them (health, last error, last scrape's duration). */
    private static String raw(Prometheus prometheus) {
        try {
            return "targets: " + prometheus.targets();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String read(KbenchProcesses procs) {
        try {
            return procs.output("coordinator") + procs.errors("coordinator");
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
