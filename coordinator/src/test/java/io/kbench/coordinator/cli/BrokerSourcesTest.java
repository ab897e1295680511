package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.Test;

/** --broker-jmx and --broker-metrics: the hostile cases, refused in one line, credentials never shown. */
class BrokerSourcesTest {
    private static String refusal(List<String> jmx, List<String> urls, boolean embedded) {
        return assertThrows(UserException.class, () -> BrokerSources.check(jmx, urls, embedded)).getMessage();
    }

    @Test
    void shouldTakeJmxAddressesThenUrls() {
        assertEquals(List.of("b1:9999", "http://b2:7071/metrics", "https://u:p@b3:7071/metrics"),
                BrokerSources.check(List.of(" b1:9999"), List.of("http://b2:7071/metrics", "https://u:p@b3:7071/metrics"),
                        false));
        assertEquals(List.of(), BrokerSources.check(List.of(), List.of(), true));
    }

    @Test
    void shouldRefuseWhatCannotBeAnExporterUrl() {
        assertTrue(refusal(List.of(), List.of(""), false).startsWith("--broker-metrics: an empty URL"));
        assertTrue(refusal(List.of(), List.of("b1:7071"), false).contains("not an http:// or https:// URL"));
        assertTrue(refusal(List.of(), List.of("ftp://b1/metrics"), false).contains("not an http:// or https:// URL"));
        assertTrue(refusal(List.of(), List.of("http:///metrics"), false).contains("no host"));
        assertTrue(refusal(List.of(), List.of("http://b1:99999/metrics"), false).contains("out of range"));
        assertTrue(refusal(List.of(), List.of("http://b1:-5/metrics"), false).contains("'b1:-5' is not HOST or HOST:PORT"));
        String big = refusal(List.of(), List.of("http://u:pw@b1:99999999999/m"), false);
        assertTrue(big.contains("'b1:99999999999' is not HOST or HOST:PORT") && !big.contains("pw@"), big);
        assertTrue(refusal(List.of(), List.of("http://b 1/metrics"), false).contains("not a URL"));
        assertTrue(refusal(List.of(), List.of("http://b1:7071/metrics#x"), false).contains("fragment"));
        String huge = refusal(List.of(), List.of("http://b1:7071/" + "m".repeat(5_000)), false);
        assertTrue(huge.contains("longer than 2000 characters") && huge.length() < 300, huge);
        String twice = refusal(List.of(), List.of("http://u:secret@b1:7071/m", "http://b1:7071/m"), false);
        assertTrue(twice.contains("given twice"), twice);
        assertFalse(twice.contains("secret"), "credentials are never shown: " + twice);
        String bad = refusal(List.of(), List.of("ftp://admin:hunter2@b1/metrics"), false);
        assertFalse(bad.contains("hunter2"), bad);
        assertFalse(bad.contains("\n"));
    }

    @Test
    void shouldRefuseTheEmbeddedClusterAndTooManySources() {
        assertTrue(refusal(List.of(), List.of("http://b1:7071/metrics"), true).startsWith("--broker-metrics reads a cluster of yours"));
        assertTrue(refusal(List.of("b1:9999"), List.of(), true).startsWith("--broker-jmx reads a cluster of yours"));
        List<String> jmx = java.util.stream.IntStream.range(0, 60).mapToObj(i -> "b" + i + ":9999").toList();
        List<String> urls = java.util.stream.IntStream.range(0, 41).mapToObj(i -> "http://b" + i + ":7071/").toList();
        assertTrue(refusal(jmx, urls, false).contains("at most 100 sources in all, got 101"));
        assertTrue(refusal(List.of("b1:9999", "b1:9999"), List.of(), false).contains("b1:9999 is given twice"));
        assertTrue(refusal(List.of("b1"), List.of(), false).startsWith("--broker-jmx: "));
    }

    @Test
    void shouldReadALoginFromAJdkPasswordFileAndSayWhatIsWrongWithOneWithoutItsContent(@org.junit.jupiter.api.io.TempDir
                                                                                      java.nio.file.Path dir) throws Exception {
        java.nio.file.Path ok = java.nio.file.Files.writeString(dir.resolve("ok"), "# comment\n\n  monitor  p@ss:w/rd \n");
        assertEquals(List.of("monitor:p%40ss%3Aw%2Frd@b1:9999", "http://b2/metrics"),
                BrokerSources.check(List.of("b1:9999"), List.of("http://b2/metrics"), false, ok, false));
        java.nio.file.Path three = java.nio.file.Files.writeString(dir.resolve("three"), "monitor secret extra\n");
        String bad = assertThrows(UserException.class, () -> BrokerSources.check(List.of("b1:9999"), List.of(), false, three, false))
                .getMessage();
        assertTrue(bad.contains("its first entry is not 'USER PASSWORD'"), bad);
        assertFalse(bad.contains("secret"), "never the content: " + bad);
        java.nio.file.Path empty = java.nio.file.Files.writeString(dir.resolve("empty"), "# only a comment\n");
        assertTrue(assertThrows(UserException.class, () -> BrokerSources.check(List.of("b1:9999"), List.of(), false, empty, false))
                .getMessage().contains("has no 'USER PASSWORD' line"));
        assertTrue(assertThrows(UserException.class, () -> BrokerSources.check(List.of("b1:9999"), List.of(), false,
                dir.resolve("missing"), false)).getMessage().contains("does not exist"));
        assertTrue(assertThrows(UserException.class, () -> BrokerSources.check(List.of("b1:9999"), List.of(), false, dir, false))
                .getMessage().contains("is a directory"));
        java.nio.file.Path big = java.nio.file.Files.write(dir.resolve("big"), new byte[70_000]);
        assertTrue(assertThrows(UserException.class, () -> BrokerSources.check(List.of("b1:9999"), List.of(), false, big, false))
                .getMessage().contains("larger than 64 KB"));
        assertTrue(assertThrows(UserException.class, () -> BrokerSources.check(List.of(), List.of("http://b/m"), false, ok, false))
                .getMessage().contains("--broker-jmx-password-file is for the --broker-jmx addresses"));
    }

    @Test
    void shouldMarkEveryJmxSourceForTlsAndOnlyThem(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path ok = java.nio.file.Files.writeString(dir.resolve("ok"), "monitor secret\n");
        assertEquals(List.of("jmx+tls://monitor:secret@b1:9999", "jmx+tls://monitor:secret@b2:9999", "http://b3/metrics"),
                BrokerSources.check(List.of("b1:9999", "b2:9999"), List.of("http://b3/metrics"), false, ok, true));
        assertEquals(List.of("jmx+tls://b1:9999"), BrokerSources.check(List.of("b1:9999"), List.of(), false, null, true));
        assertTrue(assertThrows(UserException.class, () -> BrokerSources.check(List.of(), List.of("http://b/m"), false,
                null, true)).getMessage().contains("--broker-jmx-tls is for the --broker-jmx addresses; none is given"));
    }
}
