package io.kbench.coordinator.run;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

/** Run ids and where a run's results go by default. */
public final class RunIds {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private RunIds() { }

    /** A new run id: the UTC time {@code at} to the second and 16 random bits, e.g. {@code 20261124-061502-3fa9}. */
    public static String next(Instant at) {
        return TIME.format(at) + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    /** A new run id for now. */
    public static String next() {
        return next(Instant.now());
    }

    /** {@code results/<name>-<run id>}: where results go without {@code --output}. */
    public static Path defaultOutput(String name, String id) {
        return Path.of("results", name + "-" + id);
    }
}
