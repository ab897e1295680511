package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.protocol.Versions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deployment/ansible}: the playbook passes {@code ansible-playbook --syntax-check} and
 * {@code ansible-lint} (production profile), and the role, applied with {@code --connection=local} to a
 * temporary root, really installs the release archive, the token (0600), the TLS files and the hardened
 * systemd unit that runs the installed {@code bin/kbench} — which then runs — and a second run changes
 * nothing. (Users, chrony and the service itself are left to real hosts: they would change this machine.)
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class AnsibleRoleIT {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final Path ANSIBLE = ROOT.resolve("deployment/ansible");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldPassTheLintersAndInstallAWorkerIntoATemporaryRoot() throws Exception {
        for (String tool : List.of("ansible-playbook", "ansible-lint")) {
            if (!Files.isExecutable(Path.of("/usr/bin", tool))) {
                System.out.println("AnsibleRoleIT SKIPPED: no " + tool + " here; .ci/run installs ansible-core and ansible-lint");
                Assumptions.abort("no " + tool);
            }
        }
        Commands.Result syntax = run(List.of("ansible-playbook", "--syntax-check", "-i", "inventory.example.ini",
                "kbench-workers.yml"));
        assertEquals(0, syntax.exit(), syntax.output());
        Commands.Result lint = run(List.of("ansible-lint", "--offline", "--profile", "production"));
        assertEquals(0, lint.exit(), lint.output());

        Path root = Files.createDirectories(dir.resolve("root"));
        Path cert = Files.writeString(dir.resolve("worker.pem"), "-----BEGIN CERTIFICATE-----\ntest\n");
        Path key = Files.writeString(dir.resolve("worker.key"), "-----BEGIN PRIVATE KEY-----\ntest\n");
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nca\n");
        String version = Versions.kbench();
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("kbench_hosts", "localhost");
        vars.put("kbench_worker_root", root + "/");
        vars.put("kbench_worker_token", "ansible-test-token-0123456789");
        vars.put("kbench_worker_create_user", false);
        vars.put("kbench_worker_user", "root");
        vars.put("kbench_worker_group", "root");
        vars.put("kbench_worker_manage_service", false);
        vars.put("kbench_worker_install_chrony", false);
        vars.put("kbench_worker_tls_cert", cert.toString());
        vars.put("kbench_worker_tls_key", key.toString());
        vars.put("kbench_worker_tls_client_ca", ca.toString());
        vars.put("kbench_workers_file", dir.resolve("workers.txt").toString());
        vars.put("kbench_worker_java_opts", "-Xmx1g -XX:+UseG1GC");
        Map<String, Object> fromCheckout = new LinkedHashMap<>(vars);
        fromCheckout.put("kbench_worker_version", version);
        fromCheckout.put("kbench_worker_archive", ROOT.resolve("distribution/target/kbench-" + version + ".tar.gz").toString());
        List<String> apply = List.of("ansible-playbook", "-i", "localhost,", "--connection=local", "kbench-workers.yml",
                "-e", JSON.writeValueAsString(fromCheckout));
        Commands.Result first = run(apply);
        assertEquals(0, first.exit(), first.output());
        assertTrue(first.output().matches("(?s).*localhost\\s+: ok=\\d+\\s+changed=[1-9]\\d*\\s+unreachable=0\\s+failed=0.*"),
                first.output());

        Path installed = root.resolve("opt/kbench");
        assertEquals(Path.of("kbench-" + version), Files.readSymbolicLink(installed));
        Commands.Result v = run(List.of(installed.resolve("bin/kbench").toString(), "--version"));
        assertEquals(0, v.exit(), v.output());
        assertTrue(v.output().startsWith("kbench " + version), v.output());
        assertEquals("ansible-test-token-0123456789\n", Files.readString(root.resolve("etc/kbench/token")));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("etc/kbench/token"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("etc/kbench/tls/worker.key"))));
        assertEquals(Files.readString(ca), Files.readString(root.resolve("etc/kbench/tls/ca.pem")));
        String unit = Files.readString(root.resolve("etc/systemd/system/kbench-worker.service"));
        // the role's unit is the one in deployment/systemd, TLS and all (its user aside: root in this test)
        assertEquals(serviceLines(Files.readString(ROOT.resolve("deployment/systemd/kbench-worker.service")))
                .replace("User=kbench", "User=root").replace("-Xmx4g\"", "-Xmx1g -XX:+UseG1GC\""), serviceLines(unit));

        assertTrue(unit.contains("Environment=\"KBENCH_JAVA_OPTS=-Xmx1g -XX:+UseG1GC\"\n"), "two JVM options, quoted: " + unit);
        // the coordinator's --workers-file: every worker of the play as HOST:PORT
        List<String> listed = Files.readAllLines(dir.resolve("workers.txt")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertEquals(List.of("localhost:7070"), listed);

        Commands.Result second = run(apply);
        assertEquals(0, second.exit(), second.output());
        assertTrue(second.output().matches("(?s).*localhost\\s+: ok=\\d+\\s+changed=0\\s+unreachable=0\\s+failed=0.*"),
                "a second run changes nothing: " + second.output());

        // an archive rebuilt with the same version is unpacked again (its checksum differs), not skipped; and the role
        // run from that archive, unpacked next to it, finds it (and its version) by its defaults
        Path rebuilt = dir.resolve("kbench-" + version + ".tar.gz");
        Path extra = Files.writeString(dir.resolve("REBUILT"), "rebuilt\n");
        Commands.Result pack = Commands.run(List.of("sh", "-c", "gzip -dc \"$0\" > \"$1.tar\" && tar -rf \"$1.tar\" "
                + "--transform 's,^,kbench-" + version + "/,' -C \"$2\" REBUILT && gzip -c \"$1.tar\" > \"$1\" "
                + "&& rm \"$1.tar\" && tar -xzf \"$1\" -C \"$2\"",
                ROOT.resolve("distribution/target/kbench-" + version + ".tar.gz").toString(), rebuilt.toString(),
                extra.getParent().toString()), System.getenv(), dir, null, 60);
        assertEquals(0, pack.exit(), pack.output());
        Commands.Result redeploy = run(List.of("ansible-playbook", "-i", "localhost,", "--connection=local",
                "kbench-workers.yml", "-e", JSON.writeValueAsString(vars)), dir.resolve("kbench-" + version + "/deployment/ansible"));
        assertEquals(0, redeploy.exit(), redeploy.output());
        assertTrue(Files.exists(root.resolve("opt/kbench-" + version + "/REBUILT")), "the rebuilt archive was unpacked: "
                + redeploy.output());

        // no archive where the defaults look: one clear line naming what to set
        Files.delete(rebuilt);
        Commands.Result missing = run(List.of("ansible-playbook", "-i", "localhost,", "--connection=local",
                "kbench-workers.yml", "-e", JSON.writeValueAsString(vars)), dir.resolve("kbench-" + version + "/deployment/ansible"));
        assertEquals(2, missing.exit(), missing.output());
        assertTrue(missing.output().contains("set kbench_worker_archive to the kbench-VERSION.tar.gz file"), missing.output());
    }

    /** A unit's settings: comments and blank lines left out, continuation lines joined. */
    private static String serviceLines(String unit) {
        return unit.replaceAll("\\\\\\n\\s*", "").lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(String::strip).reduce("", (a, b) -> a + b + "\n");
    }

    private Commands.Result run(List<String> command) throws Exception {
        return run(command, ANSIBLE);
    }

    private Commands.Result run(List<String> command, Path workingDirectory) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put("ANSIBLE_NOCOLOR", "1");
        env.put("ANSIBLE_LOCAL_TEMP", dir.resolve("ansible-tmp").toString());
        env.put("ANSIBLE_HOME", dir.resolve("ansible-home").toString());
        return Commands.run(command, env, workingDirectory, null, 180);
    }
}
