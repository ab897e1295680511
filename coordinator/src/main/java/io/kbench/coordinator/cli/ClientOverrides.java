package io.kbench.coordinator.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Profile;

/**
 * Client properties from the command line as profile overrides — Kafka {@code .properties} files (the
 * {@code --producer.config} habit), {@code PROP=VALUE} lists, and single flags — each remembered with where it
 * came from, so a key that cannot be applied is blamed on the file or flag that set it. Later sources win.
 *
 * <p>Not thread-safe; one per command.
 */
final class ClientOverrides {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new HashMap<>();

    /**
     * Adds every property of {@code file} as {@code <section>.<key>} ({@code bootstrap.servers} as itself).
     *
     * @param flag the option that named the file, for messages
     */
    ClientOverrides file(Path file, String section, String flag) {
        if (file == null) {
            return this;
        }
        String origin = file.toString().isBlank() ? flag : flag + " " + file;
        Properties p = PropertiesFile.load(file, origin);
        for (String key : new TreeSet<>(p.stringPropertyNames())) {
            put(key.equals("bootstrap.servers") ? key : section + "." + key, p.getProperty(key).trim(), origin);
        }
        return this;
    }

    /**
     * Adds {@code PROP=VALUE} pairs as {@code <section>.<PROP>} ({@code bootstrap.servers} as itself); with a
     * null section the keys are taken as they are ({@code --set producer.acks=all}).
     */
    ClientOverrides pairs(List<String> pairs, String section, String flag) {
        java.util.Set<String> given = new java.util.HashSet<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq < 1) {
                // without '=' there is no telling key from value: text that looks secret is not repeated
                throw new UserException(flag + " '" + (Profile.isSecret(pair) ? Profile.REDACTED : pair)
                        + "': expected " + (section == null ? "KEY=VALUE, e.g. producer.acks=all" : "PROP=VALUE"));
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            // the same key twice in one flag: which value was meant? (a later layer — --set over a file — is not this)
            if (!given.add(key)) {
                throw new UserException(flag + " " + key + " is given twice; give each key once");
            }
            // the origin names the key only: a refusal never repeats a value (which may be a password)
            put(section == null || key.equals("bootstrap.servers") ? key : section + "." + key, value, flag + " " + key);
        }
        return this;
    }

    /** The keys given, in order. */
    java.util.Set<String> keys() {
        return java.util.Collections.unmodifiableSet(values.keySet());
    }

    /** Where {@code key} was given — its flag, or its flag and file — without the key itself. */
    String source(String key) {
        String origin = origins.get(key);
        return origin != null && origin.endsWith(" " + key) ? origin.substring(0, origin.length() - key.length() - 1) : origin;
    }

    /** Adds one override, from {@code origin} (a flag, for messages). */
    ClientOverrides put(String key, String value, String origin) {
        values.put(key, value);
        origins.put(key, origin);
        return this;
    }

    /**
     * The consumers' {@code name} (a Kafka tool's flag): {@code given} when the flag was given, else the tool's
     * {@code toolDefault} unless a file or property set the key already ({@code consumer.} or {@code common.}) — as the
     * tool's own default applies, not the client's.
     */
    ClientOverrides consumerFlag(String name, Integer given, int toolDefault, String flag) {
        if (given != null) {
            return put("consumer." + name, given.toString(), flag);
        }
        return values.containsKey("consumer." + name) || values.containsKey("common." + name) ? this
                : put("consumer." + name, String.valueOf(toolDefault), flag);
    }

    /**
     * {@code base} with every override applied in order, each client setting also held against the driver's config
     * definitions: a refused one is a {@link UserException} naming its file or flag, an unknown name a note.
     *
     * @throws UserException one line naming the file or flag whose key or value cannot be applied
     */
    Profile applyTo(Profile base, io.kbench.coordinator.workload.ConfigCheck check,
                    java.util.function.Consumer<String> notes) {
        Profile p = base;
        for (Map.Entry<String, String> e : values.entrySet()) {
            try {
                p = p.with(Map.of(e.getKey(), e.getValue()));
            } catch (IllegalArgumentException bad) {
                throw new UserException(origins.get(e.getKey()) + ": " + bad.getMessage());
            }
            io.kbench.coordinator.workload.ConfigCheck.Finding f = check.checkKey(e.getKey(), e.getValue());
            if (f != null) {
                // the origin names the key ("--set producer.acks"): the message need not say it again
                String m = f.message().startsWith(e.getKey() + ": ") ? f.message().substring(e.getKey().length() + 2)
                        : f.message();
                if (f.refused()) {
                    throw new UserException(origins.get(e.getKey()) + ": " + m);
                }
                notes.accept(origins.get(e.getKey()) + ": " + m);
            }
        }
        return p;
    }
}
