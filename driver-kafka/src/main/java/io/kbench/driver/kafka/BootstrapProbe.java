package io.kbench.driver.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why no broker answered: each bootstrap address probed with a plain TCP connect once the admin client gave up,
 * so that the refusal says "connection refused", "unknown host" or "timed out" instead of only "no answer" — and,
 * when the addresses accept connections, what that usually means with Kafka: the client's security settings do
 * not match the listener, or the brokers advertise addresses this host cannot reach.
 */
public final class BootstrapProbe {
    /** Most addresses probed. */
    static final int MAX = 10;

    private BootstrapProbe() { }

    /**
     * What the probe found, as one clause for the refusal line ("" when there is nothing to probe); call it once a
     * client has given up, it takes up to {@code timeoutMillis} per address.
     */
    public static String explain(String bootstrap, int timeoutMillis) {
        if (bootstrap == null || bootstrap.isBlank()) {
            return "";
        }
        Map<String, List<String>> byOutcome = new LinkedHashMap<>();
        int probed = 0;
        for (String raw : bootstrap.split(",")) {
            String a = raw.strip();
            if (a.isEmpty() || probed++ == MAX) {
                continue;
            }
            byOutcome.computeIfAbsent(probe(a, timeoutMillis), k -> new ArrayList<>()).add(a);
        }
        List<String> parts = new ArrayList<>();
        byOutcome.forEach((outcome, addresses) -> parts.add(outcome + " at " + String.join(", ", addresses)));
        String found = String.join("; ", parts);
        if (byOutcome.containsKey(ACCEPTS)) {
            found += " — something listens there but no Kafka broker answered the client: check the address, security.protocol (a TLS or "
                    + "SASL listener read as PLAINTEXT, or the reverse) and the brokers' advertised.listeners, the "
                    + "addresses the client connects to after the bootstrap, which must be reachable from this host";
        }
        return found;
    }

    static final String ACCEPTS = "TCP connections accepted";

    /** Outcomes that say nothing listens at an address now: waiting for a broker to answer there is pointless. */
    private static final java.util.Set<String> NOTHING_THERE = java.util.Set.of("connection refused", "unknown host",
            "not HOST:PORT");

    /**
     * Before a client waits for a broker: the refusal clause when no bootstrap address can answer at all — every one
     * refused the connection or does not resolve, and at least one refused — else null (something accepted, or an address did not answer
     * within {@code timeoutMillis}, which a firewall or a slow network also does: the client's own wait decides
     * then). A refused connection comes back at once, so a cluster that is not there is said in milliseconds.
     */
    public static String nothingListening(String bootstrap, int timeoutMillis) {
        if (bootstrap == null || bootstrap.isBlank()) {
            return null;
        }
        List<String> addresses = new ArrayList<>();
        for (String raw : bootstrap.split(",")) {
            if (!raw.isBlank()) {
                addresses.add(raw.strip());
            }
        }
        if (addresses.size() > MAX) {
            return null; // not all of them probed: the client decides
        }
        List<String> found = new ArrayList<>();
        boolean refused = false;
        for (String a : addresses) {
            String outcome = probe(a, timeoutMillis);
            // a name may stand for several hosts (the client tries every one): refused means refused by all of them
            if (!NOTHING_THERE.contains(outcome) || outcome.equals("connection refused") && !allRefuse(a, timeoutMillis)) {
                return null;
            }
            refused |= outcome.equals("connection refused");
            found.add(outcome + " at " + a);
        }
        // none resolving at all is the client's to say (it refuses such a bootstrap list as a setting)
        return refused ? String.join("; ", found) : null;
    }

    /** True when every address {@code hostPort}'s host resolves to (at most {@link #MAX}) refuses a connection. */
    static boolean allRefuse(String hostPort, int timeoutMillis) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon).replaceAll("^\\[|]$", "");
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        java.net.InetAddress[] all;
        try {
            all = java.net.InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return false;
        }
        for (int i = 0; i < Math.min(all.length, MAX); i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(all[i], port), timeoutMillis);
                return false;
            } catch (ConnectException e) {
                // refused: try the next
            } catch (IOException e) {
                return false; // timed out or unreachable: not known to be refused
            }
        }
        return all.length <= MAX;
    }

    /** One address's outcome in a few words. */
    static String probe(String address, int timeoutMillis) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            return "not HOST:PORT";
        }
        String host = address.substring(0, colon).replaceAll("^\\[|]$", "");
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            return "not HOST:PORT";
        }
        if (port < 1 || port > 65535) {
            return "not HOST:PORT";
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            return ACCEPTS;
        } catch (UnknownHostException e) {
            return "unknown host";
        } catch (ConnectException e) {
            return "connection refused";
        } catch (NoRouteToHostException e) {
            return "no route to host";
        } catch (SocketTimeoutException e) {
            return "no TCP answer within " + timeoutMillis + " ms";
        } catch (IllegalArgumentException e) {
            return "unknown host";
        } catch (IOException e) {
            return "cannot connect (" + e.getClass().getSimpleName() + ")";
        }
    }
}
