package io.kbench.coordinator.cli;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Pattern;

import io.kbench.coordinator.UserException;
import io.kbench.protocol.BoundedFiles;

/**
 * Reads a Kafka client {@code .properties} file ({@code --command-config}, {@code --producer.config} ...) as
 * what it claims to be: bounded in size, UTF-8 text, and one {@code KEY=VALUE} (or {@code KEY: VALUE}) per
 * line with keys that are property names. A JSON or YAML document, a binary file or a file in another
 * encoding is refused naming the file (and the line), where {@link Properties#load} would have read keys such
 * as {@code "acks":} and handed them to the client. Thread-safe (no state).
 */
public final class PropertiesFile {
    /** Largest properties file read. */
    public static final long MAX_BYTES = 1024 * 1024;
    /** What a client property's name looks like: {@code acks}, {@code sasl.jaas.config}, {@code listener.name.x-y.z}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private PropertiesFile() { }

    /**
     * @param origin how messages name the file, e.g. "--command-config client.properties"
     * @throws UserException one line: {@code origin: what is wrong}
     */
    public static Properties load(Path file, String origin) {
        String text;
        try {
            text = BoundedFiles.readUtf8(file, MAX_BYTES);
        } catch (BoundedFiles.TooLargeException e) {
            throw new UserException(origin + ": " + e.getMessage() + (e.getMessage().startsWith("an empty path") ? ""
                    : " (not a .properties file)"));
        } catch (BoundedFiles.NotTextException e) {
            throw new UserException(origin + ": " + e.getMessage() + "; a .properties file is UTF-8 text");
        } catch (NoSuchFileException e) {
            throw new UserException(origin + ": file not found");
        } catch (IOException e) {
            throw new UserException(origin + ": cannot read it: " + e.getMessage());
        }
        String[] lines = text.split("\r\n|\r|\n", -1);
        boolean continued = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].stripLeading();
            boolean thisContinued = continued;
            continued = endsWithOddBackslashes(lines[i]);
            if (thisContinued || line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            if (line.startsWith("{") || line.startsWith("[")) {
                throw new UserException(origin + ":" + (i + 1) + ": this looks like JSON, not a .properties file "
                        + "(one KEY=VALUE per line, e.g. security.protocol=SASL_SSL)");
            }
            int end = 0;
            while (end < line.length() && "=: \t\f".indexOf(line.charAt(end)) < 0) {
                end++;
            }
            String key = line.substring(0, end);
            if (!NAME.matcher(key).matches()) {
                throw new UserException(origin + ":" + (i + 1) + ": '" + (key.length() > 40 ? key.substring(0, 40) + "..."
                        : key) + "' is not a property name (a .properties file holds KEY=VALUE lines, e.g. "
                        + "security.protocol=SASL_SSL)");
            }
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new UserException(origin + ": cannot read it as a .properties file: " + e.getMessage());
        }
        return p;
    }

    private static boolean endsWithOddBackslashes(String line) {
        int n = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            n++;
        }
        return n % 2 == 1;
    }
}
