package io.kbench.coordinator.report.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.result.SweepFile;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sweep.json is written from its record ({@link SweepFile}), reads back into it strictly, and the published schema
 * (docs/schema/sweep.schema.json) both accepts what is written and lists exactly the record's keys.
 */
class SweepFileTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

    @TempDir
    Path dir;

    private static Summary summary(double rate) {
        EnumMap<Metric, Histogram> h = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            Histogram x = LatencyHistograms.create();
            x.recordValue(2_000);
            h.put(m, x);
        }
        return new Summary(1000, 1000, 0, 1000, 0, 0, 10, 1000, 1000, 100_000, rate, 1.0, rate, 1.0, h, null, 0, 3);
    }

    @Test
    void shouldWriteWhatTheSchemaAcceptsAndReadBackIntoTheRecord() throws Exception {
        SweepReport r = new SweepReport(List.of("producer.linger.ms"));
        r.add(new SweepReport.Row(Map.of("producer.linger.ms", "0"), "COMPLETED", dir.resolve("00/result.json"),
                summary(19_000), 20_000, "producer-client"));
        r.add(new SweepReport.Row(Map.of("producer.linger.ms", "5"), "FAILED", dir.resolve("01/result.json"),
                summary(20_000), 20_000, null));
        r.add(new SweepReport.Row(Map.of("producer.linger.ms", "10"), "SKIPPED", null, null, 20_000, null));
        r.write(dir);
        String text = Files.readString(dir.resolve("sweep.json"));

        List<String> problems = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(ROOT.resolve("docs/schema/sweep.schema.json")), InputFormat.JSON)
                .validate(text, InputFormat.JSON).stream().map(Error::toString).toList();
        assertEquals(List.of(), problems, text);

        SweepFile read = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).readValue(text, SweepFile.class);
        assertEquals(List.of("producer.linger.ms"), read.axes());
        assertEquals(3, read.runs().size());
        SweepFile.Combination first = read.runs().get(0);
        assertEquals(19_000.0, first.publishRate());
        assertTrue(first.fellBehind(), "95% of target");
        assertEquals(3L, first.saturatedIntervals());
        assertEquals("producer-client", first.limitedBy());
        assertEquals(2_000, first.endToEndLatencyMicros().p99(), 2);
        SweepFile.Combination skipped = read.runs().get(2);
        assertEquals(null, skipped.result());
        assertEquals(null, skipped.publishRate());
        JsonNode raw = new ObjectMapper().readTree(text).get("runs").get(2);
        assertTrue(raw.has("result") && raw.get("result").isNull(), "result and limitedBy are always there: " + raw);
        assertFalse(raw.has("publishRate"), "no figure keys without figures: " + raw);
    }

    @Test
    void shouldListInTheSchemaExactlyTheKeysOfTheRecord() throws Exception {
        JsonNode schema = new ObjectMapper().readTree(ROOT.resolve("docs/schema/sweep.schema.json").toFile());
        assertEquals(names(SweepFile.class), keys(schema.get("properties")));
        assertEquals(names(SweepFile.Combination.class), keys(schema.get("$defs").get("combination").get("properties")));
    }

    private static List<String> names(Class<? extends Record> type) {
        return java.util.Arrays.stream(type.getRecordComponents()).map(java.lang.reflect.RecordComponent::getName).toList();
    }

    private static List<String> keys(JsonNode properties) {
        List<String> out = new ArrayList<>();
        properties.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
