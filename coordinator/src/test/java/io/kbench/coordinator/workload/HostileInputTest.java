package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files a careless or hostile user writes: every one is refused with the line and column of the problem and
 * what is wrong in words, before anything runs.
 */
class HostileInputTest {
    @TempDir
    Path dir;

    private Path file(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The one error of loading {@code text} as a workload (or profile), as "line:column: message". */
    private String workloadError(byte[] text) throws IOException {
        Path p = file("w.yaml", text);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
        ConfigError c = e.errors().get(0);
        return c.line() + ":" + c.column() + ": " + c.message();
    }

    private String profileError(String text) throws IOException {
        Path p = file("p.yaml", utf8(text));
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Profile.load(p));
        ConfigError c = e.errors().get(0);
        return c.line() + ":" + c.column() + ": " + c.message();
    }

    static Stream<Arguments> badWorkloads() {
        String base = "durationSeconds: 5\n";
        return Stream.of(
                Arguments.of("quoted integer", utf8(base + "producerRate: \"5000\"\n"),
                        "2:15: producerRate must be a whole number (-1 for unthrottled, or 1 to 1000000000 msg/s), "
                                + "not the quoted text '5000'; remove the quotes"),
                Arguments.of("quoted number", utf8(base + "randomBytesRatio: '0.5'\n"),
                        "2:19: randomBytesRatio must be a number (0 to 1 (fraction of each value that is random)), "
                                + "not the quoted text '0.5'; remove the quotes"),
                Arguments.of("Java float literal", utf8(base + "randomBytesRatio: 0.5f\n"),
                        "2:19: randomBytesRatio must be a number (0 to 1 (fraction of each value that is random)), got '0.5f'"),
                Arguments.of("NaN", utf8(base + "zipfExponent: NaN\nkeyDistribution: zipf\n"),
                        "2:15: zipfExponent must be a number (0.01 to 10), got 'NaN'"),
                Arguments.of("quoted boolean", utf8(base + "verification: \"false\"\n"),
                        "2:15: verification must be true or false, without quotes"),
                Arguments.of("Latin-1 byte", concat(utf8(base + "# caf"), new byte[] {(byte) 0xE9}, utf8("\n")),
                        "2:6: byte 0xE9 is not UTF-8 text; save the file as UTF-8"),
                Arguments.of("NUL", utf8(base + "messageSize: 1\u00000\n"),
                        "2:15: control character U+0000 (NUL) is not allowed in YAML; remove it"),
                Arguments.of("escape character", utf8("name: a\u001b\n" + base),
                        "1:8: control character U+001B is not allowed in YAML; remove it"),
                Arguments.of("deep nesting", utf8(base + "faults: " + "[".repeat(40) + "]".repeat(40) + "\n"),
                        "2:24: nested more than 16 levels deep; kbench files need at most 3 (e.g. faults: - {at: 10, ...})"),
                Arguments.of("alias bomb", utf8(base + "a: &a [x, x]\nb: [" + "*a, ".repeat(150) + "*a]\n"),
                        "3:" + (5 + 4 * 100) + ": more than 100 aliases (*name); write the values out"),
                Arguments.of("name with a path", utf8(base + "name: ../../etc\n"),
                        "2:7: name '../../etc' is not a plain name: 1 to 100 of A-Z a-z 0-9 . _ + -, starting with a "
                                + "letter or digit (it names the results directory)"),
                Arguments.of("name with a slash", utf8(base + "name: a/b\n"),
                        "2:7: name 'a/b' is not a plain name: 1 to 100 of A-Z a-z 0-9 . _ + -, starting with a letter "
                                + "or digit (it names the results directory)"),
                Arguments.of("name with a newline", utf8(base + "name: \"a\\nb\"\n"),
                        "2:7: name 'a\\nb' is not a plain name: 1 to 100 of A-Z a-z 0-9 . _ + -, starting with a letter "
                                + "or digit (it names the results directory)"),
                Arguments.of("empty name", utf8(base + "name: ''\n"), "2:7: name must be a non-empty string"),
                Arguments.of("null name", utf8(base + "name: null\n"), "2:7: name must be a non-empty string"),
                Arguments.of("consumers that overflow an int",
                        utf8(base + "topics: 10000\nsubscriptionsPerTopic: 1000\nconsumersPerSubscription: 300\n"),
                        "4:1: topics x subscriptionsPerTopic x consumersPerSubscription is 3,000,000,000 consumers; "
                                + "at most 100,000 in all"),
                Arguments.of("producers beyond the bound", utf8(base + "topics: 10000\nproducersPerTopic: 10000\n"),
                        "3:1: topics x producersPerTopic is 100,000,000 producers; at most 100,000 in all"),
                Arguments.of("partitions beyond the bound", utf8(base + "topics: 10000\npartitionsPerTopic: 100000\n"),
                        "3:1: topics x partitionsPerTopic is 1,000,000,000 partitions; at most 1,000,000 in all"),
                Arguments.of("bad topic name", utf8(base + "topicNames: [ok, 'bad name']\n"),
                        "2:13: 'bad name' is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -)"),
                Arguments.of("reserved topic name", utf8(base + "topicNames: ['..']\n"),
                        "2:13: '..' is not a valid Kafka topic name ('.' and '..' are reserved)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badWorkloads")
    void shouldRefuseABadWorkloadAtItsPosition(String what, byte[] text, String expected) throws IOException {
        assertEquals(expected, workloadError(text));
    }

    @Test
    void shouldRefuseAFileTooLargeToBeAWorkloadWithoutReadingIt() throws IOException {
        byte[] big = new byte[(int) YamlText.MAX_BYTES + 1];
        java.util.Arrays.fill(big, (byte) '#');
        assertEquals("1:1: the file is 1,048,577 bytes; at most 1,048,576 allowed (kbench reads workload and profile files of at most 1 MiB)",
                workloadError(big));
    }

    @Test
    @Timeout(10)
    void shouldRefuseAnEndlessFileAndADirectory() throws IOException {
        for (Path p : List.of(Path.of("/dev/zero"), dir)) {
            InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
            assertTrue(e.errors().get(0).message().startsWith(p.equals(dir) ? "is a directory" : "more than 1,048,576 bytes"),
                    e.errors().get(0).toString());
        }
    }

    @Test
    @Timeout(10)
    void shouldCountAMatrixBeforeExpandingIt() throws IOException {
        StringBuilder s = new StringBuilder("durationSeconds: 5\nmatrix:\n");
        for (int i = 0; i < 40; i++) {
            s.append("  producer.p").append(i).append(": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n");
        }
        String error = workloadError(utf8(s.toString()));
        assertTrue(error.startsWith("3:3: the matrix has 10 x 10 x "), error);
        assertTrue(error.endsWith(" = more than 1000 combinations; at most 1000 allowed"), error);
    }

    @Test
    void shouldRefuseAPayloadFileOfMoreValuesThanAWorkerShouldHold() throws IOException {
        Path payload = file("tiny-values.txt", utf8("a\n".repeat(PayloadFile.MAX_VALUES + 1)));
        String error = workloadError(utf8("durationSeconds: 5\npayloadFile: " + payload.getFileName() + "\n"));
        assertTrue(error.startsWith("2:14: payload file "), error);
        assertTrue(error.endsWith("holds more than 1,000,000 values; at most that many allowed (join short values, or use "
                + "messageSize)"), error);
    }

    @Test
    void shouldMakeTheDefaultNameFromTheFileNameSafe() throws IOException {
        Path p = file("my load (1).yaml", utf8("durationSeconds: 5\n"));
        assertEquals("my_load__1_", Workload.load(p).name());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "bootstrap.servers: localhost|1:20|bootstrap.servers: 'localhost' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)",
        "bootstrap.servers: 'b1:9092,'|1:20|bootstrap.servers: an address cannot be empty; expected HOST:PORT in 'b1:9092,'",
        "bootstrap.servers: b1:70000|1:20|bootstrap.servers: 'b1:70000': port 70000 is out of range; allowed: 1 to 65535",
        "producer:\\n  acks:\\n|2:3|producer.acks has no value; give one (e.g. acks: 1) or remove the line",
        "producer:\\n  acks: ~\\n|2:3|producer.acks has no value; give one (e.g. acks: 1) or remove the line",
        "consumer:\\n  fetch.min.bytes: 1\\n  fetch.min.bytes: 2\\n|3:3|consumer.fetch.min.bytes is set twice",
        "common:\\n  group.id: g\\n|1:1|common.group.id is set by kbench; remove it",
        "replicationFactor: '3'\\n|1:20|replicationFactor must be a whole number (1 to 32767), not the quoted text '3'; remove the quotes",
    })
    void shouldRefuseABadProfileAtItsPosition(String text, String position, String message) throws IOException {
        assertEquals(position + ": " + message, profileError(text.replace("\\n", "\n")));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "broker1:9092|",
        "10.0.0.5:7070|",
        "[::1]:9092|",
        "host:0|'host:0': port 0 is out of range; allowed: 1 to 65535",
        "host:99999|'host:99999': port 99999 is out of range; allowed: 1 to 65535",
        "host|'host' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)",
        "host:-1|'host:-1' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)",
        "host:80:81|'host:80:81' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)",
        "\" \"|an address cannot be empty; expected HOST:PORT",
    })
    void shouldCheckHostPortAddresses(String address, String problem) {
        assertEquals(problem, Addresses.problem(address));
    }

