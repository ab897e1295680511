package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.protocol.Versions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive ({@code target/kbench-VERSION.tar.gz}) installs by unpacking: its {@code bin/kbench}
 * runs with nothing but a Java runtime — on a PATH that holds no Maven (nor anything else but the few
 * commands the launcher uses) — prints its version and commit, and runs a workload on the embedded broker.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ReleaseArchiveIT {
    private static final Path TARGET = Path.of(System.getProperty("basedir", ".")).resolve("target");

    @TempDir
    Path dir;

    @Test
    void shouldRunFromTheUnpackedArchiveWithOnlyAJavaRuntime() throws Exception {
        String version = Versions.kbench();
        Path archive = TARGET.resolve("kbench-" + version + ".tar.gz");
        assertTrue(Files.isRegularFile(archive), archive + " is built by 'mvn package'");
        assertTrue(Files.isRegularFile(TARGET.resolve("kbench-" + version + ".zip")));
        assertEquals(0, run(List.of("tar", "-xzf", archive.toString(), "-C", dir.toString()), Map.of()).exit());
        Path home = dir.resolve("kbench-" + version);
        for (String entry : List.of("bin/kbench", "bin/jvm-options", "lib/kbench.jar", "workloads/quickstart.yaml",
                "deployment/systemd/kbench-worker.service", "docs/metrics.md", "LICENSE", "README.md")) {
            assertTrue(Files.exists(home.resolve(entry)), entry + " in the archive");
        }
        assertTrue(Files.isExecutable(home.resolve("bin/kbench")));
        // the archive's own README: it tells how to run from the archive, not how to build with Maven
        String readme = Files.readString(home.resolve("README.md"));
        assertTrue(readme.startsWith("# kbench — the release archive") && readme.contains("No build, no Maven"), readme);
        assertTrue(Files.exists(home.resolve("docs/getting-started.md")), "the recipes it points to");

        // the archives' checksums beside them, in sha256sum's own format
        Commands.Result sum = Commands.run(List.of("sha256sum", "-c", "kbench-" + version + ".sha256sums"), System.getenv(),
                TARGET, null, 60);
        assertEquals(0, sum.exit(), sum.output());
        assertEquals("kbench-" + version + ".tar.gz: OK\nkbench-" + version + ".zip: OK", sum.output().strip());
        // NOTICE, and every bundled library named with its licence; the licence texts and notices the jars carry
        assertTrue(Files.readString(home.resolve("NOTICE")).contains("THIRD-PARTY.txt"));
        String thirdParty = Files.readString(home.resolve("THIRD-PARTY.txt"));
        assertFalse(thirdParty.toLowerCase(java.util.Locale.ROOT).contains("unknown license"), thirdParty);
        try (var jars = Files.list(home.resolve("lib"))) {
            for (Path jar : jars.toList()) {
                String name = jar.getFileName().toString();
                if (name.equals("kbench.jar") || name.startsWith("kbench-")) {
                    continue;
                }
                // lib/ARTIFACT-VERSION[-CLASSIFIER].jar; THIRD-PARTY.txt lists GROUP:ARTIFACT:VERSION
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(.+?)-(\\d[^-]*(?:-[A-Za-z0-9.]+)*?)(?:-[a-z][a-z0-9_-]*)?\\.jar")
                        .matcher(name);
                assertTrue(m.matches(), name);
                assertTrue(thirdParty.contains(":" + m.group(1) + ":"), name + " is named in THIRD-PARTY.txt");
            }
        }
        try (var notices = Files.walk(home.resolve("licenses"))) {
            assertTrue(notices.filter(Files::isRegularFile).anyMatch(f -> f.toString().contains("kafka-clients")
                    && f.getFileName().toString().startsWith("NOTICE")), "kafka-clients' NOTICE under licenses/");
        }

        // a PATH with only what the launcher needs: no mvn, no java (JAVA_HOME names the runtime)
        Path tools = Files.createDirectories(dir.resolve("tools"));
        for (String tool : List.of("bash", "env", "dirname", "readlink", "sed")) {
            Path real = Path.of("/usr/bin", tool);
            Files.createSymbolicLink(tools.resolve(tool), Files.exists(real) ? real : Path.of("/bin", tool));
        }
        Map<String, String> env = Map.of("PATH", tools.toString(), "JAVA_HOME", System.getProperty("java.home"),
                "HOME", dir.toString());
        Commands.Result v = run(List.of(home.resolve("bin/kbench").toString(), "--version"), env);
        assertEquals(0, v.exit(), v.output());
        String commit = Versions.commit();
        assertEquals("kbench " + version + " (" + (commit.isEmpty() ? "" : "commit " + commit + ", ") + "protocol "
                + Versions.PROTOCOL + ")", v.output().strip());

        // the launcher's default JVM options: huge pages for the heap exactly where the kernel gives them on request
        Commands.Result flags = run(List.of(home.resolve("bin/kbench").toString(), "--version"),
                Map.of("PATH", tools.toString(), "JAVA_HOME", System.getProperty("java.home"), "HOME", dir.toString(),
                        "KBENCH_JAVA_OPTS", "-XX:+PrintFlagsFinal"));
        assertEquals(0, flags.exit(), flags.output());
        Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        String kernel = Files.isReadable(thp) ? Files.readString(thp) : "";
        boolean offered = kernel.contains("[madvise]") || kernel.contains("[always]");
        assertTrue(flags.output().lines().anyMatch(l -> l.matches("\\s*bool UseTransparentHugePages\\s+= " + offered + "\\s.*")),
                "UseTransparentHugePages should be " + offered + " with the kernel's '" + kernel.strip() + "'");

        Path workload = Files.writeString(dir.resolve("tiny.yaml"), """
                name: tiny
                topics: 1
                partitionsPerTopic: 2
                messageSize: 100
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                consumersPerSubscription: 1
                producerRate: 500
                warmupSeconds: 1
                durationSeconds: 3
                """);
        Commands.Result r = run(List.of(home.resolve("bin/kbench").toString(), "run", "--output", dir.resolve("out").toString(),
                workload.toString()), env);
        assertEquals(0, r.exit(), r.output());
        JsonNode result = new ObjectMapper().readTree(dir.resolve("out/result.json").toFile());
        assertEquals("COMPLETED", result.get("status").asText());
        assertEquals(result.get("summary").get("sent").asLong(), result.get("summary").get("received").asLong());

        Commands.Result noJava = run(List.of(home.resolve("bin/kbench").toString(), "--version"),
                Map.of("PATH", tools.toString(), "HOME", dir.toString()));
        assertEquals(2, noJava.exit(), noJava.output());
        assertEquals("kbench: no Java runtime found: install a JRE 17 or newer, or set JAVA_HOME", noJava.output().strip());
        assertFalse(Files.exists(tools.resolve("mvn")));
    }

    private static Commands.Result run(List<String> command, Map<String, String> env) throws Exception {
        return Commands.run(command, env.isEmpty() ? null : env, null, null, 120);
    }
}
