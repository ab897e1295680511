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

/** Kafka client {@code .properties} files as profile overrides of one section (the --producer.config habit). */
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
}
