package io.kbench.coordinator.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.kbench.coordinator.UserException;

/**
 * The broker sources of {@code --broker-jmx} and {@code --broker-metrics}, checked before anything starts: each
 * well formed, none twice, at most {@link #MAX} in all, and none for the embedded cluster (read without a flag).
 * A URL's credentials are never shown in a refusal.
 */
final class BrokerSources {
    /** Most broker sources one run reads. */
    static final int MAX = 100;

    private BrokerSources() { }

    /** The sources as the worker takes them: JMX HOST:PORTs, then URLs. */
    static List<String> check(List<String> jmx, List<String> urls, boolean embedded) {
        return check(jmx, urls, embedded, null, false);
    }

    /** How a JMX source over TLS is written for the worker: this, then {@code [USER:PASSWORD@]HOST:PORT}. */
    static final String TLS = "jmx+tls://";

    /** Longest URL taken (the worker takes no longer one). */
    static final int MAX_URL = 2000;

    /** Largest JMX password file read. */
    static final int MAX_PASSWORD_FILE = 64 * 1024;

    /**
     * The sources as the worker takes them: JMX HOST:PORTs — {@code USER:PASSWORD@HOST:PORT} (each part
     * URL-encoded) with {@code passwordFile} —, each prefixed {@link #TLS} with {@code tls}, then URLs.
     */
    static List<String> check(List<String> jmx, List<String> urls, boolean embedded, java.nio.file.Path passwordFile,
                              boolean tls) {
        if (passwordFile != null && jmx.isEmpty()) {
            throw new UserException("--broker-jmx-password-file is for the --broker-jmx addresses; none is given");
        }
        if (tls && jmx.isEmpty()) {
            throw new UserException("--broker-jmx-tls is for the --broker-jmx addresses; none is given");
        }
        if (jmx.isEmpty() && urls.isEmpty()) {
            return List.of();
        }
        String flag = jmx.isEmpty() ? "--broker-metrics" : "--broker-jmx";
        if (embedded) {
            throw new UserException(flag + " reads a cluster of yours (with --bootstrap-servers); the embedded "
                    + "brokers' metrics are read without it");
        }
        if (jmx.size() + urls.size() > MAX) {
            throw new UserException("--broker-jmx and --broker-metrics: at most " + MAX + " sources in all, got "
                    + (jmx.size() + urls.size()));
        }
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (String address : jmx) {
            String a = address.strip();
            String problem = a.isEmpty() ? "an empty address" : io.kbench.coordinator.workload.Addresses.problem(a);
            if (problem != null) {
                throw new UserException("--broker-jmx: " + problem + " (give HOST:PORT of a broker's JMX port)");
            }
            if (!seen.add(a)) {
                throw new UserException("--broker-jmx: " + a + " is given twice");
            }
            out.add(a);
        }
        if (passwordFile != null) {
            String login = credentials(passwordFile);
            out.replaceAll(a -> login + "@" + a);
        }
        if (tls) {
            out.replaceAll(a -> TLS + a);
        }
        for (String given : urls) {
            String u = given.strip();
            String shown = shown(u);
            String problem = urlProblem(u);
            if (problem != null) {
                throw new UserException("--broker-metrics: " + (u.isEmpty() ? "" : (shown.length() > 100
                        ? shown.substring(0, 100) + "..." : shown) + ": ") + problem
                        + " (give the http:// or https:// URL of a broker's JMX exporter, e.g. http://broker-1:7071/metrics)");
            }
            if (!seen.add(shown)) {
                throw new UserException("--broker-metrics: " + shown + " is given twice");
            }
            out.add(u);
        }
        return List.copyOf(out);
    }

    /**
     * {@code USER:PASSWORD} (URL-encoded) from a JMX password file in the JDK's format ({@code jmxremote.password}:
     * a line of a role and its password separated by white space; {@code #} starts a comment): its first entry.
     * What is wrong with the file is said with its path, never its content.
     */
    static String credentials(java.nio.file.Path file) {
        String text;
        try {
            if (file.toString().isBlank()) {
                throw new UserException("--broker-jmx-password-file: an empty path; give a JMX password file");
            }
            if (java.nio.file.Files.isDirectory(file)) {
                throw new UserException("--broker-jmx-password-file: " + file + " is a directory, not a password file");
            }
            if (java.nio.file.Files.size(file) > MAX_PASSWORD_FILE) {
                throw new UserException("--broker-jmx-password-file: " + file + " is larger than 64 KB; a JMX password "
                        + "file holds a line 'USER PASSWORD'");
            }
            text = java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UserException("--broker-jmx-password-file: " + file + " does not exist");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new UserException("--broker-jmx-password-file: " + file + " cannot be read (permission denied)");
        } catch (java.nio.charset.CharacterCodingException | java.io.UncheckedIOException e) {
            throw new UserException("--broker-jmx-password-file: " + file + " is not UTF-8 text");
        } catch (java.io.IOException e) {
            throw new UserException("--broker-jmx-password-file: " + file + " cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
        for (String line : text.split("\\R")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] parts = l.split("\\s+");
            if (parts.length != 2) {
                throw new UserException("--broker-jmx-password-file: " + file + ": its first entry is not 'USER PASSWORD' "
                        + "(the JDK's jmxremote.password format: a user and a password separated by white space)");
            }
            return java.net.URLEncoder.encode(parts[0], java.nio.charset.StandardCharsets.UTF_8) + ":"
                    + java.net.URLEncoder.encode(parts[1], java.nio.charset.StandardCharsets.UTF_8);
        }
        throw new UserException("--broker-jmx-password-file: " + file + " has no 'USER PASSWORD' line");
    }

    /** Null when {@code u} is an http(s) URL with a host and a port in range; else what is wrong. */
    static String urlProblem(String u) {
        if (u.isEmpty()) {
            return "an empty URL";
        }
        if (u.length() > MAX_URL) {
            return "longer than " + MAX_URL + " characters";
        }
        URI uri;
        try {
            uri = new URI(u);
        } catch (URISyntaxException e) {
            return "not a URL (" + e.getReason() + ")";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "not an http:// or https:// URL";
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            // "h:-5" or "h:99999999999" parse as an authority that is not host:port
            return uri.getRawAuthority() == null || uri.getRawAuthority().replaceFirst("^[^@]*@", "").isEmpty() ? "no host"
                    : "'" + uri.getRawAuthority().replaceFirst("^[^@]*@", "") + "' is not HOST or HOST:PORT with a port "
                    + "of 1-65535";
        }
        if (uri.getPort() > 65535) {
            return "port " + uri.getPort() + " is out of range (1-65535)";
        }
        if (uri.getRawFragment() != null) {
            return "a fragment (#...) is not sent to a server";
        }
        return null;
    }

    /** {@code u} without the credentials of its user part, as a refusal or a result shows it. */
    static String shown(String u) {
        return u.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@", "$1");
    }
}
