package io.kbench.coordinator.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Profile;

/**
 * Client properties from the command line as profile overrides: Kafka {@code .properties} files (the
 * --producer.config habit) and {@code PROP=VALUE} lists, each for one profile section.
 */
final class PropertiesFiles {
    private PropertiesFiles() { }

    /**
     * Adds every property of {@code file} as {@code <section>.<key>} (or {@code bootstrap.servers}).
     *
     * @param flag the option that named the file, for messages
     */
    static void apply(Path file, String section, String flag, Map<String, String> into) {
        if (file == null) {
            return;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            throw new UserException(flag + ": " + file + " not found");
        } catch (IOException | IllegalArgumentException e) {
            throw new UserException(flag + ": cannot read " + file + ": " + e.getMessage());
        }
        for (String key : new TreeSet<>(p.stringPropertyNames())) {
            into.put(key.equals("bootstrap.servers") ? key : section + "." + key, p.getProperty(key).trim());
        }
    }

    /**
     * Adds {@code PROP=VALUE} pairs as {@code <section>.<PROP>} ({@code bootstrap.servers} as itself); with a
     * null section the keys are taken as they are ({@code --set producer.acks=all}).
     */
    static void applyPairs(java.util.List<String> pairs, String section, String flag, Map<String, String> into) {
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq < 1) {
                throw new UserException(flag + " '" + pair + "': expected " + (section == null ? "KEY=VALUE, e.g. producer.acks=all"
                        : "PROP=VALUE"));
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            into.put(section == null || key.equals("bootstrap.servers") ? key : section + "." + key, value);
        }
    }

    /** {@code base} with {@code overrides}; a key that cannot be overridden is a one-line error naming {@code flag}. */
    static Profile profile(Profile base, Map<String, String> overrides, String flag) {
        try {
            return base.with(overrides);
        } catch (IllegalArgumentException e) {
            throw new UserException(flag + ": " + e.getMessage());
        }
    }
}
