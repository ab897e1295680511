package io.kbench.coordinator.cli;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Addresses;
import io.kbench.protocol.BoundedFiles;

/**
 * The workers a run uses, as given: {@code HOST:PORT} addresses, {@code dns:///NAME:PORT} names that stand
 * for every address behind them (a Kubernetes headless Service answers with one per ready pod), and a
 * {@code --workers-file} of either, one per line with {@code #} comments. Everything is checked before any
 * worker is contacted; each problem is one line naming where it is.
 */
final class WorkerAddresses {
    /** The scheme of a name that stands for all its addresses. */
    static final String DNS = "dns:///";
    /** A workers file is read up to this size. */
    private static final long MAX_FILE_BYTES = 1 << 20;
    /** At most this many workers in all (the coordinator keeps a connection and a stream per worker). */
    static final int MAX_WORKERS = 1_000;

    /** Looks up every address of a host name. */
    interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    /** The system's resolver (hosts file, DNS, as configured on this host). */
    static final Resolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

    private WorkerAddresses() { }

    /**
     * The worker addresses of {@code given} (from {@code --workers}) and {@code file} (or null), names resolved.
     *
     * @param note where to say what a name resolved to
     */
    static List<String> expand(List<String> given, Path file, Resolver resolver, java.util.function.Consumer<String> note) {
        List<String> out = new ArrayList<>();
        for (String g : given) {
            out.addAll(entry(g, "--workers", resolver, note));
        }
        if (file != null) {
            if (file.toString().isBlank()) {
                throw new UserException("--workers-file: an empty path; give a file with one HOST:PORT per line");
            }
            if (java.nio.file.Files.isDirectory(file)) {
                throw new UserException("--workers-file " + file + ": a directory; expected a file with one HOST:PORT per line");
            }
            String text;
            try {
                text = BoundedFiles.readUtf8(file, MAX_FILE_BYTES);
            } catch (BoundedFiles.TooLargeException e) {
                throw new UserException("--workers-file " + file + ": larger than 1 MiB; expected one HOST:PORT per line");
            } catch (IOException e) {
                throw new UserException("--workers-file " + file + ": cannot read: " + e.getMessage());
            }
            int before = out.size();
            String[] lines = text.split("\r?\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                int hash = line.indexOf('#');
                String value = (hash >= 0 ? line.substring(0, hash) : line).strip();
                if (!value.isEmpty()) {
                    out.addAll(entry(value, file + ":" + (i + 1), resolver, note));
                }
            }
            if (out.size() == before) {
                throw new UserException("--workers-file " + file + ": lists no worker; expected one HOST:PORT (or "
                        + DNS + "NAME:PORT) per line, # for comments");
            }
        }
        if (out.size() > MAX_WORKERS) {
            throw new UserException("--workers: " + out.size() + " workers; at most " + MAX_WORKERS + " allowed");
        }
        return out;
    }

    private static List<String> entry(String value, String where, Resolver resolver, java.util.function.Consumer<String> note) {
        if (value.startsWith("dns://") && !value.startsWith(DNS)) {
            throw new UserException(where + ": '" + value.replaceAll("\\p{Cntrl}", "?") + "': a DNS server cannot be named; use "
                    + DNS + "NAME:PORT (the system's resolver)");
        }
        if (!value.startsWith(DNS)) {
            String problem = Addresses.problem(value);
            if (problem != null) {
                throw new UserException(where + ": " + problem);
            }
            return List.of(value);
        }
        String hostPort = value.substring(DNS.length());
        String problem = Addresses.problem(hostPort);
        if (problem != null) {
            throw new UserException(where + ": " + value + ": " + problem);
        }
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        String port = hostPort.substring(colon + 1);
        List<InetAddress> found;
        try {
            found = resolver.resolve(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new UserException(where + ": " + value + ": " + host + " does not resolve (" + e.getMessage()
                    + "); for a Kubernetes headless Service: NAME.NAMESPACE.svc, with ready pods behind it");
        }
        TreeSet<String> addresses = new TreeSet<>();
        for (InetAddress a : found) {
            addresses.add((a instanceof Inet6Address ? "[" + a.getHostAddress().replaceFirst("%.*$", "") + "]"
                    : a.getHostAddress()) + ":" + port);
        }
        if (addresses.isEmpty()) {
            throw new UserException(where + ": " + value + ": " + host + " resolves to no address");
        }
        note.accept("workers: " + value + " -> " + addresses.size() + " address(es): " + String.join(", ", addresses));
        return List.copyOf(addresses);
    }
}
