package io.kbench.coordinator.workload;

import java.util.regex.Pattern;

/** Kafka's rules for topic names, checked before any cluster is contacted. Pure. */
public final class TopicNames {
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private TopicNames() { }

    /** Why {@code name} is not a valid Kafka topic name, or null when it is. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "a topic name cannot be empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "'" + name + "' is not a valid Kafka topic name ('.' and '..' are reserved)";
        }
        if (!LEGAL.matcher(name).matches()) {
            return "'" + printable(name) + "' is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -)";
        }
        return null;
    }

    static String printable(String s) {
        String shown = s.length() > 60 ? s.substring(0, 60) + "..." : s;
        return shown.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r");
    }
}
