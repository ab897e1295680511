package io.kbench.coordinator.report.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/** Validates a result.json text against the published schema, docs/schema/result.schema.json. */
public final class ResultSchema {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

    private ResultSchema() { }

    /** The schema's complaints about {@code json}; empty when valid. */
    public static List<String> validate(String json) throws IOException {
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(ROOT.resolve("docs/schema/result.schema.json")), InputFormat.JSON);
        return schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList();
    }
}