    @Test
    void shouldCheckTopicNamesAsKafkaDoes() {
        assertNull(TopicNames.problem("orders.v1_x-y"));
        assertNull(TopicNames.problem("a".repeat(249)));
        for (String bad : List.of("", ".", "..", "a b", "a/b", "a".repeat(250), "tab\there", "ü")) {
            assertTrue(TopicNames.problem(bad) != null, "'" + bad + "' should be refused");
        }
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void shouldRefuseAPathTheSystemCannotTakeAndNeverPrintAControlCharacter() throws IOException {
        // a NUL in a path was an internal error (InvalidPathException), and stopped kbench validate's other files
        assertEquals("2:14: payloadFile is not a path this system takes (Nul character not allowed)",
                workloadError(utf8("durationSeconds: 5\npayloadFile: \"a\\u0000b\"\n")));
        assertEquals("3:14: payloadFile is not a path this system takes (Nul character not allowed)", workloadError(utf8(
                "testDurationMinutes: 1\nuseRandomizedPayloads: false\npayloadFile: \"a\\u0000b\"\n")), "an OMB workload's");
        // an escape sequence in a file's text (it could clear the terminal that prints the refusal): written out
        Path p = file("esc.yaml", utf8("name: \"\\e[2J\\nx\"\ndurationSeconds: 5\n"));
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
        String shown = e.errors().get(0).toString();
        assertTrue(shown.chars().noneMatch(Character::isISOControl), shown);
        assertTrue(shown.endsWith("name '\\u001b[2J\\nx' is not a plain name: 1 to 100 of A-Z a-z 0-9 . _ + -, starting with "
                + "a letter or digit (it names the results directory)"), shown);
        assertEquals("1:7: name must be printable text, without control characters, got '\\u001b[2J'",
                profileError("name: \"\\e[2J\"\ndriver: kafka\n"), "a profile's name: shown everywhere");
        assertEquals("plain", ConfigError.printable("plain"));
        assertEquals("a\\tb\\u0000", ConfigError.printable("a\tb\u0000").replace("\\u0009", "\\t"));
    }

    /**
     * A pipe ({@code kbench validate <(envsubst < w.yaml)}) can be read once: telling a profile from a workload and
     * then reading it as one read the same text (it was read empty the second time: "expected a mapping").
     */
    @Test
    @Timeout(30)
    void aPipeIsReadOnceAndItsTextServesEveryReader() throws Exception {
        Path fifo = dir.resolve("pipe.yaml");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mkfifo.waitFor());
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(fifo, "name: piped\ndurationSeconds: 5\n"); // opens, writes, closes: once
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        assertEquals(false, Profile.looksLikeProfile(fifo));
        writer.join();
        Sweep s = againWithoutWriter(fifo, () -> Sweep.load(fifo));
        assertEquals("piped", s.base().name());
        assertEquals(5, s.base().durationSeconds());

        // another pipe under the same name (as /dev/fd/63 is in each command a JVM runs): its own text, not the first's
        Files.delete(fifo);
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Thread second = new Thread(() -> {
            try {
                Files.writeString(fifo, "name: again\ndurationSeconds: 7\n");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        second.start();
        assertEquals("again", Sweep.load(fifo).base().name());
        second.join();
    }

    /** A pipe of more than 1 MiB is refused as such by every reader, not read on from where the first one stopped. */
    @Test
    @Timeout(30)
    void aPipeTooLongIsRefusedByEveryReader() throws Exception {
        Path fifo = dir.resolve("long-pipe.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Thread writer = new Thread(() -> {
            try (java.io.OutputStream out = Files.newOutputStream(fifo)) {
                out.write(new byte[2 << 20]);
            } catch (IOException e) {
                // the reader stopped at 1 MiB: a broken pipe
            }
        });
        writer.start();
        assertEquals(false, Profile.looksLikeProfile(fifo));
        writer.join();
        String message = againWithoutWriter(fifo, () -> assertThrows(InvalidConfigException.class,
                () -> Sweep.load(fifo)).errors().get(0).message());
        assertTrue(message.startsWith("more than 1,048,576 bytes"), message);
    }

    /**
     * {@code read} of a pipe whose writer has gone: opened again it would wait for ever, so it runs on another thread
     * and, after 10 s, the pipe is opened for writing once to let it end, and the test fails instead of hanging.
     */
    private static <T> T againWithoutWriter(Path fifo, java.util.concurrent.Callable<T> read) throws Exception {
        java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            return reader.submit(read).get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            Files.writeString(fifo, "");
            throw new AssertionError("the pipe was opened again, and waited for a writer");
        } finally {
            reader.shutdownNow();
        }
    }
}
