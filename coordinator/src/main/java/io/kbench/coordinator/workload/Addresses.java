package io.kbench.coordinator.workload;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code HOST:PORT} addresses as kbench takes them (workers, bootstrap servers), checked before anything is
 * contacted: a host name or IPv4 address, or an IPv6 address in brackets, and a port from 1 to 65535. Pure.
 */
public final class Addresses {
    private static final Pattern HOST_PORT = Pattern.compile("^([A-Za-z0-9._-]+|\\[[0-9a-fA-F:.]+\\]):(\\d{1,5})$");

    private Addresses() { }

    /** Why {@code address} is not {@code HOST:PORT}, or null when it is. */
    public static String problem(String address) {
        if (address == null || address.isBlank()) {
            return "an address cannot be empty; expected HOST:PORT";
        }
        Matcher m = HOST_PORT.matcher(address);
        if (!m.matches()) {
            return "'" + TopicNames.printable(address) + "' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)";
        }
        int port = Integer.parseInt(m.group(2));
        if (port < 1 || port > 65535) {
            return "'" + address + "': port " + port + " is out of range; allowed: 1 to 65535";
        }
        return null;
    }

    /** Why {@code list} is not {@code HOST:PORT[,HOST:PORT...]}, or null when it is. */
    public static String listProblem(String list) {
        if (list == null || list.isBlank()) {
            return "no address given; expected HOST:PORT[,HOST:PORT...]";
        }
        for (String a : list.split(",", -1)) {
            String p = problem(a.trim());
            if (p != null) {
                return p + (list.contains(",") ? " in '" + TopicNames.printable(list) + "'" : "");
            }
        }
        return null;
    }
}
