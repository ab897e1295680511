package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The published JSON Schemas name exactly the keys the loaders accept. */
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
    void shouldListEveryProfileKey() throws IOException {
        assertEquals(Profile.KEYS, propertyNames("profile.schema.json"));
    }
}
