package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The brokers' figures from a real broker process, read two ways at once on the same load: over its JMX port (what
 * {@code JMX_PORT} opens, {@code --broker-jmx}) and from Prometheus's JMX exporter agent attached to it
 * ({@code --broker-metrics}, jmx_prometheus_javaagent with deployment/prometheus/jmx-exporter-kbench.yaml). The two sources must agree within
 * noise; the JMX port uses TLS, registry included, and asks for a login (the JDK's agent with a password file),
 * given with {@code --broker-jmx-tls} and {@code --broker-jmx-password-file}; the coordinator's process trusts the
 * broker's certificate as the JDK's JMX client does ({@code javax.net.ssl.trustStore}). Then the refusals before any
 * load: a URL where nothing answers, one that serves something else, one that answers 404, a wrong login, a
 * certificate not trusted, a TLS port read without {@code --broker-jmx-tls}, a password file that is not one,
 * credentials never shown, an address given twice, the flags with the embedded cluster.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class BrokerMetricsIT {
    @TempDir
    Path dir;

    @Test
    void shouldReadOneBrokerOverJmxAndThroughItsExporterAlikeAndRefuseBadSources() throws Exception {
        Path w = Files.writeString(dir.resolve("w.yaml"), """
                name: broker-metrics
                partitionsPerTopic: 3
                messageSize: 1000
                producerRate: 2000
                warmupSeconds: 2
                durationSeconds: 4
                """);
        Path agent = Path.of(System.getProperty("basedir", ".")).resolve("target/agents/jmx_prometheus_javaagent.jar");
        assertTrue(Files.exists(agent), agent + " is copied by the build (mvn verify)");
        // the exporter configuration kbench ships: the default naming, limited to the MBeans kbench reads
        Path config = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
                .resolve("deployment/prometheus/jmx-exporter-kbench.yaml");
        // the JDK's own JMX agent with a login, as a broker's JMX_PORT with authentication opens it
        Path passwords = Files.writeString(dir.resolve("jmxremote.password"), "kbench s3cret-Pw\n");
        Path access = Files.writeString(dir.resolve("jmxremote.access"), "kbench readonly\n");
        for (Path p : List.of(passwords, access)) {
            Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
        Path login = Files.writeString(dir.resolve("login"), "# kbench's login\nkbench s3cret-Pw\n");
        Path wrong = Files.writeString(dir.resolve("wrong"), "kbench not-the-Pw\n");
        // the JMX port over TLS, registry included, with a self-signed certificate the coordinator's JVM trusts
        Path keystore = dir.resolve("broker.p12");
        Path certificate = dir.resolve("broker.crt");
        Path truststore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", "changeit", "-file",
                certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", certificate.toString(), "-keystore",
                truststore.toString(), "-storetype", "PKCS12", "-storepass", "changeit");
        List<String> trusting = List.of("-Djavax.net.ssl.trustStore=" + truststore,
                "-Djavax.net.ssl.trustStorePassword=changeit", "-Djavax.net.ssl.trustStoreType=PKCS12");
        int kafkaPort = KbenchProcesses.freePort();
        int jmxPort = KbenchProcesses.freePort();
        int exporterPort = KbenchProcesses.freePort();
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try (KbenchProcesses kbench = new KbenchProcesses("BrokerMetricsIT")) {
            Process broker = kbench.start(List.of(), List.of(
                    "-javaagent:" + agent + "=127.0.0.1:" + exporterPort + ":" + config,
                    "-Dcom.sun.management.jmxremote.port=" + jmxPort,
                    "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                    "-Dcom.sun.management.jmxremote.host=127.0.0.1",
                    "-Djava.rmi.server.hostname=127.0.0.1",
                    "-Dcom.sun.management.jmxremote.authenticate=true",
                    "-Dcom.sun.management.jmxremote.password.file=" + passwords,
                    "-Dcom.sun.management.jmxremote.access.file=" + access,
                    "-Dcom.sun.management.jmxremote.ssl=true",
                    "-Dcom.sun.management.jmxremote.registry.ssl=true",
                    "-Djavax.net.ssl.keyStore=" + keystore,
                    "-Djavax.net.ssl.keyStorePassword=changeit",
                    "-Djavax.net.ssl.keyStoreType=PKCS12"), "broker", "broker", "--port", Integer.toString(kafkaPort));
            KbenchProcesses.awaitListening(kafkaPort, broker);
            KbenchProcesses.awaitListening(exporterPort, broker);
            KbenchProcesses.awaitListening(jmxPort, broker);
            String bootstrap = "127.0.0.1:" + kafkaPort;
            String jmx = "127.0.0.1:" + jmxPort;
            String url = "http://127.0.0.1:" + exporterPort + "/metrics";

            // a coordinator process of its own, trusting the broker's certificate as the JDK's JMX client does
            Process run = kbench.start(List.of(), trusting, "both", "run", "--output", dir.resolve("both").toString(),
                    "--bootstrap-servers", bootstrap, "--broker-jmx", jmx, "--broker-jmx-tls", "--broker-jmx-password-file",
                    login.toString(), "--broker-metrics", url, w.toString());
            assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the run did not end");
            assertEquals(0, run.exitValue(), kbench.errors("both"));
            JsonNode r = new ObjectMapper().readTree(dir.resolve("both/result.json").toFile());
            assertEquals("COMPLETED", r.get("status").asText());
            List<double[]> pairs = new ArrayList<>(); // per measured interval: {jmx bytes in, exporter bytes in}
            // per measured interval: {jmx, exporter} of request-handler idle, then of network-thread idle
            List<double[]> idles = new ArrayList<>();
            for (JsonNode i : r.get("intervals")) {
                JsonNode b = i.get("brokers");
                assertTrue(b != null && b.size() == 2, i.toString());
                assertEquals(jmx, b.get(0).get("source").asText());
                assertEquals(url, b.get(1).get("source").asText());
                // the measured intervals in which the producers sent at their rate (the last, short interval may
                // hold a handful of final sends)
                if (i.get("warmup").asBoolean() || i.get("publish").get("sent").asLong() < 1_000) {
                    continue;
                }
                JsonNode a = b.get(0).get("figures");
                JsonNode p = b.get(1).get("figures");
                pairs.add(new double[] {a.get("bytesInPerSec").asDouble(), p.get("bytesInPerSec").asDouble()});
                double[] idle = new double[4];
                int k = 0;
                for (String figure : List.of("requestHandlerIdle", "networkProcessorIdle")) {
                    double x = a.get(figure).asDouble();
                    double y = p.get(figure).asDouble();
                    assertTrue(x > 0 && x <= 1 && y > 0 && y <= 1, figure + " is a share: " + b);
                    // one interval's two readings cover windows apart by the exporter's 40-50 ms answer (its bytes
                    // in differed by 14% in one such interval): a wide bound here, the window's means below
                    assertTrue(Math.abs(x - y) < 0.3, figure + " read two ways on the same load: " + b);
                    idle[k++] = x;
                    idle[k++] = y;
                }
                idles.add(idle);
                assertTrue(a.has("produceTotalTimeMsMean") && p.has("produceTotalTimeMsMean"), b.toString());
                assertTrue(a.has("processCpu") && p.has("processCpu") && a.has("heapUsedBytes")
                        && p.has("heapUsedBytes"), b.toString());
                // the broker's UnderMinIsrPartitionCount, read both ways: none on a healthy broker
                assertEquals(0.0, a.path("underMinIsrPartitions").asDouble(-1), b.toString());
                assertEquals(0.0, p.path("underMinIsrPartitions").asDouble(-1), b.toString());
            }
            assertTrue(pairs.size() >= 3, r.get("intervals").toString());
            for (int f = 0; f < 2; f++) {
                int at = 2 * f;
                double jmxMean = idles.stream().mapToDouble(x -> x[at]).average().orElse(Double.NaN);
                double exporterMean = idles.stream().mapToDouble(x -> x[at + 1]).average().orElse(Double.NaN);
                assertTrue(Math.abs(jmxMean - exporterMean) < 0.1, (f == 0 ? "requestHandlerIdle" : "networkProcessorIdle")
                        + " over the window: " + jmxMean + " over JMX, " + exporterMean + " from the exporter");
            }
            double viaJmx = pairs.stream().mapToDouble(x -> x[0]).sum();
            double viaExporter = pairs.stream().mapToDouble(x -> x[1]).sum();
            // the two sources are read one after the other in the same snapshot, each over its own interval
            assertEquals(1.0, viaExporter / viaJmx, 0.05, "bytes in, JMX " + viaJmx + " against the exporter " + viaExporter);
            double ratio = viaJmx / pairs.size() / (2000 * 1000.0);
            assertTrue(ratio > 0.95 && ratio < 1.3, "broker bytes in / acknowledged value bytes = " + ratio);
            // one broker read twice: its bytes in are not compared with what was acknowledged (they would count twice)
            assertFalse(r.get("issues").toString().contains("the brokers took in"), r.get("issues").toString());
            // an easy rate for the broker: no broker-side limit named (the client side: DiagnosisIT)
            JsonNode diagnosis = r.get("diagnosis");
            List<String> named = new ArrayList<>(List.of(diagnosis.get("limit").asText()));
            diagnosis.get("alsoLimitedBy").forEach(l -> named.add(l.get("limit").asText()));
            assertTrue(named.stream().noneMatch(n -> n.startsWith("broker-") || n.equals("replication")),
                    diagnosis.toString());

            // refusals before any load, one line each, exit 3 when nothing answered and 2 for a wrong input, no result
            int closed = KbenchProcesses.freePort();
            InProcessRun.Outcome none = refused(3, bootstrap, w, "none", "--broker-metrics",
                    "http://admin:hunter2@127.0.0.1:" + closed + "/metrics");
            assertTrue(none.stderr().contains("cannot read the broker metrics of http://127.0.0.1:" + closed
                    + "/metrics: no Prometheus endpoint answered there"), none.stderr());
            assertFalse(none.stderr().contains("hunter2"), "credentials are never shown: " + none.stderr());
            other.createContext("/", x -> {
                byte[] body = "<html>a dashboard, not metrics</html>\n".getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(x.getRequestURI().getPath().equals("/metrics") ? 200 : 404, body.length);
                x.getResponseBody().write(body);
                x.close();
            });
            other.start();
            String otherUrl = "http://127.0.0.1:" + other.getAddress().getPort();
            InProcessRun.Outcome html = refused(bootstrap, w, "html", "--broker-metrics", otherUrl + "/metrics");
            assertTrue(html.stderr().contains("it serves no Kafka broker metrics"), html.stderr());
            InProcessRun.Outcome missing = refused(bootstrap, w, "404", "--broker-metrics", otherUrl + "/nothing");
            assertTrue(missing.stderr().contains("HTTP 404"), missing.stderr());
            InProcessRun.Outcome jmxClosed = refused(3, bootstrap, w, "jmx", "--broker-jmx", "127.0.0.1:" + closed);
            assertTrue(jmxClosed.stderr().contains("cannot read the broker metrics of JMX 127.0.0.1:" + closed),
                    jmxClosed.stderr());
            // both refusals in one coordinator process that trusts the broker (the login is checked after TLS)
            Process denied = kbench.start(List.of(), trusting, "denied", "run", "--output",
                    dir.resolve("denied").toString(), "--bootstrap-servers", bootstrap, "--broker-jmx", jmx,
                    "--broker-jmx-tls", "--broker-jmx-password-file", wrong.toString(), w.toString());
            assertTrue(denied.waitFor(120, TimeUnit.SECONDS), "the refusal did not come");
            assertEquals(2, denied.exitValue(), kbench.errors("denied"));
            String deniedLine = kbench.errors("denied").strip();
            assertTrue(deniedLine.contains("cannot read the broker metrics of JMX " + jmx
                    + ": the JMX server refused the login"), deniedLine);
            assertEquals(1, deniedLine.lines().count(), deniedLine);
            assertFalse(deniedLine.contains("not-the-Pw"), "never the password: " + deniedLine);
            assertFalse(Files.exists(dir.resolve("denied").resolve("result.json")), "no run took place");
            // this JVM does not trust the broker's certificate: the handshake fails, and the line says what to do
            InProcessRun.Outcome untrusted = refused(bootstrap, w, "untrusted", "--broker-jmx", jmx, "--broker-jmx-tls",
                    "--broker-jmx-password-file", login.toString());
            assertTrue(untrusted.stderr().contains("cannot read the broker metrics of JMX " + jmx + ": the TLS handshake "
                    + "failed") && untrusted.stderr().contains("-Djavax.net.ssl.trustStore=FILE in KBENCH_JAVA_OPTS"),
                    untrusted.stderr());
            InProcessRun.Outcome plain = refused(bootstrap, w, "plain", "--broker-jmx", jmx);
            assertTrue(plain.stderr().contains("if the JMX port uses TLS, add --broker-jmx-tls"), plain.stderr());
            InProcessRun.Outcome unreadable = refused(bootstrap, w, "unreadable", "--broker-jmx", jmx,
                    "--broker-jmx-password-file", dir.toString());
            assertTrue(unreadable.stderr().contains("is a directory, not a password file"), unreadable.stderr());
            InProcessRun.Outcome twice = refused(bootstrap, w, "twice", "--broker-metrics", url + "," + url);
            assertTrue(twice.stderr().contains(url + " is given twice"), twice.stderr());
        } finally {
            other.stop(0);
        }
        InProcessRun.Outcome embedded = InProcessRun.execute("run", "--broker-metrics", "http://127.0.0.1:1/metrics",
                w.toString());
        assertEquals(2, embedded.exitCode(), embedded.stderr());
        assertTrue(embedded.stderr().contains("--broker-metrics reads a cluster of yours"), embedded.stderr());
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool " + args[0] + ": " + out);
    }

    private InProcessRun.Outcome refused(String bootstrap, Path w, String name, String... flags) {
        return refused(2, bootstrap, w, name, flags);
    }

    private InProcessRun.Outcome refused(int exitCode, String bootstrap, Path w, String name, String... flags) {
        List<String> args = new ArrayList<>(List.of("run", "--output", dir.resolve(name).toString(),
                "--bootstrap-servers", bootstrap));
        args.addAll(List.of(flags));
        args.add(w.toString());
        InProcessRun.Outcome o = InProcessRun.execute(args.toArray(new String[0]));
        assertEquals(exitCode, o.exitCode(), o.stderr());
        assertFalse(o.stderr().contains("\tat "), "no stack trace: " + o.stderr());
        assertFalse(Files.exists(dir.resolve(name).resolve("result.json")), "no run took place");
        return o;
    }
}
