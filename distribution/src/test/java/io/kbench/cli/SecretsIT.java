package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka security settings pass through a profile to every client (here SASL/SCRAM-SHA-512 against a broker
 * that accepts nothing else), and the secrets in it never show: not in the console, the logs (the worker
 * logs Kafka's client configs at INFO), result.json or any other file written, nor in --help or validate
 * output, nor in the one-line error of a run with a wrong password.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SecretsIT {
    private static final String PASSWORD = "pw-Zq81-never-shown";
    private static final String TRUSTSTORE_PASSWORD = "ts-Hk27-never-shown";
    private static final String TOKEN = "tok-Wm54-never-shown-0123456789";

    @TempDir
    Path dir;

    @Test
    void shouldRunOverScramAndShowTheSecretsNowhere() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().scramUser("bench", PASSWORD).start();
             KbenchProcesses procs = new KbenchProcesses("secrets")) {
            Path profile = profile("scram", PASSWORD);
            Path workload = dir.resolve("secret-run.yaml");
            Files.writeString(workload, """
                    name: secret-run
                    partitionsPerTopic: 2
                    messageSize: 100
                    producerRate: 1000
                    durationSeconds: 3
                    """);
            Path token = dir.resolve("token");
            Files.writeString(token, TOKEN + "\n");
            int port = KbenchProcesses.freePort();
            Process worker = procs.start(List.of(), List.of("-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info"),
                    "worker", "worker", "--bind", "127.0.0.1", "--port", "" + port, "--id", "w", "--token-file",
                    token.toString());
            KbenchProcesses.awaitListening(port, worker);

            Path out = dir.resolve("out");
            Process run = procs.start("run", "run", "--workers", "127.0.0.1:" + port, "--token-file", token.toString(),
                    "--driver", profile.toString(), "--bootstrap-servers", kafka.bootstrapServers(),
                    "--output", out.toString(), workload.toString());
            assertTrue(run.waitFor(120, TimeUnit.SECONDS), "run did not finish");
            assertEquals(0, run.exitValue(), procs.output("run") + procs.errors("run"));
            JsonNode result = new ObjectMapper().readTree(out.resolve("result.json").toFile());
            assertEquals("COMPLETED", result.get("status").asText());
            JsonNode s = result.get("summary");
            assertTrue(s.get("acked").asLong() >= 2900, "acked over SASL/SCRAM: " + s.get("acked"));
            assertEquals(s.get("acked").asLong(), s.get("received").asLong());
            JsonNode common = result.get("profile").get("common");
            assertEquals("[redacted]", common.get("sasl.jaas.config").asText());
            assertEquals("[redacted]", common.get("ssl.truststore.password").asText());
            assertEquals("SCRAM-SHA-512", common.get("sasl.mechanism").asText());

            // a wrong password: one line, exit 2, the password not in it
            Path wrong = profile("wrong", "pw-Bad9-never-shown");
            Process refused = procs.start("refused", "run", "--workers", "127.0.0.1:" + port, "--token-file",
                    token.toString(), "--driver", wrong.toString(), "--bootstrap-servers", kafka.bootstrapServers(),
                    "--output", dir.resolve("refused-out").toString(), workload.toString());
            assertTrue(refused.waitFor(120, TimeUnit.SECONDS), "refused run did not finish");
            assertEquals(2, refused.exitValue(), procs.output("refused") + procs.errors("refused"));
            String line = procs.errors("refused").strip();
            assertEquals(1, line.lines().count(), line);
            assertTrue(line.startsWith("kbench: worker 127.0.0.1:" + port + " (prepare): Kafka at "
                    + kafka.bootstrapServers() + " refused the client: Authentication failed"), line);

            // the same refusal by clients in the command's own process (the perf tools' path): still one line, without
            // the client's own ERROR log line of the refused login before it
            Path wrongConfig = dir.resolve("wrong.properties");
            Files.writeString(wrongConfig, """
                    security.protocol=SASL_PLAINTEXT
                    sasl.mechanism=SCRAM-SHA-512
                    sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="bench" \
                    password="pw-Bad9-never-shown";
                    """);
            Process inProcess = procs.start("in-process", "producer-perf", "--topic", "refused", "--num-records", "10",
                    "--record-size", "10", "--throughput", "-1", "--bootstrap-server", kafka.bootstrapServers(),
                    "--command-config", wrongConfig.toString(), "--output", dir.resolve("in-process-out").toString());
            assertTrue(inProcess.waitFor(120, TimeUnit.SECONDS), "in-process refused run did not finish");
            assertEquals(2, inProcess.exitValue(), procs.output("in-process") + procs.errors("in-process"));
            // stderr: the run's line (the perf tools' stdout is theirs), then the refusal
            String inProcessErr = procs.errors("in-process").strip();
            List<String> lines = inProcessErr.lines().filter(l -> !l.startsWith("run ")).toList();
            assertEquals(1, lines.size(), inProcessErr);
            String inProcessLine = lines.get(0);
            assertTrue(inProcessLine.startsWith("kbench: worker in-process:local-1 (prepare): Kafka at "
                    + kafka.bootstrapServers() + " refused the client: Authentication failed"), inProcessLine);

            // every secret is nowhere in what was printed or written
            Process help = procs.start("help", "run", "--help");
            Process workerHelp = procs.start("worker-help", "worker", "--help");
            Process validate = procs.start("validate", "validate", profile.toString(), workload.toString());
            for (Process p : List.of(help, workerHelp, validate)) {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, p.exitValue());
            }
            worker.destroy();
            worker.waitFor(30, TimeUnit.SECONDS);
            String workerLog = procs.errors("worker");
            assertTrue(workerLog.contains("sasl.jaas.config = [hidden]"), "the worker logged the client configs");
            List<Path> written = new ArrayList<>();
            try (Stream<Path> files = Stream.concat(Files.walk(out), Files.walk(procs.logDirectory()))) {
                files.filter(Files::isRegularFile).forEach(written::add);
            }
            assertTrue(written.size() >= 10, "files checked: " + written);
            for (Path f : written) {
                String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
                for (String secret : List.of(PASSWORD, "pw-Bad9-never-shown", TRUSTSTORE_PASSWORD, TOKEN)) {
                    assertFalse(text.contains(secret), f + " shows a secret");
                }
            }
        }
    }

    private Path profile(String name, String password) throws IOException {
        Path p = dir.resolve(name + ".yaml");
        Files.writeString(p, """
                name: %s
                common:
                  security.protocol: SASL_PLAINTEXT
                  sasl.mechanism: SCRAM-SHA-512
                  sasl.jaas.config: org.apache.kafka.common.security.scram.ScramLoginModule required username="bench" password="%s";
                  ssl.truststore.password: %s
                producer:
                  acks: all
                """.formatted(name, password, TRUSTSTORE_PASSWORD));
        return p;
    }
}
