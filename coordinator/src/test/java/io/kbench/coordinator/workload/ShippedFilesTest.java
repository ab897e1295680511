package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** Every workload and profile the project ships must load without errors. */
class ShippedFilesTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

    private static List<Path> yamlFiles(String dir) throws IOException {
        try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @Test
    void shouldValidateEveryShippedWorkload() throws IOException {
        List<Path> files = yamlFiles("workloads");
        assertFalse(files.isEmpty(), "no workloads found under " + ROOT);
        files.forEach(Workload::load);
    }

    @Test
    void shouldValidateEveryShippedProfile() throws IOException {
        List<Path> files = yamlFiles("deployment/kafka");
        assertFalse(files.isEmpty(), "no profiles found under " + ROOT);
        files.forEach(Profile::load);
    }
}
