package io.kbench.driver.kafka;

import java.util.Locale;
import java.util.Map;

import io.kbench.driver.ClusterFacts;
import io.kbench.driver.RecordShape;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.ByteUtils;

/**
 * Whether the producer would refuse a workload's records for their size before sending one: {@code KafkaProducer}
 * estimates each record's size as a batch of its own, an upper bound ({@code AbstractRecords
 * .estimateSizeInBytesUpperBound}: for the v2 format the batch header, 61 bytes, and the record with its
 * length fields at their widest, 21 bytes, whatever the compression), and throws {@code RecordTooLargeException} when
 * that is above {@code max.request.size} or {@code buffer.memory}. A 1 MiB value with Kafka's defaults is such a
 * record: every send fails, and a run of it measures nothing. Computed here from the sizes (Kafka's own method is in
 * an internal package and takes the bytes themselves); {@code RecordLimitsTest} holds it against Kafka's.
 *
 * <p>And whether the brokers would refuse them: a topic takes no batch larger than its {@code max.message.bytes}
 * (the brokers' {@code message.max.bytes} unless the topic sets it), as the producer sent it — compressed if the
 * producer compresses. Only an uncompressed record is known to be too large before it is sent; the smallest batch
 * one record can be ({@link #smallestBatch}) is what is compared.
 */
public final class RecordLimits {
    /** {@code DefaultRecordBatch.RECORD_BATCH_OVERHEAD}: the v2 batch header. */
    static final int BATCH_OVERHEAD = 61;
    /** {@code DefaultRecord.MAX_RECORD_OVERHEAD}: a record's length, attributes, timestamp and offset deltas at their widest. */
    static final int MAX_RECORD_OVERHEAD = 21;

    private RecordLimits() { }

    /** The stamp's own header ({@link Stamp#HEADER}): its value's length, or -1 when the value carries the stamp. */
    static int stampHeaderBytes(RecordShape s) {
        int inValue = s.verified() ? Stamp.IN_VALUE_VERIFIED : Stamp.IN_VALUE_STAMP_ONLY;
        return s.stamped() && s.valueBytes() < inValue ? (s.verified() ? Stamp.VERIFIED : Stamp.STAMP_ONLY) : -1;
    }

    /** Bytes of the record's key, value and headers with their length fields (DefaultRecord's {@code sizeOf}). */
    static long body(RecordShape s) {
        long size = (s.keyBytes() < 0 ? ByteUtils.sizeOfVarint(-1) : ByteUtils.sizeOfVarint(s.keyBytes()) + (long) s.keyBytes())
                + ByteUtils.sizeOfVarint(s.valueBytes()) + (long) s.valueBytes();
        int stampHeader = stampHeaderBytes(s);
        size += ByteUtils.sizeOfVarint(s.headers() + (stampHeader >= 0 ? 1 : 0));
        long one = ByteUtils.sizeOfVarint(s.headerKeyBytes()) + (long) s.headerKeyBytes()
                + (s.headerValueBytes() < 0 ? ByteUtils.sizeOfVarint(-1)
                : ByteUtils.sizeOfVarint(s.headerValueBytes()) + (long) s.headerValueBytes());
        size += s.headers() * one;
        if (stampHeader >= 0) {
            size += ByteUtils.sizeOfVarint(Stamp.HEADER.length()) + Stamp.HEADER.length()
                    + ByteUtils.sizeOfVarint(stampHeader) + stampHeader;
        }
        return size;
    }

    /** The size the producer holds against its limits: the record's batch at its largest ({@code estimateSizeInBytesUpperBound}). */
    static long producerEstimate(RecordShape s) {
        return BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + body(s);
    }

    /**
     * The smallest batch one uncompressed record can be: the batch header, and the record with its timestamp and
     * offset deltas 0 (one byte each), its attributes and its length field.
     */
    static long smallestBatch(RecordShape s) {
        long body = 1 + 1 + 1 + body(s);
        return BATCH_OVERHEAD + ByteUtils.sizeOfVarint((int) Math.min(Integer.MAX_VALUE, body)) + body;
    }

    /**
     * Why a producer with {@code settings} (a profile's {@code common} and {@code producer} sections) would refuse a
     * record of {@code shape}, in one line that begins with {@code what} ("every record", when the shape is the
     * workload's smallest record), with the size and the setting to raise; or null.
     */
    public static String producerProblem(Map<String, String> settings, RecordShape shape, String what) {
        long size = producerEstimate(shape);
        for (String name : new String[] {ProducerConfig.MAX_REQUEST_SIZE_CONFIG, ProducerConfig.BUFFER_MEMORY_CONFIG}) {
            long limit = limit(settings, name);
            if (size > limit) {
                return String.format(Locale.ROOT, "the producer would refuse %s: %,d bytes as it sizes one (value, key, "
                        + "headers and Kafka's batch header), above its %s of %,d%s; set "
                        + "producer.%s to at least %,d%s", what, size, name, limit,
                        settings.containsKey(name) ? "" : " (Kafka's default)", name, size,
                        name.equals(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)
                        ? ", and the topics' max.message.bytes (the brokers' message.max.bytes) to take it" : "");
            }
        }
        return null;
    }

    /**
     * Why the brokers would refuse every record of at least {@code smallest} from a producer with {@code settings}: the
     * topics whose {@code max.message.bytes} (as {@code cluster} describes them) is below the smallest batch one such
     * record can be, uncompressed; null when none is, when the producer compresses (the batch's size is then known only
     * once it is sent), or when the topics' configs were not read.
     */
    static String brokerProblem(Map<String, String> settings, ClusterFacts cluster, RecordShape smallest) {
        String compression = settings.getOrDefault(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none").trim();
        if (cluster == null || !compression.equalsIgnoreCase("none")) {
            return null;
        }
        long batch = smallestBatch(smallest);
        java.util.TreeMap<String, Long> refusing = new java.util.TreeMap<>();
        cluster.topics().forEach((name, topic) -> {
            String limit = topic.configs().get("max.message.bytes");
            try {
                if (limit != null && Long.parseLong(limit.trim()) < batch) {
                    refusing.put(name, Long.parseLong(limit.trim()));
                }
            } catch (NumberFormatException notANumber) {
                // a value no broker would give: nothing to compare
            }
        });
        if (refusing.isEmpty()) {
            return null;
        }
        Map.Entry<String, Long> first = refusing.firstEntry();
        return String.format(Locale.ROOT, "the brokers would refuse every record: topic %s%s takes batches of at most %,d "
                + "bytes (its max.message.bytes; the brokers' message.max.bytes unless the topic sets it), and one record "
                + "here is a batch of at least %,d bytes uncompressed; set the topic's "
                + "max.message.bytes (topic.max.message.bytes in the profile, for the topics kbench creates) to at "
                + "least %,d, or compress (producer.compression.type)", first.getKey(),
                refusing.size() == 1 ? "" : String.format(Locale.ROOT, " (and %d more)", refusing.size() - 1),
                first.getValue(), batch, batch);
    }

    /** The producer's value of a size limit: the setting, else Kafka's default. */
    private static long limit(Map<String, String> settings, String name) {
        ConfigDef.ConfigKey key = ProducerConfig.configDef().configKeys().get(name);
        String value = settings.get(name);
        Object parsed = value == null ? key.defaultValue : ConfigDef.parseType(name, value.trim(), key.type);
        return ((Number) parsed).longValue();
    }
}
