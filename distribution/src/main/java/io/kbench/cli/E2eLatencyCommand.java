package io.kbench.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kbench.coordinator.UserException;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kbench e2e-latency}: Kafka's EndToEndLatency (4.3.1) — its arguments, positional or named, and its
 * output lines — measured kbench's way: one record in flight, sent synchronously and polled back by a
 * consumer assigned to every partition at the log end; each round trip timed with {@code System.nanoTime}
 * into an HdrHistogram at microsecond resolution (the tool keeps whole milliseconds). stdout has the tool's
 * progress lines, {@code Avg latency} and {@code Percentiles} lines (whole ms, as the tool prints them);
 * stderr has the same figures in µs, the send -> ack latency, and the full distribution.
 */
@Command(name = "e2e-latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Kafka's EndToEndLatency, measured at microsecond resolution.",
            "",
            "kbench e2e-latency BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE], or the same with the named options of Kafka 4.2+. Sends one record at a time (acks 1 or all, linger.ms=0), waits for its ack, then polls it back with a consumer at the end of every partition (fetch.max.wait.ms=0); the time from send to receipt is one sample. A missing topic is created with 1 partition and replication factor 1, as the tool does.",
            "",
            "stdout: the tool's lines ('0<TAB>ms' every 1000 records, 'Avg latency: X ms', 'Percentiles: 50th = A, 99th = B, 99.9th = C' in whole ms). stderr: the same in µs with p99.99 and max, the send -> ack latency, and the percentile distribution in ms."})
public final class E2eLatencyCommand implements Callable<Integer> {
    static final long POLL_TIMEOUT_MS = 60_000;
    static final int MAX_RECORDS = 100_000_000;
    static final int MAX_SIZE = 100 * 1024 * 1024;

    @Parameters(arity = "0..*", paramLabel = "ARG",
            description = "BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE] (the tool's positional form).")
    List<String> positional = new ArrayList<>();

