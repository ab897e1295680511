package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.Versions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image, for real: built by {@code deployment/container/build-image.sh} from the release archive
 * (nothing pulled), two worker containers on their own container network — non-root, the token mounted
 * read-only, the heap sized from the container's memory limit — and the coordinator on the host: a short run
 * completes with both workers' shares, one worker's heap set by KBENCH_JAVA_OPTS; the image's labels and profiles;
 * and {@code kbench serve} in a container serving the run's results. Containers, network and image are removed
 * afterwards; a Docker daemon this test started is stopped by its PID.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ContainerImageIT {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path dir;

    @Test
    void shouldRunTwoWorkerContainersForACoordinatorOnTheHost() throws Exception {
        try (Docker docker = Docker.require(dir)) {
            String image = "kbench-it:" + PID;
            String network = "kbench-it-" + PID;
            List<String> containers = new ArrayList<>();
            try {
                Path archive = ROOT.resolve("distribution/target/kbench-" + Versions.kbench() + ".tar.gz");
                Commands.Result built = run(List.of(ROOT.resolve("deployment/container/build-image.sh").toString(), "--tool",
                        "docker", "--tag", image, "--source", "https://example.invalid/kbench.git", archive.toString()), 180);
                assertEquals(0, built.exit(), built.output());
                System.out.println(built.output().strip());
                assertEquals("10001:10001", docker.out("image", "inspect", "-f", "{{.Config.User}}", image));
                // the OCI labels, from the Dockerfile's LABEL line with the archive's version and commit
                JsonNode labels = new ObjectMapper().readTree(docker.out("image", "inspect", "-f", "{{json .Config.Labels}}", image));
                assertEquals(Versions.kbench(), labels.path("org.opencontainers.image.version").asText(), labels.toString());
                assertEquals(Versions.commit(), labels.path("org.opencontainers.image.revision").asText(), labels.toString());
                assertEquals("https://example.invalid/kbench.git", labels.path("org.opencontainers.image.source").asText());
                assertEquals("Apache-2.0", labels.path("org.opencontainers.image.licenses").asText());
                // the client profiles and the licences are in the image
                assertTrue(docker.out("run", "--rm", image, "validate", "/opt/kbench/deployment/kafka/throughput.yaml")
                        .startsWith("ok: /opt/kbench/deployment/kafka/throughput.yaml (profile"));
                assertEquals("kbench " + Versions.kbench() + " (" + (Versions.commit().isEmpty() ? ""
                        : "commit " + Versions.commit() + ", ") + "protocol " + Versions.PROTOCOL + ")",
                        docker.out("run", "--rm", image, "--version"));

                docker.out("network", "create", network);
                String gateway = docker.out("network", "inspect", "-f", "{{(index .IPAM.Config 0).Gateway}}", network);
                Path token = Files.writeString(dir.resolve("token"), "container-test-token-0123456789abcdef\n");
                Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--")); // for uid 10001
                List<String> workers = new ArrayList<>();
                try (EmbeddedKafka kafka = EmbeddedKafka.builder().host(gateway).start()) {
                    for (String w : List.of("w1", "w2")) {
                        String name = network + "-" + w;
                        containers.add(name);
                        // w2 with KBENCH_JAVA_OPTS, as the archive's launcher takes it: its heap is 200 MiB, not 75% of the limit
                        List<String> runArgs = new ArrayList<>(List.of("run", "-d", "--name", name, "--network", network,
                                "--memory", "768m", "-v", token + ":/etc/kbench/token:ro"));
                        if (w.equals("w2")) {
                            runArgs.addAll(List.of("-e", "KBENCH_JAVA_OPTS=-Xmx200m -Dkbench.test=x"));
                        }
                        runArgs.addAll(List.of(image, "worker", "--port", "7070", "--id", w, "--token-file", "/etc/kbench/token"));
                        docker.out(runArgs.toArray(new String[0]));
                        String ip = docker.out("inspect", "-f", "{{(index .NetworkSettings.Networks \"" + network
                                + "\").IPAddress}}", name);
                        workers.add(ip + ":7070");
                    }
                    for (String w : workers) {
                        awaitListening(w.substring(0, w.indexOf(':')));
                    }
                    Path workload = Files.writeString(dir.resolve("containers.yaml"), "name: containers\ntopics: 1\n"
                            + "partitionsPerTopic: 4\nmessageSize: 200\nproducersPerTopic: 2\nsubscriptionsPerTopic: 1\n"
                            + "consumersPerSubscription: 2\nproducerRate: 1000\nwarmupSeconds: 2\ndurationSeconds: 4\n");
                    assertEquals(0, Main.execute("run", "--workers", String.join(",", workers), "--insecure", "--token-file",
                            token.toString(), "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                            dir.resolve("results/run1").toString(), workload.toString()));
                    System.out.println(docker.out("top", network + "-w2", "-o", "pid,rss,args"));
                }
                JsonNode result = new ObjectMapper().readTree(dir.resolve("results/run1/result.json").toFile());
                assertEquals("COMPLETED", result.get("status").asText());
                long sum = 0;
                for (JsonNode w : result.get("workers")) {
                    assertTrue(workers.contains(w.get("address").asText()), w.toString());
                    assertTrue(w.get("acked").asLong() > 0, "each container ran its share: " + result.get("workers"));
                    sum += w.get("acked").asLong();
                }
                assertEquals(result.get("summary").get("acked").asLong(), sum);
                for (JsonNode h : result.get("provenance").get("workers")) {
                    long heap = h.get("host").get("maxHeapBytes").asLong();
                    assertEquals(768L << 20, h.get("host").get("memoryBytes").asLong(), "the container's limit: " + h);
                    if (h.get("id").asText().equals("w2")) {
                        assertTrue(heap > (190L << 20) && heap <= (200L << 20), "-Xmx200m from KBENCH_JAVA_OPTS: " + h);
                    } else {
                        assertTrue(heap > 0.65 * (768L << 20) && heap <= 0.75 * (768L << 20), "heap from the limit: " + h);
                    }
                }

                // kbench serve in the image: the results directory, mounted read-only, served to a browser or curl
                String reader = network + "-serve";
                containers.add(reader);
                docker.out("run", "-d", "--name", reader, "-p", "127.0.0.1::8080", "-v", dir.resolve("results") + ":/results:ro",
                        image, "serve", "/results", "--bind", "0.0.0.0");
                String published = docker.out("port", reader, "8080").lines().findFirst().orElseThrow();
                java.net.URI base = java.net.URI.create("http://" + published + "/");
                java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
                String index = awaitPage(http, base);
                assertTrue(index.contains(">run1</a></td><td class=\"completed\">COMPLETED</td><td>containers</td>"), index);
                var report = http.send(java.net.http.HttpRequest.newBuilder(base.resolve("run1/report.html")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, report.statusCode());
                assertEquals(Files.readString(dir.resolve("results/run1/report.html")), report.body());
                var zip = http.send(java.net.http.HttpRequest.newBuilder(base.resolve("run1.zip")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofInputStream());
                List<String> names = new ArrayList<>();
                try (java.util.zip.ZipInputStream z = new java.util.zip.ZipInputStream(zip.body())) {
                    for (java.util.zip.ZipEntry e; (e = z.getNextEntry()) != null; ) {
                        names.add(e.getName());
                    }
                }
                assertTrue(names.contains("run1/result.json") && names.contains("run1/report.html"), names.toString());
            } finally {
                for (String c : containers) {
                    docker.quietly("rm", "-f", c);
                }
                docker.quietly("network", "rm", network);
                docker.quietly("image", "rm", "-f", image);
            }
            assertEquals("", docker.out("ps", "-aq", "--filter", "name=" + network), "no container left");
        }
    }

    private static String awaitPage(java.net.http.HttpClient http, java.net.URI uri) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                var r = http.send(java.net.http.HttpRequest.newBuilder(uri).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return r.body();
                }
            } catch (IOException notYet) {
                // starting
            }
            assertTrue(System.nanoTime() < deadline, "kbench serve did not answer at " + uri + " within 60 s");
            Thread.sleep(200);
        }
    }

    private static void awaitListening(String host) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress(host, 7070), 200);
                return;
            } catch (IOException notYet) {
                assertTrue(System.nanoTime() < deadline, "no worker listening on " + host + ":7070 after 60 s");
                Thread.sleep(200);
            }
        }
    }

    private static Commands.Result run(List<String> command, int seconds) throws Exception {
        return Commands.run(command, seconds);
    }

    /** The Docker CLI, and the daemon: the running one, or one this test starts (and stops by its PID). */
    private static final class Docker implements AutoCloseable {
        private final String cli;
        private final Process daemon;

        private Docker(String cli, Process daemon) {
            this.cli = cli;
            this.daemon = daemon;
        }

        static Docker require(Path dir) throws Exception {
            String cli = null;
            for (String c : List.of("/usr/bin/docker", "/usr/local/bin/docker")) {
                if (Files.isExecutable(Path.of(c))) {
                    cli = c;
                    break;
                }
            }
            if (cli == null) {
                skip("no docker CLI here; .ci/run installs docker.io");
            }
            if (run(List.of(cli, "info"), 30).exit() == 0) {
                return new Docker(cli, null);
            }
            if (!Files.isExecutable(Path.of("/usr/sbin/dockerd")) || !"0".equals(uid())) {
                skip("no Docker daemon running and none to start (needs dockerd and root)");
            }
            Process d = new ProcessBuilder("/usr/sbin/dockerd").redirectErrorStream(true)
                    .redirectOutput(dir.resolve("dockerd.log").toFile()).start();
            Docker docker = new Docker(cli, d);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (run(List.of(cli, "info"), 30).exit() != 0) {
                if (!d.isAlive() || System.nanoTime() > deadline) {
                    docker.close();
                    throw new IOException("dockerd did not start: " + Files.readString(dir.resolve("dockerd.log")));
                }
                Thread.sleep(250);
            }
            return docker;
        }

        String out(String... args) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(cli));
            cmd.addAll(List.of(args));
            Commands.Result r = run(cmd, 120);
            assertEquals(0, r.exit(), String.join(" ", cmd) + ": " + r.output());
            return r.output().strip();
        }

        void quietly(String... args) {
            try {
                List<String> cmd = new ArrayList<>(List.of(cli));
                cmd.addAll(List.of(args));
                run(cmd, 60);
            } catch (Exception e) {
                // cleaning up anyway
            }
        }

        private static String uid() throws IOException {
            return String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        }

        private static void skip(String why) {
            System.out.println("ContainerImageIT SKIPPED: " + why);
            Assumptions.abort(why);
        }

        @Override
        public void close() throws InterruptedException {
            if (daemon != null) {
                daemon.destroy(); // SIGTERM: dockerd stops its containers and exits
                if (!daemon.waitFor(30, TimeUnit.SECONDS)) {
                    daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
