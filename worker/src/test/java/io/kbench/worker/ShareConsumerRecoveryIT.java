package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kbench.driver.Driver;
import io.kbench.driver.DriverConfig;
import io.kbench.driver.NanoClock;
import io.kbench.driver.ShareConsumerHandle;
import io.kbench.driver.ShareRecordListener;
import io.kbench.driver.TopicSpec;
import io.kbench.driver.kafka.KafkaDriverFactory;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.Counters;
import io.kbench.protocol.MicrosClock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A share consumer that dies holding records, on a real broker: its records' locks run out and the group's other
 * consumer gets them again. kbench counts those deliveries as redeliveries (not duplicates), and the group
 * accepts every record once: nothing is lost. The records carry kbench's verified stamp (producer id and sequence),
 * and the two consumers' delivery logs — what the coordinator's per-record check receives — show every record
 * first-delivered once and the dead consumer's again.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ShareConsumerRecoveryIT {
    private static final int RECORDS = 300;
    private static final int NONCE = 42;

    /** A value as a verifying kbench producer writes it: magic, stamp, producer id, sequence (28 bytes). */
    private static byte[] stamped(long sequence) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(28);
        b.putInt(0xCB7A5E02).putLong(System.currentTimeMillis() * 1000).putLong(SequenceTracker.producerId(NONCE, 0))
                .putLong(sequence);
        return b.array();
    }

    @Test
    void aDeadConsumersRecordsGoToTheOtherOnceTheirLocksRunOut() throws Exception {
        // the broker allows record locks of 1 s (its default floor is 15 s), so the test waits one second, not fifteen
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().config("group.share.min.record.lock.duration.ms", "1000").start();
             Driver driver = new KafkaDriverFactory().create(new DriverConfig(
                     Map.of("bootstrap.servers", kafka.bootstrapServers()), Map.of(),
                     Map.of("max.poll.records", "100"), Map.of()))) {
            driver.createTopics(List.of(new TopicSpec("recover", 1, (short) 1, Map.of())), Duration.ofSeconds(30));
            driver.checkShareGroups(Duration.ofSeconds(30));
            driver.configureShareGroups(List.of("g"), Map.of("share.record.lock.duration.ms", "1000",
                    "share.auto.offset.reset", "earliest"), Duration.ofSeconds(30));
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers",
                    kafka.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < RECORDS; i++) {
                    p.send(new ProducerRecord<>("recover", stamped(i)));
                }
                p.flush();
            }
            RunClock clock = new RunClock(MicrosClock.SYSTEM, 0, NanoClock.SYSTEM);
            // the consumer that dies: it is given records, processes and accepts them, and is gone before its next
            // poll (which would have sent the acknowledgements) and without closing
            ShareConsumerMetrics dying = new ShareConsumerMetrics(clock, 0, 0, 0, 1)
                    .verifyInto(new ShareDeliveryLog("g", NONCE));
            ShareConsumerHandle dead = driver.createShareConsumer("recover", "g", "dying", true);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (dying.totals().shareDelivered() == 0 && System.nanoTime() < deadline) {
                dead.poll(Duration.ofMillis(200), dying);
                dying.pollDone();
            }
            long held = dying.totals().shareDelivered();
            // a share fetch hands over whole record batches: the dying consumer may well hold every record
            assertTrue(held > 0, "the dying consumer holds records: " + held);

            ShareConsumerMetrics survivor = new ShareConsumerMetrics(clock, 0, 0, 0, 2)
                    .verifyInto(new ShareDeliveryLog("g", NONCE));
            ShareConsumerHandle alive = driver.createShareConsumer("recover", "g", "survivor", true);
            try {
                while (survivor.totals().shareAccepted() < RECORDS && System.nanoTime() < deadline) {
                    alive.poll(Duration.ofMillis(200), survivor);
                    survivor.pollDone();
                }
                alive.poll(Duration.ofMillis(200), survivor); // sends the last acknowledgements
                survivor.pollDone();
                // the members by client-id prefix, as a run's last backlog reading waits on them
                assertEquals(2, driver.shareGroupMembers(java.util.Set.of("g"), "", Duration.ofSeconds(10)));
                assertEquals(1, driver.shareGroupMembers(java.util.Set.of("g"), "surv", Duration.ofSeconds(10)));
            } finally {
                alive.close();
            }
            // a closed consumer has left at once; one that has not closed (it stopped polling, its client still runs)
            // is still a member
            assertEquals(0, membersWithin(driver, "survivor", 0, Duration.ofSeconds(5)), "left on close");
            assertEquals(1, driver.shareGroupMembers(java.util.Set.of("g"), "dying", Duration.ofSeconds(10)));
            Counters s = survivor.totals();
            assertEquals(RECORDS, s.shareAccepted(), "every record accepted once by the group's live consumer: " + s);
            assertEquals(RECORDS, s.shareDelivered(), "it got the others' and the dead one's, each once: " + s);
            // at least the records the dead consumer had been given; more when its client had fetched further ahead
            // (acquired for it, never handed to it): those come with a delivery count of 2 as well
            assertTrue(s.shareRedelivered() >= held, "the dead consumer's records came again as redeliveries: " + s);
            assertEquals(0, s.shareReleased() + s.shareRejected());
            // what the coordinator's check receives from the two consumers (one worker's harvest)
            ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
            assertEquals(0, dying.deliveries().harvest(t) + survivor.deliveries().harvest(t));
            ShareDeliveryLog.Stream st = t.find("g", SequenceTracker.producerId(NONCE, 0), 0);
            java.util.BitSet first = new java.util.BitSet();
            long firstCount = 0;
            long[] f = st.firstRanges();
            for (int i = 0; i < f.length; i += 2) {
                first.set((int) f[i], (int) f[i + 1]);
                firstCount += f[i + 1] - f[i];
            }
            java.util.BitSet seen = (java.util.BitSet) first.clone();
            long[] a = st.againRanges();
            for (int i = 0; i < a.length; i += 2) {
                seen.set((int) a[i], (int) a[i + 1]);
            }
            assertEquals(first.cardinality(), firstCount, "no record first-delivered twice: " + java.util.Arrays.toString(f));
            assertTrue(first.cardinality() >= held, "the dead one's first deliveries are in: " + first.cardinality());
            assertEquals(RECORDS, seen.cardinality(), "every record delivered: nothing lost");
            assertEquals(RECORDS, seen.nextClearBit(0));
            assertTrue(a.length > 0, "the dead one's records came again");
            dead.close(); // the test's own clean-up; the group had already moved on
            assertEquals(0, membersWithin(driver, "", 0, Duration.ofSeconds(5)), "no member left");
        }
    }

    /** The group's members with the prefix, asked until they are {@code expected} or {@code bound} has passed. */
    private static int membersWithin(Driver driver, String prefix, int expected, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        int n;
        while ((n = driver.shareGroupMembers(java.util.Set.of("g"), prefix, Duration.ofSeconds(10))) != expected
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return n;
    }
}
