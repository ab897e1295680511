package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The published JSON Schemas and docs/workloads.md cover exactly what the loaders accept and the repo ships. */
class SchemaTest {
    private static final Path SCHEMAS = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
            .resolve("docs/schema");

    private static List<String> propertyNames(String file) throws IOException {
        JsonNode schema = new ObjectMapper().readTree(SCHEMAS.resolve(file).toFile());
        List<String> names = new ArrayList<>();
        schema.get("properties").fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void shouldListEveryWorkloadKey() throws IOException {
        assertEquals(Workload.KEYS, propertyNames("workload.schema.json"));
    }

    @Test
    void shouldDocumentEveryWorkloadFieldAndEveryShippedFile() throws IOException {
        Path root = SCHEMAS.getParent().getParent();
        String doc = java.nio.file.Files.readString(root.resolve("docs/workloads.md"));
        for (String key : Workload.KEYS) {
            org.junit.jupiter.api.Assertions.assertTrue(doc.contains("`" + key + "`"), "docs/workloads.md lacks " + key);
        }
        for (String dir : List.of("workloads", "deployment/kafka")) {
            try (var files = java.nio.file.Files.list(root.resolve(dir))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                    String name = f.getFileName().toString().replace(".yaml", "");
                    org.junit.jupiter.api.Assertions.assertTrue(doc.contains(name),
                            "docs/workloads.md does not describe " + dir + "/" + f.getFileName());
                }
            }
        }
    }

    @Test
    void shouldListEveryProfileKey() throws IOException {
        assertEquals(Profile.KEYS, propertyNames("profile.schema.json"));
    }
}
