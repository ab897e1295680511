package io.kbench.coordinator.cli;

import java.util.List;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Addresses;
import io.kbench.coordinator.workload.TopicNames;

/** Checks of command-line values that run before any worker or cluster is contacted; each fails with one line. */
public final class Inputs {
    private Inputs() { }

    /**
     * The values of a comma-separated option as given, every occurrence split at each comma with the empty pieces
     * kept ({@code --workers ,,} is three empty addresses, for the check to refuse) — picocli's own {@code split}
     * drops them, and an option given only commas would read as not given at all.
     */
    static List<String> commaList(List<String> given) {
        List<String> out = new java.util.ArrayList<>();
        for (String g : given) {
            out.addAll(java.util.Arrays.asList(g.split(",", -1)));
        }
        return out;
    }

    /** A bootstrap server list, HOST:PORT[,HOST:PORT...]; null (not given) passes. */
    public static void bootstrap(String flag, String servers) {
        if (servers != null) {
            String problem = Addresses.listProblem(servers);
            if (problem != null) {
                throw new UserException(flag + ": " + problem);
            }
        }
    }

    /** Worker addresses, each HOST:PORT, none twice. */
    static void workers(List<String> workers) {
        workers(workers, "--workers");
    }

    /**
     * Worker addresses, each HOST:PORT, none twice.
     *
     * @param given the flags that named them, for the message ("--workers", "--workers and --workers-file")
     */
    static void workers(List<String> workers, String given) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String w : workers) {
            String problem = Addresses.problem(w);
            if (problem != null) {
                throw new UserException(given + ": " + problem);
            }
            if (!seen.add(w)) {
                throw new UserException(given + ": " + w + " is listed twice");
            }
        }
    }

    /** A Kafka topic name. */
    public static void topic(String flag, String name) {
        String problem = TopicNames.problem(name);
        if (problem != null) {
            throw new UserException(flag + ": " + problem);
        }
    }

    /**
     * The options the consumer perf tools share: {@code --timeout} (ms without a record), {@code --reporting-interval}
     * (whole seconds, kbench's interval clock), {@code --fetch-size} and {@code --socket-buffer-size} (null: not
     * given) and {@code --date-format}.
     */
    static void consumerTool(long timeoutMs, long reportingIntervalMs, Integer fetchSize, Integer socketBufferSize,
                             String dateFormat) {
        if (timeoutMs < 1 || timeoutMs > 86_400_000L) {
            throw new UserException("--timeout must be 1 to 86400000 ms, got " + timeoutMs);
        }
        if (reportingIntervalMs < 1000 || reportingIntervalMs % 1000 != 0 || reportingIntervalMs > 3_600_000L) {
            throw new UserException("--reporting-interval must be whole seconds in ms (1000, 2000 ... 3600000), got "
                    + reportingIntervalMs);
        }
        if (fetchSize != null && fetchSize < 1) {
            throw new UserException("--fetch-size must be at least 1 byte, got " + fetchSize);
        }
        if (socketBufferSize != null && (socketBufferSize < -1 || socketBufferSize == 0)) {
            throw new UserException("--socket-buffer-size must be -1 (the OS default) or at least 1 byte, got "
                    + socketBufferSize);
        }
        try {
            java.time.format.DateTimeFormatter.ofPattern(dateFormat);
        } catch (IllegalArgumentException e) {
            throw new UserException("--date-format '" + dateFormat + "': " + e.getMessage());
        }
    }

    /**
     * Refuses {@code address} as one this host cannot listen on, before anything starts: a name that does not resolve,
     * or an address none of its interfaces has (a broker would say "UnknownHostException" or "BindException: Cannot
     * assign requested address" after formatting its storage; a worker or page server "Failed to bind").
     *
     * @param flag the option that gave it, for the message
     */
    public static void listenAddress(String flag, String address) {
        listenAddress(flag, address, false);
    }

    /**
     * As {@link #listenAddress(String, String)}; an {@code advertised} address (the embedded brokers': they tell
     * clients to connect to it) may not be the wildcard either.
     */
    public static void listenAddress(String flag, String address, boolean advertised) {
        String why = notAnAddressOfThisHost(address, advertised);
        if (why != null) {
            throw new UserException(flag + " " + io.kbench.coordinator.workload.ConfigError.excerpt(address) + ": " + why);
        }
    }

    /** Why this host cannot listen on {@code host} (and, when {@code advertised}, tell clients of it), or null. */
    static String notAnAddressOfThisHost(String host, boolean advertised) {
        java.net.InetAddress a;
        try {
            a = java.net.InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            return "no such host name or address (give an address of this host, e.g. 127.0.0.1)";
        }
        if (a.isAnyLocalAddress()) {
            return advertised ? "the brokers give this address to their clients, who cannot connect to every "
                    + "interface; give one address of this host (e.g. 127.0.0.1)" : null;
        }
        try {
            if (a.isLoopbackAddress() || java.net.NetworkInterface.getByInetAddress(a) != null) {
                return null;
            }
        } catch (java.net.SocketException e) {
            return null; // the interfaces cannot be listed: the bind itself says what is wrong
        }
        return a.getHostAddress() + " is not an address of this host's interfaces (e.g. 127.0.0.1"
                + (advertised ? ")" : ", or 0.0.0.0 for all of them)");
    }

    /**
     * The embedded cluster kbench starts listens in PLAINTEXT only: a client given another {@code security.protocol}
     * fails in prepare (a JAAS or TLS error) after the cluster was started for nothing. Refused now, naming where the
     * setting came from ({@code sourceOf}: the override key, e.g. {@code common.security.protocol}, to its source).
     */
    static void plaintextForEmbedded(io.kbench.coordinator.workload.Profile profile,
                                     java.util.function.Function<String, String> sourceOf) {
        for (String section : List.of("common", "producer", "consumer", "admin")) {
            java.util.Map<String, String> props = switch (section) {
                case "common" -> profile.common();
                case "producer" -> profile.producer();
                case "consumer" -> profile.consumer();
                default -> profile.admin();
            };
            String protocol = props.get("security.protocol");
            if (protocol != null && !protocol.trim().equalsIgnoreCase("PLAINTEXT")) {
                String key = section + ".security.protocol";
                String shown = io.kbench.coordinator.workload.ConfigError.excerpt(protocol.trim());
                throw new UserException(sourceOf.apply(key) + ": " + key + " " + shown + ": the embedded cluster kbench "
                        + "starts listens in PLAINTEXT only; give a cluster that takes " + shown
                        + " (--bootstrap-servers), or leave security.protocol out");
            }
        }
    }

    /** Prints one note on stderr, its file's or flag's text written out (no control character reaches the terminal). */
    static void note(String note) {
        System.err.println("kbench: note: " + io.kbench.coordinator.workload.ConfigError.printable(note));
    }
}
