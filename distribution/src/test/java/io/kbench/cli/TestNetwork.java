package io.kbench.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Separate hosts on one machine for multi-host tests: one Linux network namespace per host, each joined by a
 * veth pair to a bridge in the root namespace, with its own address in a private /24 that nothing else on
 * the machine uses, and no default route (nothing leaves the machine). The root namespace holds the bridge's
 * address ({@link #hostAddress()}), where a test's broker listens.
 *
 * <p>{@link #cut} takes a host's link down (its TCP connections stall as if the host or network failed);
 * {@link #restore} brings it back. {@link #close()} kills every process left in the namespaces and removes
 * namespaces, links and bridge; a shutdown hook does the same if the JVM exits first, and {@link #create}
 * first removes what an earlier test JVM that died left behind (names carry the owning PID).
 *
 * <p>Needs root and iproute2 ({@code ip}). Set {@code KBENCH_SKIP_NETNS=1} to skip such tests on a machine
 * without them; otherwise a missing capability fails the test.
 */
final class TestNetwork implements AutoCloseable {
    private static final String PREFIX = "kbench-";
    private static final long PID = ProcessHandle.current().pid();

    private final String bridge;
    private final String subnet;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Thread hook;
    private boolean closed;

    /** One host: its namespace, the root-side end of its link, and its address. */
    record Host(String name, String namespace, String link, String address) { }

    private TestNetwork(String bridge, String subnet) {
        this.bridge = bridge;
        this.subnet = subnet;
        this.hook = new Thread(this::close, "kbench-netns-cleanup");
    }

    /**
     * Why network-namespace tests cannot run here, or null when they can: they were told to skip
     * ({@code KBENCH_SKIP_NETNS=1}), or this JVM is not root. As root they always run (and fail loudly when
     * {@code ip} cannot do its work), so CI, which runs as root, never skips them silently.
     */
    static String skipReason() {
        if ("1".equals(System.getenv("KBENCH_SKIP_NETNS"))) {
            return "KBENCH_SKIP_NETNS=1";
        }
        try {
            Object uid = java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid)) {
                return "they need root (this JVM runs as uid " + uid + ")";
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "they need Linux network namespaces and root (no /proc/self here: " + e.getMessage() + ")";
        }
        return null;
    }

    /** Skips the calling test class, with one line in the test output saying why, when {@link #skipReason} says so. */
    static void assumeAvailable(Class<?> testClass) {
        String reason = skipReason();
        if (reason != null) {
            System.out.println(testClass.getSimpleName() + " SKIPPED: network-namespace tests do not run here: " + reason);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(reason == null, () -> "network-namespace tests skipped: " + reason);
    }

    /** Creates a bridge and one namespace per name in {@code hostNames} (at most 5 characters each). */
    static TestNetwork create(String... hostNames) throws IOException, InterruptedException {
        removeLeftovers();
        String tag = Long.toString(PID % 100_000);
        String subnet = freeSubnet();
        TestNetwork net = new TestNetwork("kbb" + tag, subnet);
        Runtime.getRuntime().addShutdownHook(net.hook);
        try {
            ip("link", "add", net.bridge, "type", "bridge");
            ip("addr", "add", subnet + ".1/24", "dev", net.bridge);
            ip("link", "set", net.bridge, "up");
            // bridged traffic passes iptables' FORWARD chain when br_netfilter is loaded, and Docker sets its
            // policy to DROP: let this bridge's hosts reach each other whatever the machine's firewall says
            forwardRule("-I", net.bridge);
            int n = 2;
            for (String name : hostNames) {
                String ns = PREFIX + PID + "-" + name;
                String link = "kbv" + tag + "-" + (n - 1);
                String address = subnet + "." + n++;
                ip("netns", "add", ns);
                ip("link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", ns);
                ip("link", "set", link, "master", net.bridge);
                ip("link", "set", link, "up");
                ip("-n", ns, "addr", "add", address + "/24", "dev", "eth0");
                ip("-n", ns, "link", "set", "eth0", "up");
                ip("-n", ns, "link", "set", "lo", "up");
                net.hosts.put(name, new Host(name, ns, link, address));
            }
            return net;
        } catch (IOException | RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /** The bridge's address in the root namespace (where the test JVM and its broker live). */
    String hostAddress() {
        return subnet + ".1";
    }

    /** The address of host {@code name}. */
    String address(String name) {
        return host(name).address();
    }

    /** The command prefix that runs a program inside host {@code name}'s namespace. */
    List<String> inside(String name) {
        return List.of("ip", "netns", "exec", host(name).namespace());
    }

    /**
     * Gives host {@code name} its own {@code /etc/hosts} ({@code ip netns exec} mounts
     * {@code /etc/netns/NS/hosts} over it): names that resolve inside that host only, e.g. one name for
     * several workers, as a headless Service's DNS answers. Removed with the namespace.
     */
    void hostsFile(String name, String content) throws IOException {
        Path etc = Files.createDirectories(Path.of("/etc/netns", host(name).namespace()));
        Files.writeString(etc.resolve("hosts"), content);
    }

    /** Takes host {@code name}'s link down: its connections stall, as when a host or its network fails. */
    void cut(String name) throws IOException, InterruptedException {
        ip("link", "set", host(name).link(), "down");
    }

    /** Brings host {@code name}'s link back up. */
    void restore(String name) throws IOException, InterruptedException {
        ip("link", "set", host(name).link(), "up");
    }

    private Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host " + name + " in " + hosts.keySet());
        }
        return h;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Host h : hosts.values()) {
            removeNamespace(h.namespace());
        }
        quietly("link", "del", bridge);
        forwardRule("-D", bridge);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // running as the hook
        }
    }

    /** Kills what still runs in {@code ns} (by PID), then deletes it; its veth pair goes with it. */
    private static void removeNamespace(String ns) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "pids", ns).redirectErrorStream(true).start();
            String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            for (String pid : pids.split("\\s+")) {
                if (pid.matches("\\d+")) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        } catch (IOException e) {
            // nothing to kill
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        quietly("netns", "del", ns);
        Path etc = Path.of("/etc/netns", ns);
        try {
            Files.deleteIfExists(etc.resolve("hosts"));
            Files.deleteIfExists(etc);
        } catch (IOException e) {
            // left behind: the next sweep of leftovers removes it with its namespace's name
        }
    }

    /** Removes namespaces and bridges of test JVMs that are no longer running. */
    private static void removeLeftovers() throws IOException {
        Path dir = Path.of("/run/netns");
        if (Files.isDirectory(dir)) {
            try (var entries = Files.list(dir)) {
                for (Path p : entries.toList()) {
                    String name = p.getFileName().toString();
                    if (name.startsWith(PREFIX)) {
                        String owner = name.substring(PREFIX.length()).replaceFirst("-.*$", "");
                        if (owner.matches("\\d+") && ProcessHandle.of(Long.parseLong(owner)).isEmpty()) {
                            removeNamespace(name);
                            quietly("link", "del", "kbb" + Long.parseLong(owner) % 100_000);
                            forwardRule("-D", "kbb" + Long.parseLong(owner) % 100_000);
                        }
                    }
                }
            }
        }
    }

    /**
     * Inserts ({@code -I}) or deletes ({@code -D}) the iptables rule accepting forwarded traffic within
     * {@code bridge}; nothing when the machine has no iptables (then nothing filters bridged traffic either).
     */
    private static void forwardRule(String op, String bridge) {
        for (String iptables : List.of("/usr/sbin/iptables", "/sbin/iptables")) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(iptables))) {
                try {
                    Process p = new ProcessBuilder(iptables, op, "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT")
                            .redirectErrorStream(true).start();
                    p.getInputStream().readAllBytes();
                    p.waitFor(10, TimeUnit.SECONDS);
                } catch (IOException e) {
                    // no rule: the tests then say what they cannot reach
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
        }
    }

    /** A 10.77.x.0/24 no interface of this machine is in yet ("10.77.x"). */
    private static String freeSubnet() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "-4", "-o", "addr").redirectErrorStream(true).start();
        String used = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        for (int tries = 0; tries < 100; tries++) {
            String s = "10.77." + ThreadLocalRandom.current().nextInt(1, 255);
            if (!used.contains(" " + s + ".")) {
                return s;
            }
        }
        throw new IllegalStateException("no free 10.77.x.0/24 subnet");
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.trim()
                    + " (network namespace tests need root and iproute2; KBENCH_SKIP_NETNS=1 skips them)");
        }
    }

    private static void quietly(String... args) {
        try {
            ip(args);
        } catch (IOException e) {
            // already gone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
