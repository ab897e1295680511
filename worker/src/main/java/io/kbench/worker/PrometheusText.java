package io.kbench.worker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prometheus's text exposition format (version 0.0.4), as the JMX exporter serves it: {@code name{label="value",...}
 * value [timestamp]} per line, {@code #} comments. Only what a scrape needs: names, labels, values; malformed lines
 * are skipped, not fatal (a scrape reads what it can). Pure.
 */
final class PrometheusText {
    /** One sample: metric name, labels in the order given, value. */
    record Sample(String name, Map<String, String> labels, double value) { }

    /** Most samples one scrape is read into (a broker with thousands of partitions exports per-partition gauges). */
    static final int MAX_SAMPLES = 200_000;

    private PrometheusText() { }

    static List<Sample> parse(String text) {
        List<Sample> out = new ArrayList<>();
        int from = 0;
        int n = text.length();
        while (from < n && out.size() < MAX_SAMPLES) {
            int end = text.indexOf('\n', from);
            if (end < 0) {
                end = n;
            }
            Sample s = line(text, from, end);
            if (s != null) {
                out.add(s);
            }
            from = end + 1;
        }
        return out;
    }

    /** The sample on {@code text[from, end)}, or null for a comment, a blank or a malformed line. */
    static Sample line(String text, int from, int end) {
        int i = from;
        while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        if (i >= end || text.charAt(i) == '#') {
            return null;
        }
        int nameStart = i;
        while (i < end && isNameChar(text.charAt(i))) {
            i++;
        }
        if (i == nameStart) {
            return null;
        }
        String name = text.substring(nameStart, i);
        Map<String, String> labels = Map.of();
        if (i < end && text.charAt(i) == '{') {
            labels = new LinkedHashMap<>();
            i++;
            while (true) {
                while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == ',')) {
                    i++;
                }
                if (i >= end) {
                    return null;
                }
                if (text.charAt(i) == '}') {
                    i++;
                    break;
                }
                int k = i;
                while (i < end && isNameChar(text.charAt(i))) {
                    i++;
                }
                if (i == k || i + 1 >= end || text.charAt(i) != '=' || text.charAt(i + 1) != '"') {
                    return null;
                }
                String key = text.substring(k, i);
                i += 2;
                StringBuilder v = new StringBuilder();
                while (i < end && text.charAt(i) != '"') {
                    char c = text.charAt(i);
                    if (c == '\\' && i + 1 < end) {
                        char e = text.charAt(++i);
                        v.append(e == 'n' ? '\n' : e);
                    } else {
                        v.append(c);
                    }
                    i++;
                }
                if (i >= end) {
                    return null;
                }
                i++; // the closing quote
                labels.put(key, v.toString());
            }
        }
        while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        int valueStart = i;
        while (i < end && text.charAt(i) != ' ' && text.charAt(i) != '\t' && text.charAt(i) != '\r') {
            i++;
        }
        if (i == valueStart) {
            return null;
        }
        double value;
        String v = text.substring(valueStart, i);
        switch (v.toLowerCase(Locale.ROOT)) {
            case "nan" -> value = Double.NaN;
            case "+inf", "inf" -> value = Double.POSITIVE_INFINITY;
            case "-inf" -> value = Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    value = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return new Sample(name, labels, value);
    }

    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ':';
    }
}
