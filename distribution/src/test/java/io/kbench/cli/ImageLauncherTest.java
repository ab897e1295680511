package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** When the image's JVM starts kbench again, and with which command line (ContainerImageIT runs it for real). */
class ImageLauncherTest {
    private static final List<String> ENTRY = List.of("-XX:MaxRAMPercentage=75", "-Dkbench.launcher=image", "-Xlog:pagesize=off");
    private static final String[] ARGS = {"worker", "--port", "7070"};

    @Test
    void shouldStartAgainOnlyInTheImageAndOnlyWithOptions() {
        assertEquals(Optional.empty(), command(null, Map.of("KBENCH_JAVA_OPTS", "-Xmx1g")), "the archive's launcher");
        assertEquals(Optional.empty(), command("image", Map.of()));
        assertEquals(Optional.empty(), command("image", Map.of("KBENCH_JAVA_OPTS", "  \t ")));
        assertEquals(Optional.empty(), command("something-else", Map.of("KBENCH_JAVA_OPTS", "-Xmx1g")));
    }

    @Test
    void shouldKeepTheEntrypointsOptionsThenAddTheVariablesWordByWord() {
        List<String> c = command("image", Map.of("KBENCH_JAVA_OPTS", " -Xmx1g\t -XX:+UseG1GC  -Dx=a ")).orElseThrow();
        assertEquals(List.of("/opt/java/bin/java", "-XX:MaxRAMPercentage=75", "-Xlog:pagesize=off", "-Xmx1g",
                "-XX:+UseG1GC", "-Dx=a", "-cp", "/opt/kbench/lib/*", "io.kbench.cli.Main", "worker", "--port", "7070"), c);
        assertTrue(c.stream().noneMatch(a -> a.startsWith("-Dkbench.launcher")), "the JVM started again does not start another");
    }

    /**
     * The image's entrypoint is the JVM (no shell to source bin/jvm-options): it spells the launchers' later C2 out
     * itself, and must keep up with it.
     */
    @Test
    void shouldGiveTheImagesJvmTheLaunchersJitOptions() throws Exception {
        Path root = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
        String options = Files.readString(root.resolve("distribution/src/main/dist/bin/jvm-options"));
        String entrypoint = Files.readAllLines(root.resolve("deployment/container/Dockerfile")).stream()
                .filter(l -> l.startsWith("ENTRYPOINT ")).findFirst().orElseThrow();
        Matcher m = Pattern.compile("-XX:Tier4\\w+=\\d+").matcher(options);
        int found = 0;
        while (m.find()) {
            found++;
            assertTrue(entrypoint.contains("\"" + m.group() + "\""), m.group() + " of bin/jvm-options is not in " + entrypoint);
        }
        assertEquals(4, found, "bin/jvm-options' Tier4 thresholds");
    }

    private static Optional<List<String>> command(String launcher, Map<String, String> env) {
        return ImageLauncher.command(launcher, env, "/opt/java/bin/java", ENTRY, "/opt/kbench/lib/*", ARGS);
    }
}
