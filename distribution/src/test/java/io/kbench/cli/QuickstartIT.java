package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The shipped quickstart, run as the README's first command runs it: embedded broker, in-process worker. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class QuickstartIT {
    @TempDir
    Path dir;

    @Test
    void shouldRunTheShippedQuickstartOnTheEmbeddedDefault() throws Exception {
        Path quickstart = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
                .resolve("workloads/quickstart.yaml");
        assertEquals(0, Main.execute("run", "--output", dir.toString(), quickstart.toString()));
        JsonNode r = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        JsonNode s = r.get("summary");
        assertEquals("COMPLETED", r.get("status").asText());
        assertEquals(s.get("sent").asLong(), s.get("acked").asLong());
        assertEquals(s.get("sent").asLong(), s.get("received").asLong());
        assertTrue(Math.abs(s.get("publishRate").asDouble() - 5000) < 5000 * 0.02, s.toString());
        // the real file is valid under the published schema
        Path root = quickstart.getParent().getParent();
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(root.resolve("docs/schema/result.schema.json")), InputFormat.JSON);
        List<Error> errors = schema.validate(Files.readString(dir.resolve("result.json")), InputFormat.JSON);
        assertEquals(List.of(), errors.stream().map(Error::toString).toList());
    }
}