    @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, paramLabel = "HOST:PORT[,...]", description = "The Kafka cluster.")
    String bootstrapServer;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic (created with 1 partition if missing).")
    String topic;

    @Option(names = "--num-records", paramLabel = "N", description = "Records to send, one at a time.")
    Integer numRecords;

    @Option(names = "--producer-acks", paramLabel = "1|all", description = "Producer acks: 1 or all.")
    String acks;

    @Option(names = "--record-size", paramLabel = "BYTES", description = "Value size in bytes (0 or more).")
    Integer recordSize;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Properties for the producer, consumer and admin client.")
    Path commandConfig;

    @Option(names = "--record-key-size", paramLabel = "BYTES", defaultValue = "0",
            description = "Key size in bytes; 0 sends no key (default: ${DEFAULT-VALUE}).")
    int keySize;

    @Option(names = "--num-headers", paramLabel = "N", defaultValue = "0", description = "Headers per record (default: ${DEFAULT-VALUE}).")
    int numHeaders;

    @Option(names = "--record-header-key-size", paramLabel = "BYTES", defaultValue = "0",
            description = "Header key size (default: ${DEFAULT-VALUE}).")
    int headerKeySize;

    @Option(names = "--record-header-size", paramLabel = "BYTES", defaultValue = "0",
            description = "Header value size; -1 for a null value (default: ${DEFAULT-VALUE}).")
    int headerValueSize;

    private final PrintStream out;
    private final PrintStream err;

    public E2eLatencyCommand() {
        this(System.out, System.err);
    }

    E2eLatencyCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** What to run, validated. */
    record Args(String brokers, String topic, int records, String acks, int size, Properties props, int keySize,
                int headers, int headerKeySize, int headerValueSize) { }

    Args args() {
        boolean named = bootstrapServer != null || topic != null || numRecords != null || acks != null || recordSize != null
                || commandConfig != null;
        String brokers = bootstrapServer;
        String t = topic;
        String a = acks;
        long n;
        long size;
        Path config = commandConfig;
        if (!positional.isEmpty()) {
            if (named) {
                throw new UserException("give the arguments either as BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE "
                        + "[PROPERTIES_FILE] or as named options (--bootstrap-server ...), not both");
            }
            if (positional.size() > 6) {
                throw new UserException("expected at most 6 arguments (BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE "
                        + "[PROPERTIES_FILE]), got " + positional.size());
            }
            if (positional.size() < 5) {
                throw new UserException("expected 5 or 6 arguments (BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE "
                        + "[PROPERTIES_FILE]), got " + positional.size());
            }
            brokers = positional.get(0);
            t = positional.get(1);
            n = number("NUM_MESSAGES", positional.get(2));
            a = positional.get(3);
            size = number("MESSAGE_SIZE", positional.get(4));
            config = positional.size() == 6 ? Path.of(positional.get(5)) : null;
        } else {
            List<String> missing = new ArrayList<>();
            if (bootstrapServer == null) {
                missing.add("--bootstrap-server");
            }
            if (topic == null) {
                missing.add("--topic");
            }
            if (numRecords == null) {
                missing.add("--num-records");
            }
            if (acks == null) {
                missing.add("--producer-acks");
            }
            if (recordSize == null) {
                missing.add("--record-size");
            }
            if (!missing.isEmpty()) {
                throw new UserException("missing " + String.join(", ", missing) + " (or give BROKERS TOPIC NUM_MESSAGES "
                        + "ACKS MESSAGE_SIZE [PROPERTIES_FILE])");
            }
            n = numRecords;
            size = recordSize;
        }
        io.kbench.coordinator.cli.Inputs.bootstrap("the bootstrap servers", brokers);
        io.kbench.coordinator.cli.Inputs.topic("the topic", t);
        if (!a.equals("1") && !a.equals("all")) {
            throw new UserException("producer acks must be 1 or all (latency is measured with synchronous "
                    + "acknowledgement), got '" + a + "'");
        }
        if (n < 1 || n > MAX_RECORDS) {
            throw new UserException("the number of records must be 1 to " + MAX_RECORDS + ", got " + n);
        }
        if (size < 0 || size > MAX_SIZE) {
            throw new UserException("the record size must be 0 to " + MAX_SIZE + " bytes, got " + size);
        }
        if (keySize < 0 || keySize > MAX_SIZE || headerKeySize < 0 || headerKeySize > 32_767 || numHeaders < 0
                || numHeaders > 10_000 || headerValueSize < -1 || headerValueSize > MAX_SIZE) {
            throw new UserException("--record-key-size must be 0 to " + MAX_SIZE + ", --num-headers 0 to 10000, "
                    + "--record-header-key-size 0 to 32767 and --record-header-size -1 to " + MAX_SIZE);
        }
        return new Args(brokers, t, (int) n, a, (int) size, load(config), keySize, numHeaders, headerKeySize,
                headerValueSize);
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new UserException(name + " must be a whole number, got '" + value + "'");
        }
    }

    private static Properties load(Path file) {
        // bounded, UTF-8, KEY=VALUE lines: the same reading as every other .properties input
        return file == null ? new Properties() : io.kbench.coordinator.cli.PropertiesFile.load(file, "properties file " + file);
    }

    @Override
    public Integer call() {
        Args a = args();
        Properties base = new Properties();
        base.putAll(a.props());
        base.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, a.brokers());
        ensureTopic(a, base);
        Properties cp = new Properties();
        cp.putAll(base);
        cp.put(ConsumerConfig.GROUP_ID_CONFIG, "kbench-e2e-" + System.currentTimeMillis());
        cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        cp.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "0");
        Properties pp = new Properties();
        pp.putAll(base);
        pp.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        pp.put(ProducerConfig.ACKS_CONFIG, a.acks());
        pp.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(POLL_TIMEOUT_MS));
        Histogram endToEnd = new Histogram(3_600_000_000L, 3);
        Histogram acked = new Histogram(3_600_000_000L, 3);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pp, new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(a.topic(), Duration.ofMillis(POLL_TIMEOUT_MS))
                    .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            Random random = new Random(0);
            double totalNanos = 0;
            String failure = null;
            int done = 0;
            for (int i = 0; i < a.records(); i++) {
                byte[] key = a.keySize() == 0 ? null : letters(random, a.keySize());
                byte[] value = letters(random, a.size());
                List<Header> headers = headers(random, a);
                long begin = System.nanoTime();
                try {
                    producer.send(new ProducerRecord<>(a.topic(), null, key, value, headers)).get();
                } catch (ExecutionException e) {
                    failure = "send of record " + i + " failed: " + root(e);
                    break;
                }
                long ack = System.nanoTime();
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(POLL_TIMEOUT_MS));
                long elapsed = System.nanoTime() - begin;
                failure = check(records, key, value, headers);
                if (failure != null) {
                    failure = "record " + i + ": " + failure;
                    break;
                }
                if (i % 1000 == 0) {
                    out.println(i + "\t" + elapsed / 1000.0 / 1000.0);
                }
                totalNanos += elapsed;
                endToEnd.recordValue(Math.max(1, elapsed / 1000));
                acked.recordValue(Math.max(1, (ack - begin) / 1000));
                done++;
            }
            if (done > 0) {
                out.printf(Locale.ROOT, "Avg latency: %.4f ms%n", totalNanos / done / 1000.0 / 1000.0);
                out.printf(Locale.ROOT, "Percentiles: 50th = %d, 99th = %d, 99.9th = %d%n",
                        endToEnd.getValueAtPercentile(50) / 1000, endToEnd.getValueAtPercentile(99) / 1000,
                        endToEnd.getValueAtPercentile(99.9) / 1000);
                distribution(done, endToEnd, acked);
            }
            try {
                consumer.commitSync(Duration.ofSeconds(10));
            } catch (KafkaException e) {
                err.println("kbench e2e-latency: could not commit the consumer's offsets: " + root(e));
            }
            if (failure != null) {
                err.println("kbench e2e-latency: " + failure + (done > 0 ? " (figures above: the " + done
                        + " records before it)" : ""));
                return 1;
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("interrupted");
        } catch (KafkaException e) {
            throw new UserException("Kafka at " + a.brokers() + ": " + root(e));
        }
    }

    private void distribution(int done, Histogram endToEnd, Histogram acked) {
        err.printf(Locale.ROOT, "kbench e2e-latency: %d records; end-to-end (send -> received) µs: mean %.1f, p50 %d, "
                        + "p99 %d, p99.9 %d, p99.99 %d, max %d%n", done, endToEnd.getMean(),
                endToEnd.getValueAtPercentile(50), endToEnd.getValueAtPercentile(99), endToEnd.getValueAtPercentile(99.9),
                endToEnd.getValueAtPercentile(99.99), endToEnd.getMaxValue());
        err.printf(Locale.ROOT, "kbench e2e-latency: send -> ack µs: mean %.1f, p50 %d, p99 %d, p99.9 %d, max %d%n",
                acked.getMean(), acked.getValueAtPercentile(50), acked.getValueAtPercentile(99),
                acked.getValueAtPercentile(99.9), acked.getMaxValue());
        err.println("kbench e2e-latency: end-to-end distribution (ms):");
        endToEnd.outputPercentileDistribution(err, 5, 1000.0);
    }

    /** Checks the poll returned exactly the record sent, as the tool does. Null when it did. */
    static String check(ConsumerRecords<byte[], byte[]> records, byte[] key, byte[] value, List<Header> headers) {
        if (records.isEmpty()) {
            return "poll() timed out before finding a result (timeout: " + POLL_TIMEOUT_MS + " ms)";
        }
        if (records.count() != 1) {
            return "one record was expected back, " + records.count() + " came (is something else producing to the topic?)";
        }
        ConsumerRecord<byte[], byte[]> r = records.iterator().next();
        if (!Arrays.equals(value, r.value())) {
            return "the value read did not match the value sent";
        }
        if (!Arrays.equals(key, r.key())) {
            return "the key read did not match the key sent";
        }
        Iterator<Header> read = r.headers().iterator();
        for (Header h : headers) {
            if (!read.hasNext()) {
                return "fewer headers read than sent";
            }
            Header got = read.next();
            if (!got.key().equals(h.key()) || !Arrays.equals(got.value(), h.value())) {
                return "header '" + h.key() + "' read did not match the header sent";
            }
        }
        return read.hasNext() ? "more headers read than sent" : null;
    }

    /** {@code length} copies of one random capital letter, as the tool's values. */
    static byte[] letters(Random random, int length) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) (random.nextInt(26) + 65));
        return b;
    }

    private static List<Header> headers(Random random, Args a) {
        List<Header> out = new ArrayList<>(a.headers());
        for (int i = 0; i < a.headers(); i++) {
            String k = new String(letters(random, a.headerKeySize()), java.nio.charset.StandardCharsets.US_ASCII);
            out.add(new RecordHeader(k, a.headerValueSize() == -1 ? null : letters(random, a.headerValueSize())));
        }
        return out;
    }

    /** Creates the topic with 1 partition and replication factor 1 when it is missing, as the tool does. */
    private void ensureTopic(Args a, Properties base) {
        String nobody = io.kbench.driver.kafka.BootstrapProbe.nothingListening(a.brokers(), 1_000);
        if (nobody != null) {
            throw UserException.unreachable("cannot reach Kafka at " + a.brokers() + ": " + nobody);
        }
        Admin admin = null;
        try {
            admin = Admin.create(base);
            Set<String> names;
            try {
                names = admin.listTopics().names().get(15, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                String why = io.kbench.driver.kafka.BootstrapProbe.explain(a.brokers(), 1_000);
                throw UserException.unreachable("cannot reach Kafka at " + a.brokers() + ": no broker answered within 15 s"
                        + (why.isEmpty() ? "" : " (" + why + ")"));
            } catch (ExecutionException e) {
                throw new UserException("cannot reach Kafka at " + a.brokers() + ": " + root(e));
            }
            if (names.contains(a.topic())) {
                return;
            }
            out.printf("Topic \"%s\" does not exist. Will create topic with %d partition(s) and replication factor = %d%n",
                    a.topic(), 1, 1);
            try {
                admin.createTopics(List.of(new NewTopic(a.topic(), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new UserException("could not create topic " + a.topic() + ": " + root(e));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("interrupted");
        } catch (KafkaException e) {
            throw new UserException("Kafka at " + a.brokers() + ": " + root(e));
        } finally {
            if (admin != null) {
                admin.close(Duration.ofSeconds(2)); // an unreachable cluster's calls are not waited for
            }
        }
    }

    private static String root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
